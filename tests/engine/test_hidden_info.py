"""What a seat's view must not give away (issue 8), and what it now carries for a
player who joins mid-match.

* After a turn draw the drawer always decides (play the card, or keep it), so the others
  cannot tell a playable drawn card from an unplayable one by the phase or the log.
* Hands in views are sorted, so their order never tells which card arrived when.
* ``SeatView.history`` holds the cumulative scores after each round, and
  ``SeatView.challenge_colour`` the colour a Wild Draw Four is judged against.
"""

from __future__ import annotations

import pytest
from uno_testkit import act, legal, stacked_game

from unotui.engine import DRAW, KEEP, Colour, Game, Phase, SeatView, parse_cards, seat_view, spectator_view


def _public(view: SeatView) -> dict[str, object]:
    """Every field of a view (all of it must match between the two worlds)."""
    return view._asdict()


HOUSE = [{}, {"forced_play": True}, {"stacking": "official"}, {"no_bluffing": True}]


@pytest.mark.parametrize("rules", HOUSE)
def test_others_cannot_tell_whether_the_drawn_card_was_playable(rules: dict[str, object]) -> None:
    # Seat 0 draws R9 (playable on R7) in one world and B9 (not playable) in the other.
    worlds = [
        stacked_game(["R1 B2 G3", "Y1 Y2 Y3", "G1 G2 G4"], "R7", draw + " B5 B6", dealer=2, **rules)
        for draw in ("R9", "B9")
    ]
    for g in worlds:
        act(g, 0, "draw")
        assert g.phase == Phase.DRAWN and g.actor == 0
    playable, unplayable = worlds
    assert "R9" in legal(playable, 0)
    assert legal(unplayable, 0) == {"keep"}
    for viewer in (1, 2):
        assert _public(seat_view(playable, viewer)) == _public(seat_view(unplayable, viewer))
    assert _public(spectator_view(playable)) == _public(spectator_view(unplayable))
    if "keep" in legal(playable, 0):  # under forced play the playable card must be played
        for g in worlds:
            act(g, 0, "keep")
        for viewer in (1, 2, None):
            assert _public(seat_view(playable, viewer)) == _public(seat_view(unplayable, viewer))
        assert [e.kind for e in unplayable.log[-2:]] == ["draw", "keep"]


def test_the_drawer_sees_the_kept_card_in_the_log_and_others_do_not() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "B9", dealer=1)
    act(g, 0, "draw", "keep")
    mine = seat_view(g, 0).log[-1]
    theirs = seat_view(g, 1).log[-1]
    assert mine.kind == theirs.kind == "keep"
    assert [c.text for c in mine.cards] == ["B9"] and theirs.cards == ()
    assert spectator_view(g).log[-1].cards == ()


def test_timeout_in_the_keep_only_phase_keeps() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "B9", dealer=1)
    assert g.timeout_action() == (0, DRAW)
    act(g, 0, "draw")
    assert g.timeout_action() == (0, KEEP)


# ----- sorted hands -----------------------------------------------------------------------------


def test_view_hands_are_sorted_whatever_the_arrival_order() -> None:
    a = stacked_game(["W B2 R5 Y+2 G3", "Y1 Y2 Y3 Y4 Y5"], "R7", dealer=1)
    b = stacked_game(["G3 Y+2 R5 B2 W", "Y1 Y2 Y3 Y4 Y5"], "R7", dealer=1)
    assert a.hands[0] != b.hands[0]
    assert seat_view(a, 0).hand == seat_view(b, 0).hand == tuple(parse_cards("R5 Y+2 G3 B2 W"))


def test_a_drawn_card_takes_its_sorted_place() -> None:
    g = stacked_game(["R1 B2 G3", "Y1 Y2 Y3"], "R7", "Y9", dealer=1)
    act(g, 0, "draw")
    view = seat_view(g, 0)
    assert view.hand == tuple(parse_cards("R1 Y9 G3 B2"))
    assert view.drawn is not None and view.drawn.text == "Y9"


def test_face_up_hands_and_the_challenge_reveal_are_sorted() -> None:
    # At the end of a round the hands are laid down sorted.
    g = stacked_game(["R1 R2", "B9 Y2"], "R7", "G4", dealer=1)
    act(g, 0, "R1!")
    act(g, 1, "draw", "keep")
    act(g, 0, "R2")
    assert g.hands[1] == parse_cards("B9 Y2 G4")
    assert seat_view(g, 0).face_up[1] == tuple(parse_cards("Y2 G4 B9"))
    # The hand revealed to a challenger is sorted too.
    g = stacked_game(["W+4 R1 Y5 B2", "G1 G2 G3 G4"], "R7", "B1 B3 B4 B5 B6 B7", dealer=1)
    act(g, 0, "W+4", "colour B")
    act(g, 1, "challenge")
    reveal = next(e for e in g.log if e.kind == "reveal")
    assert reveal.cards == tuple(parse_cards("R1 Y5 B2"))


# ----- history and the challenge colour ---------------------------------------------------------


def test_score_history_after_each_round() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=1000)
    assert g.score_history == [] and seat_view(g, 1).history == ()
    act(g, 0, "R1")  # seat 0 scores 59
    assert g.score_history == [(59, 0, 0)]
    act(g, 0, "deal")
    assert seat_view(g, 2).history == ((59, 0, 0),)
    assert spectator_view(g).history == ((59, 0, 0),)
    while g.phase is not Phase.ROUND_OVER:  # play the second round out, plainly
        seat = g.actor
        options = [a for a in g.legal_actions(seat) if str(a) != "draw"] or list(g.legal_actions(seat))
        g.apply(seat, options[0])
    assert len(g.score_history) == 2
    assert g.score_history[-1] == tuple(g.scores)
    assert seat_view(g, 0).history == tuple(g.score_history)


def test_history_field_has_a_default() -> None:
    view = seat_view(Game(2), 0)
    defaults = SeatView._field_defaults
    assert defaults["history"] == () and defaults["challenge_colour"] is None
    assert view.history == () and view.challenge_colour is None


def test_challenge_colour_is_the_colour_before_the_wild_draw_four() -> None:
    g = stacked_game(["W+4 R1 Y5 B2", "G1 G2 G3 G4"], "R7", "B1 B3 B4 B5 B6 B7", dealer=1)
    act(g, 0, "W+4")
    assert seat_view(g, 1).challenge_colour is None  # not named yet: nothing to challenge
    act(g, 0, "colour B")
    for viewer in (0, 1, None):
        view = seat_view(g, viewer)
        assert view.phase == "challenge" and view.colour is Colour.BLUE
        assert view.challenge_colour is Colour.RED
    act(g, 1, "accept")
    assert seat_view(g, 1).challenge_colour is None
