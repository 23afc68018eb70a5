"""A hostile host's match record: a joined seat buffers no more of it than the match it saw.

After a match a host sends each seat the match's record in parts (``transcript``: at most
256 parts of 256 keys and 3000 steps, 768,000 steps in all).  A record far longer than the
log the seat was shown is not this match; before, the seat took every part in and refused
the record only once it was whole, so a hostile host could make it hold tens of MB.  Now
the seat counts the parts as they come: once the steps so far pass its bound (twice the
log it was shown, plus 100) it refuses the record, before the rest is even sent, holds
none of it, and stays connected.  An honest record of the same match is still kept, in
one part or in many.

The host is :class:`~tests.hostile.fake_host.FakeHost`, the seat a real ``RemoteGame``
over loopback.
"""

from __future__ import annotations

from random import Random

import pytest

from tests.net.lan_support import Player, until
from tests.seeds import rng_secret
from unotui.bots import make_bot
from unotui.engine import Game, Phase, Rules, seat_view
from unotui.net.controller import RecordArrived, RecordRefused
from unotui.net.handover import MISMATCH, record_parts
from unotui.net.remote import RemoteGame
from unotui.protocol import messages as m
from unotui.protocol.codec import RECORD_ACTIONS
from unotui.protocol.events import record_bound
from unotui.protocol.peer_session import PeerSession
from unotui.protocol.sync import ViewEncoder
from unotui.protocol.values import ACTION_BY_TEXT
from unotui.table import Pacing, Referee
from unotui.transcript import replay, transcript_of

from .fake_host import FakeHost

pytestmark = pytest.mark.timeout(60)

RULES = Rules.preset("classic").with_(target_score=150)


def _match() -> Game:
    """A whole match of three computer players, from a seeded secret (as a host's)."""
    game = Game(["P0", "P1", "P2"], RULES, secret=rng_secret(6))
    bots = {s: make_bot("medium", Random(30 + s)) for s in range(3)}
    Referee(game, bots=bots, humans=(), pacing=Pacing.instant()).tick(0.0)
    assert game.over
    return game


def _views(game: Game, seat: int) -> list[m.Snapshot | m.Delta]:
    """What a host sends ``seat`` of ``game``, moment by moment: a snapshot, then deltas."""
    encoder, out = ViewEncoder(), []

    def watch(g: Game) -> None:
        message = encoder.update(seat_view(g, seat, encoder.log_from))
        if message is not None:
            out.append(message)

    replay(transcript_of(game), watch=watch)
    return out


def _padded(game: Game, count: int) -> list[m.TranscriptPart]:
    """A hostile record of ``game``: its names and keys, then ``count`` parts of 3000 steps
    (the match's own steps, then draws): far more than the match had."""
    steps = list(game.history)
    filler = (0, ACTION_BY_TEXT["draw"])
    steps += [filler] * (count * RECORD_ACTIONS - len(steps))
    keys = tuple(game.shuffler.round_key(r).hex() for r in range(game.round_no + 1))
    return [
        m.TranscriptPart(i, count, game.names if i == 0 else (), game.first_dealer,
                         keys if i == 0 else (), tuple(steps[i * RECORD_ACTIONS:(i + 1) * RECORD_ACTIONS]))
        for i in range(count)
    ]


async def _seated(fake: FakeHost, game: Game) -> tuple[RemoteGame, Player, PeerSession]:
    """Seat 0 joined at ``fake``, shown the whole of ``game`` to its end."""
    fake.send(m.Welcome(2, 0, "t" * 43, "", "Kitchen", 3, RULES, name="P0"))
    for message in _views(game, 0):
        fake.send(message)
    seat = RemoteGame("127.0.0.1", fake.port, name="P0", reconnect_for=0)
    player = Player(seat, Random(0), auto=False)
    await seat.start()

    def over() -> bool:
        try:
            return seat.view.phase is Phase.MATCH_OVER
        except LookupError:
            return False

    await until(over)
    link = seat._link
    assert link is not None and isinstance(link.session, PeerSession)
    return seat, player, link.session


async def test_a_record_far_longer_than_the_match_is_refused_before_its_last_part() -> None:
    game = _match()
    async with FakeHost().running() as fake:
        seat, player, session = await _seated(fake, game)
        limit = session.record_limit
        assert limit == record_bound(len(game.log))
        parts = _padded(game, 40)
        assert len(parts) * RECORD_ACTIONS > 30 * limit
        # Only the parts up to the one whose steps pass the bound are sent: the refusal
        # comes with 30-odd parts still to come.
        enough = limit // RECORD_ACTIONS + 1
        assert enough < len(parts) - 30
        for part in parts[:enough]:
            fake.send(part)
        await until(lambda: bool(seat.record_refused))
        assert seat.record_refused.startswith(MISMATCH) and "more than the match had" in seat.record_refused
        assert session.record_held == (0, 0)  # nothing of it is kept
        # The rest arrives and is dropped; the seat is still connected and hears the host.
        for part in parts[enough:]:
            fake.send(part)
        fake.send(m.ChatLine(None, "Host", "still here"))
        await until(lambda: any(isinstance(u, m.ChatLine) for u in player.updates))
        assert session.record_held == (0, 0) and not session.closed and not player.closed
        assert seat.record is None
        assert [u for u in player.updates if isinstance(u, RecordRefused | RecordArrived)] == [
            RecordRefused(seat.record_refused)]
        assert seat.view.phase is Phase.MATCH_OVER and seat.view.winner == game.winner
        await seat.close()
        fake.hang_up()


@pytest.mark.parametrize("steps", [RECORD_ACTIONS, 40])
async def test_an_honest_record_of_the_same_match_is_kept(
        steps: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import unotui.protocol.codec as codec

    monkeypatch.setattr(codec, "RECORD_ACTIONS", steps)  # (40: the record in many parts)
    game = _match()
    parts = record_parts(game)
    assert len(parts) == -(-len(game.history) // steps)
    async with FakeHost().running() as fake:
        seat, player, session = await _seated(fake, game)
        assert len(game.history) <= session.record_limit
        for part in parts:
            fake.send(part)
        await until(lambda: seat.record is not None or bool(seat.record_refused))
        assert not seat.record_refused and seat.record is not None
        assert replay(seat.record.transcript).scores == game.scores
        assert [u for u in player.updates if isinstance(u, RecordArrived)] == [RecordArrived(seat.record)]
        assert session.record_held == (0, 0) and not session.closed
        await seat.close()
        fake.hang_up()
