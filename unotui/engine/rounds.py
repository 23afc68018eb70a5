"""A round's beginning and end: the draw for the first dealer, the deal and the first
card (rules 1-7), going out and scoring (rules 15 and the scoring variants).

Functions of a :class:`~unotui.engine.game.Game`'s state, which they change in place;
built of the moves in :mod:`unotui.engine.steps`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .cards import Card, Colour, Rank
from .errors import RulesError
from .events import EventKind, new_event
from .flow import BEGIN, Phase
from .rules import Scoring
from .shuffle import Label
from .steps import advance, await_, draw, next_seat, shuffled

if TYPE_CHECKING:
    from .game import Game

__all__ = ["draw_for_dealer", "go_out", "start_round"]


def draw_for_dealer(g: Game) -> int:
    """Rule 1: everyone draws; the highest number deals (symbols count 0); ties redraw."""
    contenders = list(range(g.n))
    attempt = 0
    while True:
        attempt += 1
        pile = iter(g.shuffler.shuffled(0, Label.DEALER, attempt, g._deck))
        values = {}
        for seat in contenders:
            card = next(pile)
            values[seat] = int(card.rank) if card.rank <= Rank.N9 else 0
            g.log.append(new_event((EventKind.DEALER, seat, (card,), -1, values[seat], "", -1)))
        best = max(values.values())
        contenders = [s for s in contenders if values[s] == best]
        if len(contenders) == 1:
            return contenders[0]


def start_round(g: Game, order: list[Card] | None = None) -> None:
    """Deal the next round (from ``order``, top first, when the deck is stacked)."""
    g.round_no += 1
    g.active = [s for s in range(g.n) if not g.eliminated[s]]
    g.hands = [[] for _ in range(g.n)]
    g._ordinals = {}
    g._commit = ""
    pile = shuffled(g, Label.DEAL, g._deck)  # top first
    # The commitment covers the order the round key deals.  A stacked deck (tests,
    # replays, tutorials) was not shuffled: nothing is committed to or revealed.
    g._deal_order = () if order else tuple(pile)
    if order:
        rest = Counter(pile)
        rest.subtract(order)
        if min(rest.values(), default=0) < 0:
            bad = [c.text for c, k in rest.items() if k < 0]
            raise RulesError(f"the given deck has more of {', '.join(bad)} than the rules' deck")
        tail = [c for c in pile if rest[c] > 0 and not rest.subtract([c])]
        pile = order + tail
    pile.reverse()  # internally the top of the pile is the end of the list
    g.draw_pile = pile
    g.discard = []
    g.direction = 1
    g.pending = 0
    g.drawn = None
    g.uno_open = -1  # seat that can be caught for not calling UNO
    g.uno_called = [False] * g.n
    g.wd4 = None
    g.todo = []
    g.discard_left = 0
    g.face_up_until = -1
    g.round_winner = -1
    g.round_points = [0] * g.n
    g.round_log_start = len(g.log)  # this round's events start here (its "deal")
    g.log.append(new_event((EventKind.DEAL, g.dealer, (), -1, g.round_no, "", -1)))
    na = len(g.active)
    start = g.active.index(g.dealer)
    for _ in range(g.rules.hand_size):
        for k in range(1, na + 1):
            g.hands[g.active[(start + k) % na]].append(g.draw_pile.pop())
    g.pos = (start + 1) % na
    g.phase = Phase.PLAY
    g.actor = g.active[g.pos]
    _flip_first(g, start)
    g.version += 1


def _flip_first(g: Game, dealer_pos: int) -> None:
    """Rules 2-7: the first discard and what it does (nobody "played" it).

    A Wild Draw Four goes back and the pile is reshuffled; if nothing but Wild Draw
    Fours is left to flip (a crowded table), it stays and counts as a plain Wild
    (docs/rules.md, "The first card").
    """
    w4 = Rank.WILD4
    while True:
        card = g.draw_pile.pop()
        if card.rank is not w4 or all(c.rank is w4 for c in g.draw_pile):
            break
        g.log.append(new_event((EventKind.REFLIP, -1, (card,), -1, 0, "", -1)))
        g.draw_pile.append(card)
        again = shuffled(g, Label.REFLIP, g.draw_pile)
        again.reverse()
        g.draw_pile[:] = again
    g.discard.append(card)
    g.top = card
    g.log.append(new_event((EventKind.FLIP, -1, (card,), -1, 0, "", -1)))
    first = g.actor
    if card.is_wild:
        g.colour = Colour.RED  # placeholder until named (see Game.colour_unnamed)
        await_(g, Phase.COLOUR, first)
        g.todo = [BEGIN]
        return
    assert card.colour is not None
    g.colour = card.colour
    rank = card.rank
    if rank is Rank.DRAW2:
        draw(g, first, 2, "first")
        g.log.append(new_event((EventKind.SKIP, first, (), -1, 0, "", -1)))
        advance(g, 1)
    elif rank is Rank.REVERSE:
        g.direction = -1
        g.log.append(new_event((EventKind.REVERSE, -1, (), -1, -1, "", -1)))
        if len(g.active) == 2:
            g.log.append(new_event((EventKind.SKIP, first, (), -1, 0, "", -1)))
            advance(g, 1)  # two players: reverse acts as skip
        else:
            g.pos = dealer_pos
            await_(g, Phase.PLAY, g.dealer)
    elif rank is Rank.SKIP:
        g.log.append(new_event((EventKind.SKIP, first, (), -1, 0, "", -1)))
        advance(g, 1)


def go_out(g: Game, seat: int, card: Card) -> None:
    """Rule 15: the next player still draws for a Draw Two / Wild Draw Four; then score."""
    if card.rank is Rank.DRAW2 or card.rank is Rank.WILD4:
        count = g.pending + (2 if card.rank is Rank.DRAW2 else 4)
        draw(g, next_seat(g), count, "penalty")
    g.pending = 0
    g.wd4 = None
    g.uno_open = -1
    g.todo = []
    g.round_winner = seat
    g.round_points = [sum(c.points for c in h) for h in g.hands]
    _score(g, seat)
    g.score_history.append(tuple(g.scores))


def _score(g: Game, winner: int) -> None:
    rules, scores, held = g.rules, g.scores, g.round_points
    if rules.scoring is Scoring.STANDARD:
        side = g.team_of(winner)
        gained = sum(held[s] for s in g.active if g.team_of(s) != side)
        for s in range(g.n):
            if g.team_of(s) == side:
                scores[s] += gained
        g.log.append(new_event((EventKind.ROUND, winner, (), -1, gained, "", -1)))
        done = max(scores) >= rules.target_score
        best = winner
    else:
        for s in g.active:
            team = [t for t in g.active if g.team_of(t) == g.team_of(s)]
            scores[s] += sum(held[t] for t in team)
        g.log.append(new_event((EventKind.ROUND, winner, (), -1, 0, "", -1)))
        if rules.scoring is Scoring.LOWEST:
            done = max(scores) >= rules.target_score
            best = min(g.active, key=lambda s: (scores[s], s != winner, s))
        else:
            for s in g.active:
                if scores[s] >= rules.target_score:
                    g.eliminated[s] = True
                    g.log.append(new_event((EventKind.ELIMINATED, s, (), -1, scores[s], "", -1)))
            standing = [s for s in range(g.n) if not g.eliminated[s]]
            done = len(standing) <= 1
            best = standing[0] if standing else winner
    if done:
        g.winner = best
        g.log.append(new_event((EventKind.MATCH, best, (), -1, 0, "", -1)))
        await_(g, Phase.MATCH_OVER, -1)
        return
    d = g.dealer
    for _ in range(g.n):
        d = (d + 1) % g.n
        if not g.eliminated[d]:
            break
    g.dealer = d
    await_(g, Phase.ROUND_OVER, d)
