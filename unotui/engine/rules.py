"""The table's rules: one frozen, declarative object, named presets and house rules.

A :class:`Rules` value says everything about how a table plays, so it can be shown to
players, saved in a config file, sent over the wire and written into a transcript.
House rules combine freely; :meth:`Rules.validate` rejects the few combinations that
make no sense with a message that names the bad part.

Presets (see ``docs/rules.md``):

* ``classic`` - the 108-card game by the 2015 instruction sheet.
* ``classic-2008`` / ``classic-2001`` - the older editions (2001: UNO penalty 4).
* ``giant`` (the default) - classic plus three customizable wild cards.
* ``modern`` - 112 cards: classic plus one Wild Swap Hands and three customizable wilds.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError

__all__ = [
    "EFFECTS",
    "PRESETS",
    "CustomRule",
    "Effect",
    "Rules",
    "Scoring",
    "Stacking",
]


class Stacking(enum.StrEnum):
    """Whether a draw penalty can be passed on by playing another draw card."""

    OFF = "off"
    OFFICIAL = "official"  # +2 on +2, +4 on +4 (the official "Progressive UNO" house rule)
    CROSS = "cross"  # additionally +4 on +2 and +2 on +4 (of the named colour)


class Scoring(enum.StrEnum):
    """How rounds are scored and a match is won."""

    STANDARD = "standard"  # round winner scores opponents' cards; first to target wins
    LOWEST = "lowest"  # everyone tallies what they hold; at the target, lowest tally wins
    ELIMINATION = "elimination"  # reaching the target eliminates; last one standing wins


class Effect(enum.StrEnum):
    """The enforceable vocabulary of the customizable wild card.

    Each effect is applied in the order written, after the card lands and the player has
    named the colour (``draw_until_colour`` draws to that colour).  Going out on the card
    fires no effect.
    """

    DRAW_UNTIL_COLOUR = "draw_until_colour"  # next player draws until they get the named colour
    DISCARD_WILDS = "discard_wilds"  # everyone else discards their wild cards
    DRAW3_IF_STUCK = "draw3_if_stuck"  # next player draws 3 (and loses the turn) if they cannot play
    EXTRA_TURN = "extra_turn"  # the player takes another turn
    NEXT_TO_SEVEN = "next_to_seven"  # next player draws or discards to exactly 7 cards
    ALL_TO_THREE = "all_to_three"  # everyone draws or discards to exactly 3 cards
    HANDS_FACE_UP = "hands_face_up"  # all hands are visible to everyone until the player's next turn
    SWAP_HANDS = "swap_hands"  # swap hands with an opponent of the player's choice
    SHUFFLE_HANDS = "shuffle_hands"  # gather, shuffle and deal out all hands evenly
    SKIP_NEXT = "skip_next"  # the next player loses their turn
    NEXT_DRAWS_TWO = "next_draws_two"  # the next player draws 2 cards

    @property
    def words(self) -> str:
        """What the effect does, in plain words (the help's, and the house rules form's)."""
        return _EFFECT_WORDS[self]


EFFECTS: tuple[str, ...] = tuple(e.value for e in Effect)


@dataclass(frozen=True, slots=True)
class CustomRule:
    """What the customizable wild does at this table.

    Attributes:
        effects: enforced effects, applied in order.
        text: a free-text line shown to everyone (for social rules such as "tell a joke").
    """

    effects: tuple[Effect, ...] = ()
    text: str = ""

    @staticmethod
    def parse(spec: str | Iterable[str], text: str = "") -> CustomRule:
        """Build a rule from ``"extra_turn+discard_wilds"`` or a list of effect names."""
        names = [s for s in spec.replace(",", "+").split("+")] if isinstance(spec, str) else list(spec)
        effects: list[Effect] = []
        for raw in names:
            name = str(raw).strip().lower().replace("-", "_")
            if not name or name == "none":
                continue
            try:
                effects.append(Effect(name))
            except ValueError:
                raise RulesError(
                    f"unknown effect {raw!r} in custom wild rule (known: {', '.join(EFFECTS)})"
                ) from None
        if len(text) > 200:
            raise RulesError("custom wild text is longer than 200 characters")
        return CustomRule(tuple(effects), text)

    def describe(self) -> str:
        """Plain words for the help screen."""
        parts = [e.words for e in self.effects]
        if self.text:
            parts.append(f'"{self.text}"')
        return "; ".join(parts) if parts else "plays as a plain Wild"


_EFFECT_WORDS = {  # (short: the house rules form lists them in a column 46 cells wide)
    Effect.DRAW_UNTIL_COLOUR: "next player draws to the colour you name",
    Effect.DISCARD_WILDS: "everyone else discards their wild cards",
    Effect.DRAW3_IF_STUCK: "next player draws 3, skipped if they can't play",
    Effect.EXTRA_TURN: "you take another turn",
    Effect.NEXT_TO_SEVEN: "next player draws or discards to 7 cards",
    Effect.ALL_TO_THREE: "everyone draws or discards to 3 cards",
    Effect.HANDS_FACE_UP: "all hands face up until your next turn",
    Effect.SWAP_HANDS: "swap hands with an opponent you choose",
    Effect.SHUFFLE_HANDS: "all hands shuffled and dealt out again",
    Effect.SKIP_NEXT: "next player loses their turn",
    Effect.NEXT_DRAWS_TWO: "next player draws 2 cards",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a table.  Build with :meth:`preset`, then :meth:`with_` to vary.

    Attributes:
        name: preset name this was built from (informational).
        swap_hands: how many Wild Swap Hands cards are in the deck.
        shuffle_hands: how many Wild Shuffle Hands cards are in the deck.
        custom_wilds: how many Wild Customizable cards are in the deck (0-3).
        custom: what a customizable wild does.
        stacking: draw-card stacking house rule.
        seven_o: playing a 7 swaps hands with a chosen player; a 0 passes all hands on.
        jump_in: a player holding the identical card may play it out of turn.
        draw_to_match: draw until you get a playable card, instead of exactly one.
        forced_play: a playable drawn card must be played.
        no_bluffing: an illegal Wild Draw Four is refused instead of being a bluff.
        challenge: a Wild Draw Four may be challenged (off: "no challenge").
        uno_penalty: cards drawn when caught not calling UNO.
        hand_size: cards dealt to each player.
        target_score: points that end the match.
        scoring: how rounds are scored.
        teams: partners sit across (seat i with seat i + n/2); needs an even table.
    """

    name: str = "giant"
    swap_hands: int = 0
    shuffle_hands: int = 0
    custom_wilds: int = 3
    custom: CustomRule = field(default_factory=CustomRule)
    stacking: Stacking = Stacking.OFF
    seven_o: bool = False
    jump_in: bool = False
    draw_to_match: bool = False
    forced_play: bool = False
    no_bluffing: bool = False
    challenge: bool = True
    uno_penalty: int = 2
    hand_size: int = 7
    target_score: int = 500
    scoring: Scoring = Scoring.STANDARD
    teams: bool = False

    @staticmethod
    def preset(name: str = "giant") -> Rules:
        """The named preset; raises :class:`RulesError` naming the known presets."""
        try:
            return PRESETS[name.strip().lower()]
        except KeyError:
            raise RulesError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 108 plus the specials."""
        return 108 + self.swap_hands + self.shuffle_hands + self.custom_wilds

    def with_(self, **changes: Any) -> Rules:
        """A copy with some rules changed, validated.

        Values are checked like settings, so ``scoring="lowest"`` means
        ``Scoring.LOWEST``; an unknown key or a bad value raises :class:`RulesError`.
        """
        for key, value in changes.items():
            if key in _FIELD_TYPES:
                changes[key] = _coerce(key, value)
            elif key not in ("name", "custom"):
                raise RulesError(f"unknown rule {key!r} (known: {', '.join(sorted(_SETTABLE))})")
        return dataclasses.replace(self, **changes).validate()

    def validate(self, players: int | None = None) -> Rules:
        """Check the rules (for a table of ``players`` if given); return self."""
        for key, kind in _FIELD_TYPES.items():
            value = getattr(self, key)
            # bool is an int subclass: plain ints and bools must not stand in for each other.
            ok = type(value) is kind if kind in (int, bool) else isinstance(value, kind)
            if not ok:
                raise RulesError(f"rule {key!r} must be a {kind.__name__}, not {value!r}")
        if not isinstance(self.custom, CustomRule):
            raise RulesError(f"rule 'custom' must be a CustomRule, not {self.custom!r}")
        if not 0 <= self.custom_wilds <= 3:
            raise RulesError("custom_wilds must be between 0 and 3")
        if not 0 <= self.swap_hands <= 4 or not 0 <= self.shuffle_hands <= 4:
            raise RulesError("swap_hands and shuffle_hands must be between 0 and 4")
        if not 0 <= self.uno_penalty <= 10:
            raise RulesError("uno_penalty must be between 0 and 10")
        if not 1 <= self.hand_size <= 15:
            raise RulesError("hand_size must be between 1 and 15")
        if not 1 <= self.target_score <= 100_000:
            raise RulesError("target_score must be between 1 and 100000")
        if self.teams and self.scoring is Scoring.ELIMINATION:
            raise RulesError("teams cannot be combined with elimination scoring")
        if players is not None:
            if not 2 <= players <= 10:
                raise RulesError(f"a table has 2-10 players, not {players}")
            if self.teams and (players % 2 or players < 4):
                raise RulesError(f"teams need an even table of 4-10 players, not {players}")
            if players * self.hand_size + 1 > self.deck_size:
                raise RulesError(
                    f"hand_size {self.hand_size} x {players} players needs more cards "
                    f"than the {self.deck_size}-card deck holds"
                )
        return self

    # ----- text configuration (command line and TOML) ---------------------------------

    def with_settings(self, settings: Mapping[str, object]) -> Rules:
        """Apply ``{key: value}`` settings (values may be strings from the command line).

        Unknown keys and bad values raise :class:`RulesError` naming the key.
        """
        changes: dict[str, Any] = {}
        custom_effects: object = None
        custom_text: str | None = None
        for raw_key, value in settings.items():
            key = raw_key.strip().lower().replace("-", "_")
            if key in ("custom", "custom_effects"):
                custom_effects = value
                continue
            if key == "custom_text":
                custom_text = str(value)
                continue
            if key == "preset":
                continue
            if key not in _FIELD_TYPES:
                raise RulesError(f"unknown rule {raw_key!r} (known: {', '.join(sorted(_SETTABLE))})")
            changes[key] = _coerce(key, value)
        if custom_effects is not None or custom_text is not None:
            base = self.custom
            effects: str | Iterable[str] = (
                [e.value for e in base.effects] if custom_effects is None else _as_effects(custom_effects)
            )
            changes["custom"] = CustomRule.parse(
                effects, base.text if custom_text is None else custom_text
            )
        return self.with_(**changes)

    @staticmethod
    def from_toml(text: str) -> Rules:
        """Rules from a TOML document: ``preset = "giant"`` plus any rule keys, and an
        optional ``[custom_wild]`` table with ``effects = [...]`` and ``text = "..."``."""
        import tomllib  # here: only a rules file needs it, not every start

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"rules file is not valid TOML: {exc}") from None
        return Rules.from_mapping(data)

    @staticmethod
    def from_mapping(data: Mapping[str, Any]) -> Rules:
        """Rules from a decoded TOML/JSON mapping (see :meth:`from_toml`)."""
        flat = dict(data)
        base = Rules.preset(str(flat.pop("preset", flat.pop("name", "giant"))))
        custom = flat.pop("custom_wild", None)
        if isinstance(custom, Mapping):
            if "effects" in custom:
                flat["custom"] = custom["effects"]
            if "text" in custom:
                flat["custom_text"] = custom["text"]
            if "count" in custom:
                flat["custom_wilds"] = custom["count"]
        elif custom is not None:
            raise RulesError("custom_wild must be a table with 'effects' and 'text'")
        return base.with_settings(flat)

    def to_mapping(self) -> dict[str, Any]:
        """A JSON/TOML-friendly mapping that :meth:`from_mapping` reads back."""
        out: dict[str, Any] = {"preset": self.name}
        for f in dataclasses.fields(self):
            if f.name in ("name", "custom"):
                continue
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        out["custom_wild"] = {"effects": [e.value for e in self.custom.effects], "text": self.custom.text}
        return out


def _as_effects(value: object) -> str | list[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    raise RulesError("custom wild effects must be a string or a list of effect names")


_FIELD_TYPES: dict[str, Any] = {
    "swap_hands": int,
    "shuffle_hands": int,
    "custom_wilds": int,
    "stacking": Stacking,
    "seven_o": bool,
    "jump_in": bool,
    "draw_to_match": bool,
    "forced_play": bool,
    "no_bluffing": bool,
    "challenge": bool,
    "uno_penalty": int,
    "hand_size": int,
    "target_score": int,
    "scoring": Scoring,
    "teams": bool,
}
_SETTABLE = tuple(_FIELD_TYPES)
_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def _coerce(key: str, value: object) -> Any:
    kind = _FIELD_TYPES[key]
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RulesError(f"rule {key!r} takes on/off, not {value!r}")
    if kind is int:
        if isinstance(value, bool):
            raise RulesError(f"rule {key!r} takes a whole number, not {value!r}")
        try:
            return int(str(value).strip())
        except ValueError:
            raise RulesError(f"rule {key!r} takes a whole number, not {value!r}") from None
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        known = ", ".join(m.value for m in kind)
        raise RulesError(f"rule {key!r} takes one of {known}, not {value!r}") from None


_CLASSIC = Rules(name="classic", custom_wilds=0)
PRESETS: dict[str, Rules] = {
    "classic": _CLASSIC,
    "classic-2008": dataclasses.replace(_CLASSIC, name="classic-2008"),
    "classic-2001": dataclasses.replace(_CLASSIC, name="classic-2001", uno_penalty=4),
    "giant": Rules(name="giant", custom_wilds=3),
    "modern": Rules(name="modern", custom_wilds=3, swap_hands=1),
}
