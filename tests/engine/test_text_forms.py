"""Text forms: cards and actions round-trip; rules settings and TOML name what is wrong."""

from __future__ import annotations

import copy
import pickle

import pytest

from unotui.engine import (
    ACCEPT,
    ALL_CARDS,
    CALL_UNO,
    CHALLENGE,
    COLOURS,
    DEAL,
    DRAW,
    EFFECTS,
    KEEP,
    PRESETS,
    Action,
    Card,
    Catch,
    ChooseColour,
    ChooseTarget,
    Colour,
    CustomRule,
    Discard,
    Effect,
    ParseError,
    Rules,
    RulesError,
    Scoring,
    Stacking,
    cards_str,
    parse_cards,
    play,
)

# ----- cards ---------------------------------------------------------------------------------


def test_every_card_round_trips_and_is_interned() -> None:
    assert len(ALL_CARDS) == 4 * 13 + 5
    assert len({c.text for c in ALL_CARDS}) == len(ALL_CARDS)
    for i, card in enumerate(ALL_CARDS):
        assert card.code == i
        assert Card.parse(str(card)) is card
        assert Card.parse(card.text.lower()) is card
        assert eval(repr(card)) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert Card.of(card.colour, card.rank) is card


def test_a_card_is_an_immutable_value_hashed_and_ordered_by_its_code() -> None:
    """The hash is the code: sets of cards iterate in the same order in every process
    (the legal-action lists of seeded games depend on it)."""
    assert [hash(c) for c in ALL_CARDS] == list(range(len(ALL_CARDS)))
    assert sorted(reversed(ALL_CARDS)) == list(ALL_CARDS)
    assert copy.copy(ALL_CARDS[3]) is ALL_CARDS[3] and copy.deepcopy(ALL_CARDS[3]) is ALL_CARDS[3]
    with pytest.raises(AttributeError):
        ALL_CARDS[0].code = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        ALL_CARDS[0] < 1  # type: ignore[operator]  # noqa: B015


def test_card_text_forms() -> None:
    assert [c.text for c in parse_cards("R5 g+2 bs yr w w+4 wx wh wc")] == [
        "R5", "G+2", "BS", "YR", "W", "W+4", "WX", "WH", "WC"]
    assert cards_str(parse_cards("R0 B9 W")) == "R0 B9 W"
    assert parse_cards(["R1", "B2"]) == parse_cards("R1 B2")


@pytest.mark.parametrize("bad", ["", "R", "X5", "R10", "RW", "W+2", "G+4", "5R", "RR5"])
def test_bad_card_text(bad: str) -> None:
    with pytest.raises(ParseError):
        Card.parse(bad)


def test_colours() -> None:
    assert [c.letter for c in COLOURS] == ["R", "Y", "G", "B"]
    for c in COLOURS:
        assert Colour.parse(c.letter) is c
        assert Colour.parse(c.name.lower()) is c
    with pytest.raises(ParseError):
        Colour.parse("purple")


# ----- actions -------------------------------------------------------------------------------


def _every_action() -> list[Action]:
    actions: list[Action] = [DRAW, KEEP, CHALLENGE, ACCEPT, CALL_UNO, DEAL]
    for card in ALL_CARDS:
        actions += [play(card), play(card, True), Discard(card)]
    actions += [ChooseColour(c) for c in Colour]
    actions += [ChooseTarget(s) for s in range(10)] + [Catch(s) for s in range(10)]
    return actions


@pytest.mark.parametrize("action", _every_action(), ids=str)
def test_every_action_round_trips(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert Action.parse(f"  {text.upper()}  ") == action


def test_plays_and_simple_actions_are_interned() -> None:
    assert Action.parse("draw") is DRAW
    assert Action.parse("R5") is play(Card.parse("R5"))
    assert Action.parse("R5!") is play(Card.parse("R5"), True)
    assert Action.parse("color g") == ChooseColour(Colour.GREEN)
    assert Action.parse("colour green") == ChooseColour(Colour.GREEN)


@pytest.mark.parametrize(
    "bad",
    ["", "   ", "draw 2", "colour", "colour X", "target", "target x", "target 100", "catch -1",
     "discard", "discard Q9", "R5 R6", "!", "R5!!", "hello", "uno now"],
)
def test_bad_action_text(bad: str) -> None:
    with pytest.raises(ParseError):
        Action.parse(bad)


def test_action_parse_rejects_non_strings() -> None:
    with pytest.raises(ParseError):
        Action.parse(5)  # type: ignore[arg-type]


# ----- rules: presets, settings, TOML ----------------------------------------------------------


def test_presets() -> None:
    assert set(PRESETS) == {"classic", "classic-2008", "classic-2001", "giant", "modern"}
    assert Rules.preset("Classic-2001").uno_penalty == 4
    assert Rules.preset("classic").uno_penalty == 2
    assert Rules().name == "giant" and Rules().custom_wilds == 3
    with pytest.raises(RulesError, match="nope"):
        Rules.preset("nope")
    for rules in PRESETS.values():
        r = rules
        assert (r.stacking, r.seven_o, r.jump_in, r.draw_to_match, r.forced_play, r.no_bluffing) == (
            Stacking.OFF, False, False, False, False, False)
        assert r.challenge and not r.teams and r.scoring is Scoring.STANDARD and r.hand_size == 7


def test_with_settings_from_strings() -> None:
    r = Rules.preset("classic").with_settings({
        "stacking": "cross", "seven-o": "on", "jump_in": "yes", "draw_to_match": "1",
        "forced_play": "true", "no_bluffing": "on", "challenge": "off", "uno_penalty": "4",
        "hand_size": "5", "target_score": "250", "scoring": "lowest", "teams": "on",
        "custom": "extra_turn+skip_next", "custom_text": "tell a joke", "custom_wilds": "2",
    })
    assert r.stacking is Stacking.CROSS and r.seven_o and r.jump_in and r.draw_to_match
    assert r.forced_play and r.no_bluffing and not r.challenge and r.uno_penalty == 4
    assert (r.hand_size, r.target_score, r.scoring, r.teams) == (5, 250, Scoring.LOWEST, True)
    assert r.custom == CustomRule((Effect.EXTRA_TURN, Effect.SKIP_NEXT), "tell a joke")
    assert r.custom_wilds == 2
    # What is written down for the table (to_mapping) differs from the preset in those rules.
    base = Rules.preset("classic").to_mapping()
    changed = {key for key, value in r.to_mapping().items() if base[key] != value}
    assert changed >= {"stacking", "hand_size", "custom_wild"}


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"stackin": "on"}, "stackin"),
        ({"stacking": "sideways"}, "stacking"),
        ({"seven_o": "maybe"}, "seven_o"),
        ({"hand_size": "seven"}, "hand_size"),
        ({"hand_size": "0"}, "hand_size"),
        ({"hand_size": True}, "hand_size"),
        ({"uno_penalty": "11"}, "uno_penalty"),
        ({"target_score": "0"}, "target_score"),
        ({"custom_wilds": "4"}, "custom_wilds"),
        ({"swap_hands": "9"}, "swap_hands"),
        ({"scoring": "golf"}, "scoring"),
        ({"custom": "extra_turn+tell_a_joke"}, "tell_a_joke"),
        ({"custom": 5}, "effect"),
        ({"teams": "on", "scoring": "elimination"}, "elimination"),
    ],
)
def test_with_settings_errors_name_the_bad_part(settings: dict[str, object], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        Rules.preset("classic").with_settings(settings)


def test_with_coerces_like_settings_and_rejects_unknown_keys() -> None:
    r = Rules.preset("classic").with_(scoring="lowest", stacking="official", hand_size=3)
    assert r.scoring is Scoring.LOWEST and r.stacking is Stacking.OFFICIAL
    with pytest.raises(RulesError, match="elimination"):
        Rules.preset("classic").with_(teams=True, scoring="elimination")
    with pytest.raises(RulesError, match="hand_sise"):
        Rules.preset("classic").with_(hand_sise=3)
    with pytest.raises(RulesError, match="scoring"):
        Rules(scoring="lowest").validate()  # type: ignore[arg-type]


def test_from_toml() -> None:
    r = Rules.from_toml(
        'preset = "modern"\nstacking = "official"\nhand_size = 5\nseven_o = true\n'
        '[custom_wild]\neffects = ["draw_until_colour", "hands-face-up"]\ntext = "sing"\ncount = 1\n'
    )
    assert r.name == "modern" and r.swap_hands == 1
    assert r.stacking is Stacking.OFFICIAL and r.hand_size == 5 and r.seven_o
    assert r.custom.effects == (Effect.DRAW_UNTIL_COLOUR, Effect.HANDS_FACE_UP)
    assert r.custom.text == "sing" and r.custom_wilds == 1


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('preset = "modren"', "modren"),
        ("hand_sise = 5", "hand_sise"),
        ('stacking = "always"', "stacking"),
        ("hand_size = 99", "hand_size"),
        ('[custom_wild]\neffects = ["extra_turn", "moon_walk"]', "moon_walk"),
        ('custom_wild = "extra_turn"', "custom_wild"),
        ("hand_size = ", "TOML"),
    ],
)
def test_from_toml_errors_name_the_bad_part(text: str, named: str) -> None:
    with pytest.raises(RulesError, match=named):
        Rules.from_toml(text)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_mapping_round_trips(name: str) -> None:
    r = PRESETS[name].with_(stacking="cross", custom=CustomRule.parse(list(EFFECTS), "all of them"))
    assert Rules.from_mapping(r.to_mapping()) == r


def test_custom_rule_parse_and_describe() -> None:
    assert CustomRule.parse("none").effects == ()
    assert CustomRule.parse("").describe() == "plays as a plain Wild"
    rule = CustomRule.parse("extra_turn, skip-next", "tell a joke")
    assert rule.effects == (Effect.EXTRA_TURN, Effect.SKIP_NEXT)
    assert "tell a joke" in rule.describe()
    for e in Effect:
        assert CustomRule((e,)).describe()
    with pytest.raises(RulesError, match="longer"):
        CustomRule.parse("extra_turn", "x" * 201)


def test_table_size_checks() -> None:
    with pytest.raises(RulesError, match="2-10"):
        Rules().validate(11)
    with pytest.raises(RulesError, match="hand_size"):
        Rules.preset("classic").with_(hand_size=15).validate(8)
    Rules.preset("classic").with_(hand_size=15).validate(7)
