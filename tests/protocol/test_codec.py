"""The one encoder and the strict parser: canonical bytes, exact text forms, one error type."""

from __future__ import annotations

import msgpack
import pytest

from tests.seeds import rng_secret
from unotui.engine import ALL_CARDS, Card, Colour, Event, Game, Rules, seat_view
from unotui.engine.actions import Action, Catch, ChooseTarget, play
from unotui.protocol import (
    Accepted,
    Bye,
    Chat,
    ChatLine,
    Closed,
    Deadline,
    Delta,
    Error,
    Hello,
    Intent,
    LocalProtocolError,
    Ping,
    Pong,
    Presence,
    ProtocolError,
    Ready,
    Refused,
    RemoteProtocolError,
    SeatState,
    Snapshot,
    Start,
    TableState,
    Welcome,
    decode_client,
    decode_host,
    encode,
)
from unotui.protocol.codec import SCHEMAS
from unotui.protocol.framing import pack_body
from unotui.protocol.messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    Create,
    Created,
    Kept,
    KeptList,
    KeptRow,
    KeptText,
    LeaderRow,
    LobbyState,
    LobbyTable,
    Matches,
    Quick,
    Review,
    ReviewDone,
    ReviewSlot,
    TranscriptPart,
)
from unotui.protocol.values import ACTION_BY_TEXT, action_in

VIEW = seat_view(Game(3, Rules.preset("classic"), secret=rng_secret(3), dealer=0), 1)

CLIENT_SAMPLES = [
    Hello(1, 2, "Ann", password="pw", token="A" * 43, spectate=False, client="unotui/0.1.0"),
    Hello(1, 1, "Bob"),
    Intent(0, play(Card.parse("R5"), True)),
    Intent(2**40, Catch(9)),
    Ready(),
    Chat("hello there"),
    Ping(7),
    Pong(7),
    Bye(),
    Start(),
    Hello(1, 1, "Cy", table="ROOM42"),
    Hello(1, 1, "Di", lobby=True, identity="SHA256:abcdefgh:0123456789abcdef"),
    Create("Kitchen", 4, 2, Rules.preset("classic"), "hard", 30_000, True),
    Create("Open", 2, 0, Rules(), "easy", None, False),
    Quick(),
    Matches(),
    Kept(17),
    Review(),
    ReviewDone(),
]
HOST_SAMPLES = [
    Welcome(1, 2, "B" * 43, "t1", "Kitchen", 4, Rules.preset("modern")),
    Welcome(1, None, None, "t1", "", 2, Rules()),
    Error("version", "this host speaks 1..1"),
    Closed("host_left", "the host ended the table"),
    Snapshot(VIEW),
    Delta(5, (Event("play", 1, (Card.parse("G7"),)),), {"top": Card.parse("G7"), "colour": Colour.GREEN}),
    Accepted(3),
    Refused(3, "not_your_turn", "wait for your turn"),
    Refused(None, "rate_limited", "slow down"),
    Presence(1, "away", "Bob"),
    Presence(None, "joined", "Watcher"),
    Deadline("turn", 2, 30_000),
    Deadline("catch", None, 0),
    ChatLine(0, "Ann", "gg"),
    Ping(1),
    Pong(1),
    TableState("waiting", (SeatState("Ann", "human"), SeatState("", "open")), 0, True, 0, None, 0),
    TableState("over", (SeatState("Ann", "human", True), SeatState("B", "bot")), None, False, 1, 30_000, 3),
    LobbyState("Ann", "welcome!", 3, (LobbyTable("K7QMX", "Kitchen", 4, 1, 2, "waiting", "classic", 30_000),),
               (LeaderRow("Bob", 12, 7, 215),), None),
    LobbyState("Ann", "", 0, (), (), "K7QMX"),
    Created("K7QMX"),
    TranscriptPart(0, 2, ("Ann", "Bob"), None, ("ab" * 32, "0f" * 32), ((1, ACTION_BY_TEXT["R5!"]),)),
    TranscriptPart(1, 2, (), None, (), ((0, ACTION_BY_TEXT["catch 1"]), (1, ACTION_BY_TEXT["deal"]))),
    KeptList((KeptRow(17, 1_790_000_000, ("Ann", "Bob"), 0, (512, 40), 0, 3),), ""),
    KeptList((), "Matches are kept for players with an SSH key."),
    KeptText(17, 0, 2, ('{"format": ', '"unotui-transcript/2"')),
    ReviewSlot(True, ""),
    ReviewSlot(False, "The server is busy reviewing other matches: try again in a minute."),
]


@pytest.mark.parametrize("message", CLIENT_SAMPLES, ids=repr)
def test_client_messages_round_trip_to_identical_bytes(message: object) -> None:
    body = encode(message)  # type: ignore[arg-type]
    assert decode_client(body) == message
    assert encode(decode_client(body)) == body


@pytest.mark.parametrize("message", HOST_SAMPLES, ids=lambda m: type(m).__name__)
def test_host_messages_round_trip_to_identical_bytes(message: object) -> None:
    body = encode(message)  # type: ignore[arg-type]
    assert decode_host(body) == message
    assert encode(decode_host(body)) == body


def test_every_message_type_has_a_sample_and_a_schema() -> None:
    assert {type(m) for m in CLIENT_SAMPLES} == set(CLIENT_MESSAGES.values())
    assert {type(m) for m in HOST_SAMPLES} == set(HOST_MESSAGES.values())
    assert set(SCHEMAS) == set(CLIENT_MESSAGES.values()) | set(HOST_MESSAGES.values())


def test_type_comes_first_then_the_fields_in_order() -> None:
    wire = msgpack.unpackb(encode(Hello(1, 1, "Ann")))
    assert list(wire) == [
        "t", "min_version", "max_version", "name", "password", "token", "spectate", "client", "table",
        "lobby", "identity",
    ]
    assert list(msgpack.unpackb(encode(Hello(1, 1, "Ann", take_over=True))))[-1] == "take_over"  # (only true)
    assert wire["password"] is None


def test_receivers_accept_keys_in_any_order() -> None:
    body = pack_body({"action": "draw", "seq": 4, "t": "intent"})
    assert decode_client(body) == Intent(4, ACTION_BY_TEXT["draw"])


def test_a_card_never_goes_out_as_a_bare_int() -> None:
    """R0's code is 0: it would pack as 0 if anything let its code through for it."""
    r0 = Card.parse("R0")
    assert r0.code == 0 and r0 != 0
    with pytest.raises(LocalProtocolError):
        pack_body([r0])
    with pytest.raises(LocalProtocolError):
        pack_body({"c": Colour.RED})
    with pytest.raises(LocalProtocolError):
        pack_body((1, 2))  # tuples are not lists on this wire
    with pytest.raises(LocalProtocolError):
        encode(Delta(0, (), {"top": 5}))  # type: ignore[dict-item]
    with pytest.raises(LocalProtocolError):
        encode(Delta(0, (), {"hand": (5, 7)}))
    assert msgpack.unpackb(encode(Delta(0, (), {"top": r0})))["set"] == {"top": "R0"}


def test_encoder_checks_types_and_ranges_like_the_parser() -> None:
    for bad in (
        Intent(-1, ACTION_BY_TEXT["draw"]),
        Intent(True, ACTION_BY_TEXT["draw"]),  # a bool is not a seq
        Intent(1, ChooseTarget(12)),  # the wire has seats 0-9 only
        Hello(2, 1, "Ann"),
        Chat("x" * 281),
        Chat(""),
        Presence(10, "joined", "Ann"),
        Deadline("soon", 1, 5),
        Error("Not A Code", "x"),
    ):
        with pytest.raises(LocalProtocolError):
            encode(bad)  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        encode("hello")  # type: ignore[arg-type]


def test_every_canonical_action_text_parses_to_the_engine_action() -> None:
    for text, action in ACTION_BY_TEXT.items():
        assert str(action) == text
        assert Action.parse(text) is action
        assert action_in(text) is action
    assert len([t for t in ACTION_BY_TEXT if t.endswith("!")]) == len(ALL_CARDS)


@pytest.mark.parametrize(
    "text",
    [
        "COLOR b", "color G", "colour g", "Colour G", "colour  G", "colour Green",
        "target 07", "target 10", "catch ²", "catch ٣", "catch -1", "catch 1.0", "catch +1",
        "r5", "R5 ", " R5", "R5!!", "r5!", "W4", "w+4", "DRAW", "Draw", "draw ", "keep it",
        "discard r5", "discard R5!", "play R5", "", "R 5", "R5\n", "R５",
    ],
)
def test_lenient_forms_for_people_are_refused_on_the_wire(text: str) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode_client(msgpack.packb({"t": "intent", "seq": 1, "action": text}))
    assert info.value.code == "bad_action"


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ({"t": []}, "bad_message"),
        ({"t": {}}, "bad_message"),
        ({"t": None}, "bad_message"),
        ({}, "bad_message"),
        ([], "bad_message"),
        ("intent", "bad_message"),
        ({"t": "welcome"}, "bad_message"),  # a host message sent by a client
        ({"t": "intent", "seq": 1}, "bad_message"),
        ({"t": "intent", "seq": 1, "action": "draw", "extra": 1}, "bad_message"),
        ({"t": "intent", "seq": "1", "action": "draw"}, "bad_message"),
        ({"t": "intent", "seq": -1, "action": "draw"}, "bad_message"),
        ({"t": "intent", "seq": True, "action": "draw"}, "bad_message"),
        ({"t": "intent", "seq": 1.0, "action": "draw"}, "bad_message"),
        ({"t": "intent", "seq": 1, "action": ["draw"]}, "bad_action"),
        ({"t": "intent", "seq": 1, "action": 5}, "bad_action"),
        ({"t": "hello", "min_version": 2, "max_version": 1, "name": "A", "password": None,
          "token": None, "spectate": False, "client": ""}, "bad_message"),
        ({"t": "hello", "min_version": 1, "max_version": 1, "name": "A", "password": None,
          "token": "short", "spectate": False, "client": ""}, "bad_message"),
        ({"t": "hello", "min_version": 1, "max_version": 1, "name": "A", "password": None,
          "token": None, "spectate": 0, "client": ""}, "bad_message"),
        ({"t": "chat", "text": "x" * 281}, "bad_message"),
    ],
)
def test_schema_traps_fail_with_the_protocol_error(wire: object, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(msgpack.packb(wire))
    assert info.value.code == code
    assert isinstance(info.value, RemoteProtocolError)


def test_a_view_with_a_seat_outside_the_table_is_refused() -> None:
    wire = msgpack.unpackb(encode(Snapshot(VIEW)))
    for key, value in [("actor", 5), ("counts", [1, 2]), ("face_up", [[3, []]]), ("seat", 9)]:
        bad = {**wire, "view": {**wire["view"], key: value}}
        with pytest.raises(RemoteProtocolError):
            decode_host(msgpack.packb(bad))


def test_rules_must_be_canonical() -> None:
    wire = msgpack.unpackb(encode(HOST_SAMPLES[0]))
    for change in ({"seven_o": 0}, {"hand_size": "7"}, {"stacking": "OFF"}, {"extra": 1}):
        bad = {**wire, "rules": {**wire["rules"], **change}}
        with pytest.raises(RemoteProtocolError):
            decode_host(msgpack.packb(bad))


def test_delta_may_not_set_the_seat_or_unknown_fields() -> None:
    for changes in ({"seat": 1}, {"nope": 1}, {"log": []}):
        with pytest.raises(RemoteProtocolError):
            decode_host(msgpack.packb({"t": "delta", "log_at": 0, "log": [], "set": changes}))


def spec_messages(heading: str) -> dict[str, list[str]]:
    """``t`` -> its field names in order, from the table under ``### heading`` in SPEC.md."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md").read_text(encoding="utf-8")
    section = text[text.index(f"### {heading}") :]
    section = section[: section.index("\n#", 4)]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]*) \|", section, re.MULTILINE)
    return {t: re.findall(r"(?:^|; )`([a-z_]+)`:", fields) for t, fields in rows if t != "t"}


def test_the_specs_message_tables_are_the_codecs() -> None:
    """SPEC.md's three message tables list exactly the messages each side sends (the
    unions in messages.py), each with the fields of SCHEMAS in their order."""
    both = spec_messages("Both directions")
    for heading, table in (("Client to host", CLIENT_MESSAGES), ("Host to client", HOST_MESSAGES)):
        listed = {**both, **spec_messages(heading)}
        assert set(listed) == set(table), heading
        for t, fields in listed.items():
            assert fields == [f.key for f in SCHEMAS[table[t]]], (heading, t)
