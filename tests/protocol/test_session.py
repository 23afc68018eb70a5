"""Host and peer sessions driven against each other in memory, with a fake clock."""

from __future__ import annotations

import pytest

from tests.seeds import rng_secret
from unotui.engine import Game, Rules, seat_view
from unotui.protocol import (
    Accepted,
    Bye,
    Chat,
    ChatLine,
    Hello,
    Intent,
    LocalProtocolError,
    Ping,
    Presence,
    Ready,
    Refused,
    Snapshot,
    Welcome,
    encode_frame,
)
from unotui.protocol.events import ConnectionClosed, Fault, HelloReceived, ViewUpdated
from unotui.protocol.framing import pack_body
from unotui.protocol.peer_session import PeerSession
from unotui.protocol.session import HostSession, State, Timing
from unotui.protocol.values import ACTION_BY_TEXT
from unotui.tokens import new_token, same_token

from .proto_support import Pair, random_steps

DRAW = ACTION_BY_TEXT["draw"]


def closed(events: list[object]) -> ConnectionClosed:
    found = [e for e in events if isinstance(e, ConnectionClosed)]
    assert len(found) == 1, events
    return found[0]


def raw_frame(value: object) -> bytes:
    body = pack_body(value)
    return len(body).to_bytes(4, "big") + body


def test_handshake_then_intents_views_and_answers() -> None:
    pair = Pair(hello=Hello(1, 3, "  Ann\x1b[31m  ", client="test/1"))
    host_events, _ = pair.pump()
    assert host_events == [HelloReceived(Hello(1, 3, "Ann[31m", client="test/1"), 2)]
    pair.admit(seat=1)
    assert pair.host.state is State.ACTIVE and pair.peer.state is State.ACTIVE
    welcome = pair.peer_events[0]
    assert isinstance(welcome, Welcome) and welcome.seat == 1 and welcome.version == 2

    game = Game(3, Rules.preset("classic"), secret=rng_secret(2))
    assert pair.host.send_view(seat_view(game, 1))
    steps = random_steps(game, 2, 100)
    for _ in range(30):
        next(steps)
        pair.host.send_view(seat_view(game, 1, pair.host.log_from))
    _, peer_events = pair.pump()
    assert isinstance(peer_events[-1], ViewUpdated)
    full = seat_view(game, 1)
    assert pair.peer.view is not None and pair.peer.view.hand == full.hand
    assert pair.peer.view.log == full.log and pair.peer.view.version == full.version

    pair.peer.send(Intent(7, DRAW))
    pair.peer.send(Ready())
    host_events, _ = pair.pump()
    assert host_events == [Intent(7, DRAW), Ready()]
    pair.host.send(Refused(7, "not_your_turn", "wait"))
    pair.host.send(Accepted(8))
    pair.host.send(Presence(2, "away", "Cy"))
    _, peer_events = pair.pump()
    assert peer_events == [Refused(7, "not_your_turn", "wait"), Accepted(8), Presence(2, "away", "Cy")]


def test_nothing_reaches_a_connection_before_it_is_admitted() -> None:
    host = HostSession(0.0)
    game = Game(2, Rules(), secret=rng_secret(1))
    with pytest.raises(LocalProtocolError):
        host.send(Presence(0, "joined", "Ann"))
    with pytest.raises(LocalProtocolError):
        host.send_view(seat_view(game, 0))
    host.receive_data(encode_frame(Hello(1, 1, "Eve"), 4096), 0.1)
    assert host.state is State.AUTHENTICATING
    with pytest.raises(LocalProtocolError):
        host.send(Presence(0, "joined", "Ann"))
    assert host.data_to_send() == b""


def test_anything_before_hello_is_an_error_and_closes() -> None:
    host = HostSession(0.0)
    events = host.receive_data(encode_frame(Intent(1, DRAW), 4096), 0.0)
    assert closed(events).code == "bad_message" and closed(events).fault is Fault.REMOTE
    assert host.closed and host.data_to_send().startswith(b"\x00\x00")
    assert host.receive_data(encode_frame(Hello(1, 1, "Ann"), 4096), 1.0) == []


def test_the_client_waits_for_welcome_before_sending() -> None:
    host = HostSession(0.0)
    host.receive_data(encode_frame(Hello(1, 1, "Ann"), 4096), 0.0)
    assert closed(host.receive_data(encode_frame(Chat("hi"), 4096), 0.1)).code == "bad_message"


@pytest.mark.parametrize(("lo", "hi"), [(3, 4), (0, 0)])
def test_no_common_version_is_a_version_error(lo: int, hi: int) -> None:
    if lo == 0:
        host = HostSession(0.0)
        events = host.receive_data(raw_frame({"t": "hello", "min_version": 0, "max_version": 0, "name": "A",
                                              "password": None, "token": None, "spectate": False,
                                              "client": ""}), 0.0)
        assert closed(events).code == "bad_message"
        return
    pair = Pair(hello=Hello(lo, hi, "Ann"))
    pair.pump()
    assert closed(pair.peer_events).code == "version"
    assert closed(pair.peer_events).fault is Fault.LOCAL  # the host says we are at fault
    assert closed(pair.host_events).fault is Fault.REMOTE


def test_the_highest_common_version_is_chosen() -> None:
    host = HostSession(0.0, versions=(1, 4))
    (event,) = host.receive_data(encode_frame(Hello(2, 9, "Ann"), 4096), 0.0)
    assert isinstance(event, HelloReceived) and event.version == 4


@pytest.mark.parametrize("name", ["\x1b\x07", "   ", "\u202e\u200b", "W" * 17, "漢字漢字漢字漢字漢"])
def test_a_name_that_cleans_to_nothing_or_is_too_wide_is_refused(name: str) -> None:
    pair = Pair(hello=Hello(1, 1, name))
    pair.pump()
    assert closed(pair.peer_events).code == "bad_name"
    assert pair.host.closed and pair.peer.closed


def test_reject_sends_the_reason_and_closes() -> None:
    pair = Pair()
    pair.pump()
    pair.host.reject("password", "wrong password")
    pair.pump()
    assert closed(pair.peer_events) == ConnectionClosed("password", "wrong password", Fault.LOCAL)


def test_hello_must_arrive_within_five_seconds() -> None:
    host = HostSession(100.0)
    assert host.next_deadline() == 105.0
    assert host.tick(104.9) == []
    events = host.tick(105.0)
    assert closed(events).code == "timeout"
    assert host.closed and host.next_deadline() is None and host.data_to_send()


def test_a_frame_must_complete_within_ten_seconds_however_slowly_it_drips() -> None:
    pair = Pair()
    pair.admit()
    frame_bytes = encode_frame(Chat("slow loris"), 4096)
    t0 = pair.now
    events: list[object] = []
    for i in range(4):  # a byte every 3 s: the connection never goes quiet
        pair.now = t0 + 3 * i
        assert pair.host.receive_data(frame_bytes[i : i + 1], pair.now) == []
        assert pair.host.next_deadline() == t0 + 10  # set by the first byte; drips do not move it
        events += pair.host.tick(pair.now)
    assert events == []
    assert closed(pair.host.tick(t0 + 10)).code == "timeout"


def test_frame_timer_ends_when_the_frame_completes() -> None:
    pair = Pair()
    pair.admit()
    data = encode_frame(Chat("hi"), 4096)
    pair.host.receive_data(data[:3], 1.0)
    pair.host.receive_data(data[3:], 9.0)
    assert pair.host.tick(11.5) == [] and not pair.host.closed


def test_an_oversized_frame_is_refused_from_its_header() -> None:
    pair = Pair()
    pair.admit()
    events = pair.host.receive_data((4097).to_bytes(4, "big"), pair.now)
    assert closed(events).code == "too_large"


def test_the_peer_refuses_frames_over_256_kib_from_a_host() -> None:
    pair = Pair()
    pair.admit()
    events = pair.peer.receive_data((256 * 1024 + 1).to_bytes(4, "big"), pair.now)
    assert closed(events).code == "too_large" and closed(events).fault is Fault.REMOTE


def test_message_rate_limit_closes_after_the_burst() -> None:
    pair = Pair()
    pair.admit()
    pair.now += 5  # the bucket is full again after the handshake
    for i in range(20):
        pair.peer.send(Ping(i))
    host_events, _ = pair.pump()
    assert host_events == [] and not pair.host.closed
    pair.peer.send(Ping(99))
    host_events, peer_events = pair.pump()
    assert closed(host_events).code == "rate_limited" and closed(peer_events).code == "rate_limited"


def test_ten_messages_a_second_can_go_on_forever() -> None:
    pair = Pair()
    pair.admit()
    for i in range(300):
        pair.now += 0.1
        pair.peer.send(Ping(i))
        pair.pump()
    assert not pair.host.closed


def test_chat_over_its_rate_is_refused_but_the_connection_stays() -> None:
    pair = Pair()
    pair.admit()
    for i in range(6):
        pair.peer.send(Chat(f"line {i}"))
    host_events, peer_events = pair.pump()
    assert host_events == [Chat(f"line {i}") for i in range(5)]
    assert peer_events == [Refused(None, "rate_limited", "more than one chat line a second")]
    pair.now += 1.0
    pair.peer.send(Chat("again"))
    assert pair.pump()[0] == [Chat("again")]


def test_chat_is_cleaned_on_the_host_and_again_on_the_peer() -> None:
    pair = Pair()
    pair.admit()
    pair.peer.send(Chat("hi\x1b]52;c;bad\x07 \u202eevil"))
    pair.peer.send(Chat("\x1b\x07"))  # nothing left: dropped
    host_events, _ = pair.pump()
    assert host_events == [Chat("hi]52;c;bad evil")]
    pair.host.send(ChatLine(2, "Bo\x1bb", "x\u200by\x1b[2J"))  # a hostile host skips cleaning
    _, peer_events = pair.pump()
    assert peer_events == [ChatLine(2, "Bob", "xy[2J")]


def test_heartbeats_keep_a_quiet_connection_alive_and_find_a_dead_one() -> None:
    pair = Pair()
    pair.admit()
    start = pair.now
    assert pair.host.next_deadline() == start + 15
    for _ in range(10):
        pair.advance(15.0)  # both ping after 15 s of silence; both answer
    assert not pair.host.closed and not pair.peer.closed
    # Now the peer vanishes without a word: the host pings, hears nothing, gives up.
    t = pair.now
    events: list[object] = []
    for dt in (15, 30, 44.9):
        events += pair.host.tick(t + dt)
    assert events == [] and pair.host.data_to_send().count(b"ping") == 2
    assert closed(pair.host.tick(t + 45)).code == "timeout"


def test_a_spectator_watches_but_cannot_act() -> None:
    pair = Pair(hello=Hello(1, 1, "Watcher", spectate=True))
    pair.admit(seat=None)
    assert pair.peer.state is State.SPECTATING
    with pytest.raises(LocalProtocolError):
        pair.peer.send(Intent(1, DRAW))
    game = Game(2, Rules(), secret=rng_secret(1))
    assert pair.host.send_view(seat_view(game, None))
    with pytest.raises(LocalProtocolError):
        pair.host.send_view(seat_view(game, 0))  # a seat's view to a spectator
    events = pair.host.receive_data(encode_frame(Intent(4, DRAW), 4096), pair.now)
    assert events == []
    _, peer_events = pair.pump()
    assert isinstance(peer_events[0], ViewUpdated) and peer_events[0].view.hand == ()
    assert peer_events[1] == Refused(4, "spectator", "spectators have no seat to act for")


def test_bye_close_and_eof() -> None:
    pair = Pair()
    pair.admit()
    pair.peer.send(Bye())
    assert pair.peer.closed
    assert closed(pair.pump()[0]) == ConnectionClosed("bye", "the peer left", Fault.NONE)

    pair = Pair()
    pair.admit()
    pair.host.close("host_left", "the host ended the table")
    assert closed(pair.pump()[1]) == ConnectionClosed("host_left", "the host ended the table", Fault.NONE)

    pair = Pair()
    pair.admit()
    assert closed(pair.host.receive_data(b"", pair.now)).code == "eof"
    assert pair.host.receive_data(b"", pair.now) == []


def test_the_peer_refuses_a_host_that_skips_welcome() -> None:
    peer = PeerSession(Hello(1, 1, "Ann"), 0.0)
    game = Game(2, Rules(), secret=rng_secret(1))
    events = peer.receive_data(encode_frame(Snapshot(seat_view(game, 0)), 1 << 20), 0.0)
    assert closed(events).code == "bad_message"


def test_the_peer_gives_up_without_welcome() -> None:
    peer = PeerSession(Hello(1, 1, "Ann"), 0.0)
    assert peer.next_deadline() == 10.0
    assert closed(peer.tick(10.0)).code == "timeout"


def test_welcome_in_a_version_the_peer_does_not_speak_is_refused() -> None:
    peer = PeerSession(Hello(1, 1, "Ann"), 0.0)
    welcome = Welcome(2, 0, None, "t", "", 2, Rules())
    assert closed(peer.receive_data(encode_frame(welcome, 1 << 20), 0.0)).code == "version"


def test_the_peer_uses_the_hosts_heartbeat() -> None:
    pair = Pair(host_kw={"timing": Timing(heartbeat=5)})
    pair.admit()
    assert pair.peer.next_deadline() == pair.now + 5


def test_resume_tokens() -> None:
    a, b = new_token(), new_token()
    assert a != b and len(a) == 43
    assert same_token(a, a) and not same_token(b, a) and not same_token(None, a)
    pair = Pair(hello=Hello(1, 1, "Ann", token=a))
    assert pair.pump()[0][0].hello.token == a


def test_a_host_still_deciding_keeps_heartbeats_running() -> None:
    """Between hello and welcome the host may take its time, but not forever."""
    host = HostSession(0.0)
    host.receive_data(encode_frame(Hello(1, 1, "Ann"), 4096), 1.0)
    assert host.state is State.AUTHENTICATING and host.next_deadline() == 16.0
    assert host.tick(16.0) == [] and b"ping" in host.data_to_send()
    assert closed(host.tick(46.0)).code == "timeout"


def test_the_rule_tables_name_real_methods_and_cover_every_message() -> None:
    """Every rule of the state tables names a method of its session; once admitted,
    every message the other side may send has a rule (the table is the whole machine)."""
    from unotui.protocol.messages import CLIENT_MESSAGES, HOST_MESSAGES
    from unotui.protocol.states import HOST_RULES, PEER_RULES, Refuse, State

    for rules, cls, incoming in ((HOST_RULES, HostSession, CLIENT_MESSAGES),
                                 (PEER_RULES, PeerSession, HOST_MESSAGES)):
        for state, (table, _otherwise) in rules.items():
            assert set(table) <= set(incoming.values()), state
            for rule in table.values():
                assert isinstance(rule, Refuse) or callable(getattr(cls, rule)), (state, rule)
        for state in (State.ACTIVE, State.SPECTATING):
            assert set(rules[state][0]) == set(incoming.values()), state
