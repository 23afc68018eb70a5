"""Rules checklist items 19-22: scoring, winning, elimination and partners; target_score."""

from __future__ import annotations

import pytest
from uno_testkit import CLASSIC, act, all_cards, events, full_deck, legal, stacked_game

from unotui.engine import Game, Phase, Rules, RulesError, Scoring, parse_cards, seat_view


def _force(g: Game, seat: int, cards: str, top: str) -> None:
    """Test-only: give ``seat`` the turn with ``cards`` on a ``top`` discard (cards are
    swapped with the draw pile so the deck stays whole)."""
    if g.phase == Phase.COLOUR:
        act(g, g.actor, "colour R")
    want = parse_cards(cards)
    pool = g.draw_pile
    pool.extend(g.hands[seat])
    pool.append(g.discard.pop())
    for c in [*want, parse_cards(top)[0]]:
        pool.remove(c)
    g.hands[seat] = want
    g.discard.append(parse_cards(top)[0])
    g.top = g.discard[-1]
    assert g.top.colour is not None
    g.colour = g.top.colour
    g.pos = g.active.index(seat)
    g.actor = seat
    g.phase = Phase.PLAY
    g.version += 1
    assert all_cards(g) == full_deck(g)


# ----- 19. standard scoring ------------------------------------------------------------------


def test_19_round_winner_scores_the_opponents_cards() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2)
    act(g, 0, "R1")
    assert g.phase == Phase.ROUND_OVER
    assert g.round_winner == 0
    assert g.round_points == [0, 50, 9]
    assert g.scores == [59, 0, 0]
    ev = events(g, "round")[-1]
    assert (ev.seat, ev.value) == (0, 59)
    assert not g.over
    # Hands are laid down for everyone to count.
    assert seat_view(g, 2).face_up == {1: tuple(parse_cards("W")), 2: tuple(parse_cards("G9"))}


def test_19_scores_add_up_over_rounds_and_first_to_target_wins() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=100)
    act(g, 0, "R1")
    assert g.scores == [59, 0, 0] and not g.over
    assert g.dealer == 0
    act(g, 0, "deal")
    _force(g, 1, "R5", "R3")
    held = sum(sum(c.points for c in g.hands[s]) for s in (0, 2))
    act(g, 1, "R5")
    assert g.scores == [59, held, 0]
    if held >= 100:
        assert g.over and g.winner == 1
    else:
        assert g.phase == Phase.ROUND_OVER


@pytest.mark.parametrize(("target", "over"), [(1, True), (59, True), (60, False), (500, False)])
def test_19_target_score(target: int, over: bool) -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=target)
    act(g, 0, "R1")
    assert g.over is over
    if over:
        assert g.phase == Phase.MATCH_OVER and g.winner == 0
        assert events(g, "match")[-1].seat == 0
        assert legal(g, 0) == legal(g, 1) == legal(g, 2) == set()
    else:
        assert g.phase == Phase.ROUND_OVER and g.winner == -1


def test_19_default_target_is_500() -> None:
    assert CLASSIC.target_score == 500
    assert all(Rules.preset(p).target_score == 500 for p in ("classic", "giant", "modern"))


# ----- 20. lowest tally -----------------------------------------------------------------------


def test_20_everyone_tallies_what_they_hold_lowest_wins_at_the_target() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=50, scoring=Scoring.LOWEST)
    act(g, 0, "R1")
    assert g.scores == [0, 50, 9]
    assert g.over and g.winner == 0


def test_20_lowest_at_target_picks_lowest_tally() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=50, scoring=Scoring.LOWEST)
    g.scores[:] = [20, 0, 0]
    act(g, 0, "R1")
    assert g.scores == [20, 50, 9]
    assert g.over and g.winner == 2


# ----- 21. elimination -----------------------------------------------------------------------


def test_21_elimination() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=50, scoring=Scoring.ELIMINATION)
    act(g, 0, "R1")
    assert g.scores == [0, 50, 9]
    assert g.eliminated == [False, True, False]
    assert events(g, "eliminated")[-1].seat == 1
    assert not g.over
    assert g.dealer == 0
    act(g, 0, "deal")
    assert g.active == [0, 2]
    assert g.hands[1] == []
    assert legal(g, 1) == set()
    # Head-to-head under the two-player rules: Reverse acts as Skip.
    _force(g, 2, "RR R2 R3", "R9")
    act(g, 2, "RR")
    assert g.actor == 2
    act(g, 2, "R2!")
    assert g.actor == 0
    assert all_cards(g) == full_deck(g)


def test_21_last_one_standing_wins() -> None:
    g = stacked_game(["R1", "W", "G9"], "R7", dealer=2, target_score=50, scoring=Scoring.ELIMINATION)
    act(g, 0, "R1")
    act(g, 0, "deal")
    _force(g, 0, "R5", "R3")
    g.scores[2] = 49
    act(g, 0, "R5")
    assert g.eliminated == [False, True, True]
    assert g.over and g.winner == 0


def test_21_eliminated_dealer_passes_the_deal_on() -> None:
    g = stacked_game(["W", "R1", "G9"], "R7", dealer=0, target_score=50, scoring=Scoring.ELIMINATION)
    act(g, 1, "R1")
    assert g.eliminated == [True, False, False]
    # Dealer 0 would pass to 1 anyway; now check the next pass skips seat 0.
    assert g.dealer == 1
    act(g, 1, "deal")
    _force(g, 2, "R5", "R3")
    act(g, 2, "R5")
    if not g.over:
        assert g.dealer == 2
        act(g, 2, "deal")
        assert g.active == [1, 2]


# ----- 22. partners ---------------------------------------------------------------------------


def test_22_partners_sit_across() -> None:
    g = stacked_game(["R1", "Y2", "G3", "B4"], "R7", dealer=3, teams=True)
    assert [g.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert seat_view(g, 0).teams == (0, 1, 0, 1)
    g6 = Game(6, CLASSIC.with_(teams=True), dealer=0)
    assert [g6.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


def test_22_hand_ends_when_either_partner_goes_out_team_scores_both_opponents() -> None:
    g = stacked_game(["Y1 Y2", "B3 B4", "R5 R6", "G7 G8"], "R7", dealer=1, teams=True)
    act(g, 2, "R5!")
    assert g.actor == 3
    act(g, 3, "draw")
    if g.phase == Phase.DRAWN:
        act(g, 3, "keep")
    for seat in (0, 1):
        act(g, seat, "draw")
        if g.phase == Phase.DRAWN:
            act(g, seat, "keep")
    # Seat 2 goes out; seat 0 (the partner) still holds cards.
    assert g.actor == 2
    act(g, 2, "R6")
    assert g.phase == Phase.ROUND_OVER and g.round_winner == 2
    opp = g.round_points[1] + g.round_points[3]
    assert g.round_points[0] > 0
    assert g.scores == [opp, 0, opp, 0]
    assert events(g, "round")[-1].value == opp


def test_22_teams_lowest_scoring_tallies_the_team() -> None:
    g = stacked_game(["Y1", "B3", "R5", "G7"], "R7", dealer=1, teams=True, scoring=Scoring.LOWEST)
    act(g, 2, "R5")
    assert g.scores == [1, 10, 1, 10]


def test_22_teams_need_an_even_table_and_no_elimination() -> None:
    with pytest.raises(RulesError, match="even"):
        Game(5, CLASSIC.with_(teams=True))
    with pytest.raises(RulesError, match="even"):
        Game(2, CLASSIC.with_(teams=True))
    with pytest.raises(RulesError, match="elimination"):
        CLASSIC.with_(teams=True, scoring=Scoring.ELIMINATION)
