"""Illegal actions raise the documented, specific error and leave the state unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from uno_testkit import CLASSIC, act, snapshot, stacked_game

from unotui.engine import (
    Action,
    BadChoiceError,
    CardNotInHandError,
    Game,
    IllegalActionError,
    NoSuchSeatError,
    NotYourTurnError,
    Phase,
    RulesError,
    Scoring,
    UnoError,
    UnplayableCardError,
    WrongPhaseError,
    parse_cards,
    seat_view,
)


def _fresh() -> Game:
    return stacked_game(["R1 R7 W+4", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B1 B2 B3 B4 B5 B6", dealer=2)


def _after(*steps: tuple[int, str], **changes: object) -> Callable[[], Game]:
    def build() -> Game:
        g = stacked_game(["R1 R7 W+4", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "R9 B2 B3 B4 B5 B6",
                         dealer=2, **changes)
        for seat, text in steps:
            act(g, seat, text)
        return g
    return build


def _drew_unplayable() -> Game:
    g = stacked_game(["R1 R7 W+4", "Y1 Y2 Y3", "G1 G2 G3"], "R7", "B2 B3 B4", dealer=2)
    act(g, 0, "draw")  # B2 on a red 7: only "keep" is legal
    return g


def _called() -> Game:
    g = stacked_game(["R1 R7", "Y1 Y2", "G1 G2"], "R5", dealer=2)
    act(g, 0, "R1!")
    return g


def _round_over() -> Game:
    g = stacked_game(["R1", "Y1", "G1"], "R7", dealer=2)
    act(g, 0, "R1")
    return g


def _match_over() -> Game:
    g = stacked_game(["R1", "Y1", "G1"], "R7", dealer=2, target_score=1)
    act(g, 0, "R1")
    return g


def _eliminated() -> Game:
    g = stacked_game(["R1", "W", "G1"], "R7", dealer=2, target_score=50, scoring=Scoring.ELIMINATION)
    act(g, 0, "R1", "deal")
    return g


CASES: list[tuple[str, Callable[[], Game], int, str, type[IllegalActionError]]] = [
    # not your turn
    ("other seat plays", _fresh, 1, "Y1", NotYourTurnError),
    ("other seat draws", _fresh, 2, "draw", NotYourTurnError),
    ("other seat names colour", _after((0, "W+4")), 1, "colour G", NotYourTurnError),
    ("other seat targets", _after((0, "R7"), seven_o=True), 1, "target 2", NotYourTurnError),
    ("other seat keeps", _after((0, "draw")), 1, "keep", NotYourTurnError),
    ("offender challenges", _after((0, "W+4"), (0, "colour B")), 0, "challenge", NotYourTurnError),
    ("bystander accepts", _after((0, "W+4"), (0, "colour B")), 2, "accept", NotYourTurnError),
    ("wrong dealer", _round_over, 1, "deal", NotYourTurnError),
    ("eliminated seat draws", _eliminated, 1, "draw", NotYourTurnError),
    # wrong phase
    ("draw while naming colour", _after((0, "W+4")), 0, "draw", WrongPhaseError),
    ("play while naming colour", _after((0, "W+4")), 0, "R1", WrongPhaseError),
    ("colour in play phase", _fresh, 0, "colour R", WrongPhaseError),
    ("keep without drawing", _fresh, 0, "keep", WrongPhaseError),
    ("draw twice", _after((0, "draw")), 0, "draw", WrongPhaseError),
    ("challenge a plain card", _fresh, 0, "challenge", WrongPhaseError),
    ("accept a plain card", _fresh, 0, "accept", WrongPhaseError),
    ("target in play phase", _fresh, 0, "target 1", WrongPhaseError),
    ("discard in play phase", _fresh, 0, "discard R1", WrongPhaseError),
    ("draw in challenge phase", _after((0, "W+4"), (0, "colour B")), 1, "draw", WrongPhaseError),
    ("uno with nothing to call", _fresh, 0, "uno", WrongPhaseError),
    ("deal mid-round", _fresh, 0, "deal", WrongPhaseError),
    ("play after the round", _round_over, 1, "Y1", WrongPhaseError),
    ("draw after the round", _round_over, 0, "draw", WrongPhaseError),
    ("deal after the match", _match_over, 1, "deal", WrongPhaseError),
    ("play after the match", _match_over, 1, "Y1", WrongPhaseError),
    ("challenge at a no-challenge table", _after((0, "W+4"), (0, "colour B"), stacking="official",
                                                 challenge=False), 1, "challenge", WrongPhaseError),
    ("keep under forced play", _after((0, "draw"), forced_play=True), 0, "keep", WrongPhaseError),
    # not in hand
    ("play a card not held", _fresh, 0, "B5", CardNotInHandError),
    ("play a wild not held", _fresh, 0, "W", CardNotInHandError),
    ("out of turn, not held", _fresh, 1, "R1", CardNotInHandError),
    # unplayable
    ("other than the drawn card", _after((0, "draw")), 0, "R1", UnplayableCardError),
    ("the unplayable drawn card", _drew_unplayable, 0, "B2", UnplayableCardError),
    ("the unplayable drawn card, calling UNO", _drew_unplayable, 0, "B2!", UnplayableCardError),
    ("next seat before the keep", _drew_unplayable, 1, "draw", NotYourTurnError),
    ("jump-in with a different card", _after((0, "R1"), jump_in=True), 2, "G1", UnplayableCardError),
    ("no stack on a pending penalty", _after((0, "W+4"), (0, "colour Y"), stacking="official"), 1, "Y1",
     UnplayableCardError),
    ("bluff under no bluffing", _after(no_bluffing=True), 0, "W+4", UnplayableCardError),
    # bad choice
    ("target yourself", _after((0, "R7"), seven_o=True), 0, "target 0", BadChoiceError),
    ("catch nobody", _fresh, 1, "catch 0", BadChoiceError),
    ("catch a caller", _called, 1, "catch 0", BadChoiceError),
    # no such seat
    ("seat out of range", _fresh, 3, "draw", NoSuchSeatError),
    ("negative seat", _fresh, -1, "draw", NoSuchSeatError),
    ("target out of range", _after((0, "R7"), seven_o=True), 0, "target 7", NoSuchSeatError),
    ("catch out of range", _fresh, 1, "catch 9", NoSuchSeatError),
]


@pytest.mark.parametrize(
    ("build", "seat", "text", "error"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_illegal_action_raises_and_changes_nothing(
    build: Callable[[], Game], seat: int, text: str, error: type[IllegalActionError]
) -> None:
    g = build()
    before = snapshot(g)
    legal_before = {s: list(g.legal_actions(s)) for s in range(g.n)}
    action = Action.parse(text)
    assert action not in g.legal_actions(seat) if 0 <= seat < g.n else True
    with pytest.raises(error) as info:
        g.apply(seat, action)
    assert type(info.value) is error
    assert isinstance(info.value, IllegalActionError) and isinstance(info.value, ValueError)
    assert info.value.code == {
        NotYourTurnError: "not_your_turn", WrongPhaseError: "wrong_phase",
        CardNotInHandError: "not_in_hand", UnplayableCardError: "unplayable",
        BadChoiceError: "bad_choice", NoSuchSeatError: "no_such_seat",
    }[error]
    assert str(info.value)
    assert snapshot(g) == before
    assert {s: list(g.legal_actions(s)) for s in range(g.n)} == legal_before


def test_legal_actions_cannot_be_tampered_with() -> None:
    """Review: the cached legal list was handed out and ``apply`` trusted it, so appending
    ``Catch(2)`` let seat 2 catch itself.  The answer is immutable now."""
    g = stacked_game(["R1 B2", "Y1 Y2", "G1 G5"], "R5", dealer=1)
    act(g, 2, "G5")  # down to one card without calling UNO: seat 2 can be caught
    legal = g.legal_actions(2)
    assert legal == (Action.parse("uno"),) and isinstance(legal, tuple)
    with pytest.raises(AttributeError):
        legal.append(Action.parse("catch 2"))  # type: ignore[attr-defined]
    before = snapshot(g)
    with pytest.raises(BadChoiceError):
        act(g, 2, "catch 2")
    assert snapshot(g) == before
    assert g.legal_actions(2) is legal  # still the cached answer, unchanged


def test_unplayable_card_that_does_not_match() -> None:
    g = stacked_game(["R1 B2 W+4", "Y1 Y2 Y3", "G1 G2 G3"], "R7", dealer=2)
    before = snapshot(g)
    with pytest.raises(UnplayableCardError, match="does not match"):
        act(g, 0, "B2")
    assert snapshot(g) == before


def test_target_in_a_swap_must_be_active() -> None:
    # After an elimination, the eliminated seat cannot be chosen for a seven-o swap.
    g = stacked_game(["R1", "W", "G1"], "R7", dealer=2, target_score=50, scoring=Scoring.ELIMINATION,
                     seven_o=True)
    act(g, 0, "R1", "deal")
    assert g.active == [0, 2]
    # Give seat 0 a 7 to play (test-only surgery, deck kept whole).
    seven = next(c for c in g.draw_pile if c.rank == 7 and c.colour is not None)
    g.draw_pile.remove(seven)
    g.draw_pile.append(g.hands[0].pop())
    g.hands[0] += [seven, g.draw_pile.pop(0)]
    g.colour = seven.colour  # type: ignore[assignment]
    g.phase, g.actor, g.pos = Phase.PLAY, 0, 0
    g.version += 1
    act(g, 0, str(seven))
    targets = [str(a) for a in g.legal_actions(0) if str(a).startswith("target")]
    assert targets == ["target 2"]
    before = snapshot(g)
    with pytest.raises(BadChoiceError):
        act(g, 0, "target 1")
    assert snapshot(g) == before


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_queries_for_a_seat_that_does_not_exist(seat: int) -> None:
    g = _fresh()
    with pytest.raises(NoSuchSeatError):
        g.legal_actions(seat)
    with pytest.raises(NoSuchSeatError):
        seat_view(g, seat)


def test_engine_errors_are_value_errors() -> None:
    assert issubclass(UnoError, ValueError)
    for cls in (NotYourTurnError, WrongPhaseError, CardNotInHandError, UnplayableCardError,
                BadChoiceError, NoSuchSeatError):
        assert issubclass(cls, IllegalActionError)


def test_bad_game_construction() -> None:
    with pytest.raises(RulesError, match="dealer"):
        Game(3, CLASSIC, dealer=3)
    with pytest.raises(RulesError, match="2-10"):
        Game(1, CLASSIC)
    with pytest.raises(RulesError, match="R0"):
        Game(2, CLASSIC, dealer=0, deck=parse_cards("R0 R0"))
