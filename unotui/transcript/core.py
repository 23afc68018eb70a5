"""JSON transcripts: a game's setup plus its actions, replayed with full validation.

The format is documented in ``docs/transcripts.md``.  In short::

    {
      "format": "unotui-transcript/2",
      "players": ["Ann", "Bob"],          # or a number of seats
      "rules": {"preset": "classic", "stacking": "official"},   # optional (default: giant)
      "dealer": 0,                         # optional (default: the seats draw for it)
      "seed": 7,                           # optional (default 0): shuffles and reshuffles
      "secret": "9f86d0...",               # optional, instead of seed: the match secret (hex)
      "keys": ["4be1...", "07aa...", ...],  # /3, instead of seed: every round's key (hex)
      "deck": "R5 G7 B+2 ...",             # optional: round 1's deck from the top down
      "actions": [[1, "R5"], [0, "draw"], [0, "keep"], ...]
    }

Replaying never trusts the file: every action goes through :meth:`Game.apply`, and the
first illegal or malformed step stops the replay with a :class:`TranscriptError` that
names the step.

Versions.  ``/2`` writes every step a player took.  ``/1`` files were written when a turn
draw whose card could not be played ended the turn by itself; since then the drawer must
``keep`` it (so the others cannot tell), and a ``/1`` file read as ``/2`` would stop at
the next seat's step (``not_your_turn``).  A ``/1`` transcript is read as it was meant:
the replay inserts that forced ``keep`` (:func:`replay`), and writes it back as ``/1``.
``/3`` adds ``keys``: a match a seat played at a LAN or lobby table, whose host revealed
every round's key at the end (protocol version 2's ``transcript``) but never its secret;
``keys[r]`` is round ``r``'s (round 0 draws for the first dealer).  A file without keys is
still written as ``/2``, so solo saves read in older versions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import KEEP, Action, Draw, Game, Phase, Rules, UnoError, deal_order, parse_cards

__all__ = [
    "FORMAT",
    "FORMATS",
    "KEYS_FORMAT",
    "Transcript",
    "TranscriptError",
    "deck_from_hands",
    "final_state",
    "replay",
    "transcript_of",
]

FORMAT = "unotui-transcript/2"
#: the format of a transcript made of round keys (a seat's record of a hosted match)
KEYS_FORMAT = "unotui-transcript/3"
#: every format read, by version: ``/1`` implies the forced keep after an unplayable draw,
#: ``/3`` may carry ``keys``
FORMATS = {"unotui-transcript/1": 1, FORMAT: 2, KEYS_FORMAT: 3}
#: the most round keys a file may list (a match to 100000 points of 2 seats has fewer)
MAX_KEYS = 100_000


class TranscriptError(ValueError):
    """A transcript that cannot be read or replayed; ``step`` is the failing action's
    index (0-based) or ``None`` when the setup itself is bad."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


@dataclass(frozen=True)
class Transcript:
    """A parsed transcript: the setup and the (seat, action) steps."""

    players: tuple[str, ...]
    rules: Rules
    dealer: int | None
    seed: int
    deck: tuple[str, ...] | None
    actions: tuple[tuple[int, str], ...]
    secret: str | None = None  # the match secret in hex; replaces ``seed`` when given
    version: int = 2  # of the format: 1 leaves the forced keep after an unplayable draw out
    #: every round's key in hex (index = round; 0 draws for the first dealer), instead of
    #: ``seed`` and ``secret``: format ``/3``
    keys: tuple[str, ...] | None = None

    @staticmethod
    def loads(text: str) -> Transcript:
        """Parse a transcript from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TranscriptError(f"not valid JSON: {exc}") from None
        return Transcript.from_mapping(data)

    @staticmethod
    def from_mapping(data: object) -> Transcript:
        """Parse a decoded transcript, checking every field's type."""
        if not isinstance(data, Mapping):
            raise TranscriptError("a transcript is a JSON object")
        fmt = data.get("format", FORMAT)
        version = FORMATS.get(fmt) if isinstance(fmt, str) else None
        if version is None:
            known = " or ".join(repr(f) for f in FORMATS)
            raise TranscriptError(f"unknown format {fmt!r} (expected {known})")
        players = data.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            names = tuple(f"Player {i + 1}" for i in range(players))
        elif isinstance(players, list) and all(isinstance(p, str) for p in players):
            names = tuple(players)
        else:
            raise TranscriptError("'players' must be a number of seats or a list of names")
        rules_data = data.get("rules", {})
        if not isinstance(rules_data, Mapping):
            raise TranscriptError("'rules' must be an object")
        try:
            rules = Rules.from_mapping(rules_data).validate(len(names))
        except UnoError as exc:
            raise TranscriptError(f"rules: {exc}") from None
        dealer = data.get("dealer")
        if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)):
            raise TranscriptError("'dealer' must be a seat number")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TranscriptError("'seed' must be an integer")
        secret = data.get("secret")
        if secret is not None:
            if "seed" in data:
                raise TranscriptError("give either 'seed' or 'secret', not both")
            if not isinstance(secret, str) or len(secret) != 64 or not _is_hex(secret):
                raise TranscriptError("'secret' must be 64 hex digits (the match secret)")
            secret = secret.lower()
        keys = data.get("keys")
        if keys is not None:
            if version < 3:
                raise TranscriptError(f"'keys' needs format {KEYS_FORMAT!r}")
            if "seed" in data or secret is not None:
                raise TranscriptError("give one of 'seed', 'secret' or 'keys'")
            if (not isinstance(keys, list) or not 2 <= len(keys) <= MAX_KEYS
                    or not all(isinstance(k, str) and len(k) == 64 and _is_hex(k) for k in keys)):
                raise TranscriptError("'keys' must be a list of round keys, 64 hex digits each, "
                                      "from round 0 on")
            keys = tuple(k.lower() for k in keys)
        deck = data.get("deck")
        if "hands" not in data:
            extra = [k for k in ("first", "draws") if k in data]
            if extra:
                named = " and ".join(repr(k) for k in extra)
                verb = "needs" if len(extra) == 1 else "need"
                raise TranscriptError(f"{named} {verb} 'hands' (one string of cards per seat)")
        if "hands" in data:
            if deck is not None:
                raise TranscriptError("give either 'deck' or 'hands', not both")
            if dealer is None:
                raise TranscriptError("'hands' needs an explicit 'dealer'")
            deck = deck_from_hands(data["hands"], data.get("first"), data.get("draws", ""), dealer,
                                   rules.hand_size, len(names))
        if isinstance(deck, str):
            deck = deck.split()
        if deck is not None and not (isinstance(deck, list) and all(isinstance(c, str) for c in deck)):
            raise TranscriptError("'deck' must be a string or a list of card texts")
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise TranscriptError("'actions' must be a list of [seat, action] pairs")
        actions: list[tuple[int, str]] = []
        for i, step in enumerate(raw_actions):
            if (
                not isinstance(step, list)
                or len(step) != 2
                or not isinstance(step[0], int)
                or isinstance(step[0], bool)
                or not isinstance(step[1], str)
            ):
                raise TranscriptError(f"step {i}: expected [seat, \"action\"], got {step!r}", i)
            actions.append((step[0], step[1]))
        return Transcript(
            names, rules, dealer, seed, tuple(deck) if deck else None, tuple(actions), secret, version, keys
        )

    def new_game(self) -> Game:
        """The game in its starting position."""
        try:
            deck = parse_cards(self.deck) if self.deck else None
            if self.keys is not None:
                keys = {r: bytes.fromhex(k) for r, k in enumerate(self.keys)}
                return Game(self.players, self.rules, dealer=self.dealer, deck=deck, keys=keys)
            if self.secret is not None:
                return Game(self.players, self.rules, dealer=self.dealer, deck=deck,
                            secret=bytes.fromhex(self.secret))
            return Game(self.players, self.rules, dealer=self.dealer, deck=deck, seed=self.seed)
        except UnoError as exc:
            raise TranscriptError(f"setup: {exc}") from None

    def to_mapping(self) -> dict[str, Any]:
        """The JSON-friendly form that :meth:`from_mapping` reads back."""
        fmt = next(f for f, v in FORMATS.items() if v == self.version)
        out: dict[str, Any] = {"format": fmt, "players": list(self.players)}
        out["rules"] = self.rules.to_mapping()
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.keys is not None:
            out["keys"] = list(self.keys)
        elif self.secret is not None:
            out["secret"] = self.secret
        else:
            out["seed"] = self.seed
        if self.deck:
            out["deck"] = " ".join(self.deck)
        out["actions"] = [[s, a] for s, a in self.actions]
        return out


def transcript_of(game: Game) -> Transcript:
    """The transcript of ``game`` so far: its setup (names, rules, the dealer and deck it
    was given, its match secret, or its seed when it had one) and ``game.history``.

    The secret decides every later round too: save a hosted game only once it is over
    (or keep the file to oneself).
    """
    source = game.shuffler
    deck = tuple(c.text for c in game.first_deck) if game.first_deck else None
    actions = tuple((seat, str(action)) for seat, action in game.history)
    if source.known_keys:  # (a seat's replay of a hosted match: its keys, as it got them)
        keys = tuple(source.round_key(r).hex() for r in range(game.round_no + 1))
        return Transcript(game.names, game.rules, game.first_dealer, 0, deck, actions, None, 3, keys)
    if source.seed is not None:
        return Transcript(game.names, game.rules, game.first_dealer, source.seed, deck, actions)
    return Transcript(game.names, game.rules, game.first_dealer, 0, deck, actions, source.secret.hex())


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


def deck_from_hands(
    hands: object, first: object, draws: object, dealer: int, size: int, players: int
) -> list[str]:
    """Check the ``hands``/``first``/``draws`` setup and return the deck order (card
    texts) that :func:`~unotui.engine.deal_order` builds from it.

    Raises:
        TranscriptError: naming the field that is wrong (a hand per seat, each of
            ``size`` cards; ``first`` a card; ``draws`` a string of cards).
    """
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise TranscriptError("'hands' must be a list of strings of cards, one per seat")
    if len(hands) != players:
        raise TranscriptError(f"'hands' lists {len(hands)} hands for {players} players (one per seat)")
    if not isinstance(first, str) or not isinstance(draws, str):
        raise TranscriptError("'hands' needs 'first' (a card) and 'draws' (a string of cards)")
    if any(len(h.split()) != size for h in hands):
        raise TranscriptError(f"every hand must have hand_size={size} cards")
    try:
        return [c.text for c in deal_order(hands, first, draws, dealer)]
    except UnoError as exc:
        raise TranscriptError(f"setup: {exc}") from None


def replay(transcript: Transcript, stop: int | None = None,
           watch: Callable[[Game], None] | None = None) -> Game:
    """Replay the first ``stop`` steps of the file (all by default) and return the game.

    ``watch`` is called with the game as it starts and after every step (a seat that
    checks a host's record against what it saw looks at each moment as it passes).

    A ``/1`` transcript gets the ``keep`` its format leaves out: after a seat's turn draw
    whose card cannot be played (``keep`` is all it may do), unless its next step is that
    keep already (``/1`` files written after the change, before the format had a new
    name, have it; the old engine would have refused one there, so nothing is ambiguous).

    Raises:
        TranscriptError: naming the first step that is malformed or illegal (its index
            in the file).
    """
    game = transcript.new_game()
    steps = transcript.actions
    implied = transcript.version == 1
    if watch is not None:
        watch(game)
    for i, (seat, text) in enumerate(steps[:stop]):
        try:
            action = Action.parse(text)
            game.apply(seat, action)
        except UnoError as exc:
            code = getattr(exc, "code", "parse")
            raise TranscriptError(f"step {i} (seat {seat}, {text!r}): {code}: {exc}", i) from None
        kept = i + 1 < len(steps) and steps[i + 1] == (seat, "keep")
        if implied and isinstance(action, Draw) and not kept and _keep_is_forced(game, seat):
            game.apply(seat, KEEP)
        if watch is not None:
            watch(game)
    return game


def _keep_is_forced(game: Game, seat: int) -> bool:
    """Whether ``seat`` just drew on its turn a card it cannot play: ``keep`` is its only
    action (what the engine before ``/2`` did by itself, ending the turn)."""
    return game.phase is Phase.DRAWN and game.actor == seat and game.legal_actions(seat) == (KEEP,)


def final_state(game: Game, events: bool = True) -> dict[str, Any]:
    """The full state after a replay, as JSON-friendly data (hands included: a replay
    is an offline, all-seeing tool)."""
    out: dict[str, Any] = {
        "round": game.round_no,
        "phase": game.phase.value,
        "hands": [[c.text for c in h] for h in game.hands],
        "draw_pile": len(game.draw_pile),
        "discard_pile": len(game.discard),
        "discard_top": game.top.text,
        "colour": None if game.colour_unnamed else game.colour.letter,
        "turn": game.turn,
        "actor": game.actor if game.actor >= 0 else None,
        "direction": game.direction,
        "pending": game.pending,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "round_points": list(game.round_points),
        "round_winner": game.round_winner if game.round_winner >= 0 else None,
        "match_winner": game.winner if game.winner >= 0 else None,
        "eliminated": [s for s in range(game.n) if game.eliminated[s]],
        "uno_called": [s for s in range(game.n) if game.uno_called[s]],
    }
    if events:
        out["events"] = [e.to_json() for e in game.log]
    return out

