"""The default analysis never reads hidden cards: permute them (the other hands and the
draw pile) in a way the seat's view cannot tell, and every estimate stays the same."""

from __future__ import annotations

from random import Random

from unotui.engine import Game, Phase, seat_view
from unotui.review import analyse, decisions
from unotui.transcript import replay

from .helpers import match


def _permuted(game: Game, seat: int, rng: Random) -> Game:
    """A copy of ``game`` with the cards ``seat`` cannot see dealt again at random into the
    same places (each other hand keeps its size, the draw pile its length)."""
    twin = game.clone()
    others = [s for s in range(twin.n) if s != seat]
    hidden = [c for s in others for c in twin.hands[s]] + list(twin.draw_pile)
    rng.shuffle(hidden)
    for s in others:
        k = len(twin.hands[s])
        twin.hands[s], hidden = hidden[:k], hidden[k:]
    twin.draw_pile = hidden
    return twin


def _positions(count: int) -> list[tuple[Game, int]]:
    """Mid-round positions of played matches where the deciding seat has a real choice."""
    out: list[tuple[Game, int]] = []
    for seed in (11, 12, 13):
        transcript = match(seed, players=3, levels=("hard", "medium", "hard"))
        wanted = {d.step for d in decisions(transcript)
                  if d.phase == Phase.PLAY and len(d.legal) >= 3 and d.view.draw_count > 5}
        game = transcript.new_game()
        for step, (seat, action) in enumerate(replay(transcript).history):
            if step in wanted and len(out) < count and step % 3 == 0:
                out.append((game.clone(), seat))
            game.apply(seat, action)
    return out


def test_estimates_are_identical_when_the_hidden_cards_are_permuted() -> None:
    positions = _positions(6)
    assert len(positions) == 6
    rng = Random(5)
    for game, seat in positions:
        twin = _permuted(game, seat, rng)
        others = [s for s in range(game.n) if s != seat]
        # The hidden cards really moved ...
        assert [game.hands[s] for s in others] + [game.draw_pile] != [twin.hands[s] for s in others] + [
            twin.draw_pile]
        # ... in a way the seat cannot see ...
        view = seat_view(game, seat, game.round_log_start)
        twin_view = seat_view(twin, seat, twin.round_log_start)
        assert view == twin_view
        # ... and the analysis, given the same seed, says exactly the same.
        first = analyse(view, 64, Random(9))
        again = analyse(twin_view, 64, Random(9))
        assert first.analysed and len(first.options) >= 2
        assert first == again


def test_the_estimates_depend_on_the_seed_only_through_sampling() -> None:
    """The check above is not vacuous: the estimates do move with the random source (so
    equal estimates mean the hidden cards were never read, not that nothing varies)."""
    game, seat = _positions(1)[0]
    view = seat_view(game, seat, game.round_log_start)
    runs = {analyse(view, 64, Random(s)).options for s in range(4)}
    assert len(runs) > 1
