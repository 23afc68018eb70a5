"""Write ``protocol/vectors/*.json`` from hand-picked cases (run: ``python -m tests.protocol.make_vectors``).

The vectors are the contract, not this script: once written and reviewed they change only
with the protocol version.  ``test_vectors.py`` checks this implementation against them.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import msgpack

from tests.seeds import rng_secret
from unotui.engine import Card, Catch, Colour, Event, Game, Rules, deal_order, seat_view
from unotui.engine.shuffle import round_key, secret_from_seed
from unotui.protocol import (
    Accepted,
    Bye,
    Chat,
    ChatLine,
    Closed,
    Create,
    Created,
    Deadline,
    Delta,
    Error,
    Hello,
    Intent,
    LeaderRow,
    LobbyState,
    LobbyTable,
    Ping,
    Pong,
    Presence,
    Quick,
    Ready,
    Refused,
    SeatState,
    Snapshot,
    Start,
    TableState,
    TranscriptPart,
    ViewEncoder,
    Welcome,
    encode,
)
from unotui.protocol.values import ACTION_BY_TEXT

TOKEN = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c"
#: round keys 0-2 of seed 7's match (a record carries every round's, in hex)
RECORD_KEYS = [round_key(secret_from_seed(7), r).hex() for r in range(3)]
OUT = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def _steps(*steps: tuple[int, str]) -> tuple[tuple[int, Any], ...]:
    return tuple((seat, ACTION_BY_TEXT[text]) for seat, text in steps)


def framed(body: bytes) -> str:
    return (len(body).to_bytes(4, "big") + body).hex()


def valid(name: str, message: Any) -> dict[str, Any]:
    body = encode(message)
    return {"name": name, "frame": framed(body), "value": msgpack.unpackb(body)}


def invalid(name: str, error: str, value: Any = None, raw: bytes | None = None, frame: str | None = None
            ) -> dict[str, Any]:
    if frame is None:
        body = raw if raw is not None else msgpack.packb(value, use_bin_type=True)
        frame = framed(body)
    return {"name": name, "frame": frame, "error": error}


def lenient(name: str, value: dict[str, Any], missing: str) -> dict[str, Any]:
    """A frame without the optional key ``missing``: a receiver reads it as ``value`` with
    that key nil (the canonical frame an up-to-date sender writes)."""
    short = {k: v for k, v in value.items() if k != missing}
    return {"name": name, "frame": framed(msgpack.packb(short)), "as": {**value, missing: None}}


def small_game() -> Game:
    hands = ["R1 G5 B+2 W", "Y7 R7 G0 W+4"]
    deck = deal_order(hands, "R5", "B9 Y3", dealer=1)
    return Game(["Ann", "Bob"], Rules.preset("classic").with_(hand_size=4), secret=rng_secret(1),
                dealer=1, deck=deck)


def round_over() -> Snapshot:
    """Seat 0's snapshot once :func:`small_game`'s round is over (seeded moves, no catches)."""
    game, rng = small_game(), Random(60)  # (a seed whose round is short)
    while game.phase != "round_over":
        options = [a for a in game.legal_actions(game.actor) if not isinstance(a, Catch)]
        game.apply(game.actor, rng.choice(options))
    view = seat_view(game, 0, game.round_log_start)
    assert view.dealer == 1 and view.actor == 0 and view.legal == (ACTION_BY_TEXT["deal"],)
    snap = ViewEncoder().update(view)
    assert isinstance(snap, Snapshot)
    return snap


def client_file() -> dict[str, Any]:
    draw = ACTION_BY_TEXT["draw"]
    ok = [
        valid("hello", Hello(1, 1, "Ann", client="unotui/0.1.0")),
        valid("hello with password and token", Hello(1, 2, "Ann", password="pw", token=TOKEN, client="x")),
        valid("hello to spectate", Hello(1, 1, "Watcher", spectate=True)),
        valid("intent: play a card", Intent(0, ACTION_BY_TEXT["R5"])),
        valid("intent: play and call UNO", Intent(1, ACTION_BY_TEXT["R5!"])),
        valid("intent: draw", Intent(2, draw)),
        valid("intent: name a colour", Intent(3, ACTION_BY_TEXT["colour G"])),
        valid("intent: catch", Intent(4, ACTION_BY_TEXT["catch 2"])),
        valid("intent: large seq", Intent(2**33, ACTION_BY_TEXT["W+4"])),
        valid("ready", Ready()),
        valid("chat", Chat("good game")),
        valid("ping", Ping(1)),
        valid("pong", Pong(70000)),
        valid("bye", Bye()),
        valid("hello to a table on a host with several", Hello(1, 1, "Ann", table="ROOM42")),
        valid("start (the host's own seat)", Start()),
        valid("hello to a lobby, with a lobby-issued identity",
              Hello(1, 1, "Ann", lobby=True, identity="SHA256:abcdefgh:0123456789abcdef")),
        valid("hello taking a key's seat over from its other terminal",
              Hello(1, 1, "Ann", table="ROOM42", identity="SHA256:abcdefgh:0123456789abcdef",
                    take_over=True)),
        valid("create a private table",
              Create("Kitchen", 4, 2, Rules.preset("classic"), "hard", 30000, True)),
        valid("quick match", Quick()),
    ]
    intent = {"t": "intent", "seq": 1, "action": "draw"}
    bad = [
        invalid("map key is an integer", "bad_frame", raw=b"\x82\xa1t\xa4ping\x01\x00"),
        invalid("ext type", "bad_frame", raw=b"\x82\xa1t\xa4ping\xa1n\xd4\x01\x00"),
        invalid("timestamp ext", "bad_frame", raw=b"\x82\xa1t\xa4ping\xa1n\xd6\xff\x00\x00\x00\x01"),
        invalid("bin instead of str", "bad_frame", raw=b"\x82\xa1t\xc4\x04ping\xa1n\x00"),
        invalid("invalid UTF-8", "bad_frame", raw=b"\x81\xa1t\xa2\xff\xfe"),
        invalid("two objects in one frame", "bad_frame", raw=msgpack.packb({"t": "bye"}) * 2),
        invalid("empty frame", "bad_frame", raw=b""),
        invalid("{t: []}", "bad_message", {"t": []}),
        invalid("create: no seat left for its creator", "bad_message",
                {**msgpack.unpackb(encode(Create("K", 2, 1, Rules(), "easy", None, False))), "bots": 2}),
        invalid("create: unknown bot level", "bad_message",
                {**msgpack.unpackb(encode(Create("K", 2, 1, Rules(), "easy", None, False))), "level": "god"}),
        invalid("hello: identity with a space", "bad_message",
                {**msgpack.unpackb(encode(Hello(1, 1, "Ann"))), "identity": "SHA256:abc def:0123"}),
        invalid("hello: take_over nil (missing is false, nil is not a bool)", "bad_message",
                {**msgpack.unpackb(encode(Hello(1, 1, "Ann"))), "take_over": None}),
        invalid("{t: {}}", "bad_message", {"t": {}}),
        invalid("not a map", "bad_message", ["intent", 1, "draw"]),
        invalid("no type", "bad_message", {"seq": 1, "action": "draw"}),
        invalid("unknown type", "bad_message", {"t": "cheat"}),
        invalid("a host message from a client", "bad_message", {"t": "accepted", "seq": 1}),
        invalid("missing field", "bad_message", {"t": "intent", "seq": 1}),
        invalid("extra field", "bad_message", {**intent, "seat": 0}),
        invalid("seq is a string", "bad_message", {**intent, "seq": "1"}),
        invalid("seq is a bool", "bad_message", {**intent, "seq": True}),
        invalid("seq is a float", "bad_message", {**intent, "seq": 1.0}),
        invalid("seq is negative", "bad_message", {**intent, "seq": -1}),
        invalid("action is an int", "bad_action", {**intent, "action": 5}),
        invalid("action is a list", "bad_action", {**intent, "action": ["R5"]}),
        invalid("hello min above max", "bad_message", {"t": "hello", "min_version": 2, "max_version": 1,
                "name": "A", "password": None, "token": None, "spectate": False, "client": "", "table": ""}),
        invalid("hello spectate as 0", "bad_message", {"t": "hello", "min_version": 1, "max_version": 1,
                "name": "A", "password": None, "token": None, "spectate": 0, "client": "", "table": ""}),
        invalid("hello empty name", "bad_message", {"t": "hello", "min_version": 1, "max_version": 1,
                "name": "", "password": None, "token": None, "spectate": False, "client": "", "table": ""}),
        invalid("chat too long", "bad_message", {"t": "chat", "text": "x" * 281}),
        invalid("chat empty", "bad_message", {"t": "chat", "text": ""}),
        invalid("ping n negative", "bad_message", {"t": "ping", "n": -1}),
        invalid("start with a field", "bad_message", {"t": "start", "now": True}),
    ]
    for text in ["r5", "R5 ", " R5", "R5!!", "COLOR b", "color G", "colour g", "colour Green",
                 "target 07", "target 10", "catch ²", "catch ٣", "catch -1", "Draw", "W4", "w+4",
                 "discard r5", "play R5", "R５", ""]:
        bad.append(invalid(f"non-canonical action {text!r}", "bad_action", {**intent, "action": text}))
    return {
        "description": "Frames a client sends to a host. The host's limit is 4096 bytes a frame.",
        "sender": "client",
        "limit": 4096,
        "valid": ok,  # (a false hello.take_over is not written: an older client's hello is canonical)
        "invalid": bad,
    }


def host_file() -> dict[str, Any]:
    game = small_game()
    enc = ViewEncoder()
    snap = enc.update(seat_view(game, 0))
    game.apply(0, ACTION_BY_TEXT["R1"])
    delta = enc.update(seat_view(game, 0))
    game.apply(1, ACTION_BY_TEXT["draw"])
    delta2 = enc.update(seat_view(game, 0))
    spectator = ViewEncoder().update(seat_view(game, None))
    over = round_over()
    assert isinstance(snap, Snapshot) and isinstance(delta, Delta) and isinstance(delta2, Delta)
    ok = [
        valid("welcome", Welcome(1, 0, TOKEN, "t-1", "Kitchen", 2,
                                 Rules.preset("classic"), name="Ann")),
        valid("welcome a spectator", Welcome(1, None, None, "t-1", "Kitchen", 4, Rules.preset("giant"))),
        valid("welcome under a name the host made unique", Welcome(1, 1, TOKEN, "t-1", "Kitchen", 3,
                                                                   Rules.preset("classic"), name="aNN 3")),
        valid("error", Error("version", "this host speaks protocol versions 1..1")),
        valid("closed", Closed("host_left", "the host ended the table")),
        valid("closed: a lobby closes a finished table",
              Closed("match_over", "The match is over: back to the lobby.")),
        valid("snapshot of seat 0 at the deal", snap),
        valid("delta: seat 0 played R1", delta),
        valid("delta: seat 1 drew (hidden from seat 0)", delta2),
        valid("snapshot for a spectator", spectator),
        valid("snapshot at round_over: dealer is still this round's, the actor deals next", over),
        valid("accepted", Accepted(1)),
        valid("refused an intent", Refused(2, "not_your_turn", "it is seat 1's turn")),
        valid("refused a chat line", Refused(None, "rate_limited", "more than one chat line a second")),
        valid("presence", Presence(1, "away", "Bob")),
        valid("presence: a player said bye", Presence(1, "left", "Bob")),
        valid("presence: a computer player plays seat 1 after its turns ran out (seat 1 is told too)",
              Presence(1, "bot", "Bob")),
        valid("presence: seat 1 is its person's again (seat 1 is told too)", Presence(1, "back", "Bob")),
        valid("deadline", Deadline("turn", 1, 30000)),
        valid("deadline cancelled", Deadline("catch", None, 0)),
        valid("chat", ChatLine(1, "Bob", "gg")),
        valid("ping", Ping(3)),
        valid("pong", Pong(3)),
        valid("table: the waiting room", TableState(
            "waiting", (SeatState("Ann", "human"), SeatState("", "open"), SeatState("Bot", "bot")),
            0, True, 1, None, 0)),
        valid("table: playing, someone away, a timer", TableState(
            "playing", (SeatState("Ann", "human", True), SeatState("Bob", "human")), 1, False, 0, 30000, 2)),
        valid("table: a lobby's table, which starts by itself when one more player joins", TableState(
            "waiting", (SeatState("Ann", "human"), SeatState("", "open"), SeatState("", "open"),
                        SeatState("", "open")), 0, True, 2, 30000, 0, True)),
        valid("lobby: tables and leaders", LobbyState(
            "Ann", "Be kind.", 3, (LobbyTable("K7QMX", "Kitchen", 4, 1, 2, "waiting", "classic", 30000),),
            (LeaderRow("Bob", 12, 7, 215),), None)),
        valid("lobby: a seat is held for you", LobbyState("Ann", "", 1, (), (), "K7QMX")),
        valid("created", Created("K7QMX")),
        valid("delta with a named colour", Delta(12, (Event("colour", 0, value=int(Colour.GREEN)),),
                                                  {"colour": Colour.GREEN, "top": Card.parse("W")})),
        valid("chat: an earlier line, sent to a member just admitted",
              ChatLine(None, "Eve", "good luck", True)),
        valid("deadline: seat 2 is held for its person, a computer player takes it in 120 s",
              Deadline("hold", 2, 120000)),
        valid("deadline: every hold cancelled (those still running follow)", Deadline("hold", None, 0)),
        valid("deadline: seat 1's turn timer ran out and the host acted for it", Deadline("turn", 1, 0)),
        valid("transcript (version 2): part 0 of 2, the names, round keys 0 and 1, the first steps",
              TranscriptPart(0, 2, ("Ann", "Bob"), None, (RECORD_KEYS[0], RECORD_KEYS[1]),
                             _steps((1, "R1"), (0, "draw"), (0, "keep"), (0, "catch 1")))),
        valid("transcript (version 2): part 1 of 2, the last key and steps (a round won, the next dealt)",
              TranscriptPart(1, 2, (), None, (RECORD_KEYS[2],),
                             _steps((1, "G5!"), (0, "uno"), (1, "deal")))),
    ]
    record = {"t": "transcript", "part": 0, "parts": 1, "names": ["Ann", "Bob"], "dealer": None,
              "keys": [RECORD_KEYS[0]], "actions": [[1, "R1"]]}
    snap_wire = msgpack.unpackb(encode(snap))
    view = snap_wire["view"]
    delta_wire = {"t": "delta", "log_at": 9, "log": [], "set": {}}

    def sv(**changes: Any) -> dict[str, Any]:
        return {**snap_wire, "view": {**view, **changes}}

    bad = [
        invalid("length prefix over the client's 256 KiB limit", "too_large",
                frame=(256 * 1024 + 1).to_bytes(4, "big").hex()),
        invalid("lobby: a table row with 7 fields", "bad_message",
                {"t": "lobby", "you": "Ann", "motd": "", "online": 1, "seat_at": None, "leaders": [],
                 "tables": [["K7QMX", "Kitchen", 4, 1, 2, "waiting", "classic"]]}),
        invalid("lobby: a rating that is a float", "bad_message",
                {"t": "lobby", "you": "Ann", "motd": "", "online": 1, "seat_at": None, "tables": [],
                 "leaders": [["Bob", 1, 1, 2.5]]}),
        invalid("created: a code with a space", "bad_message", {"t": "created", "code": "K7 QM"}),
        invalid("a host message type the client does not know", "bad_message", {"t": "intent", "seq": 1,
                                                                                 "action": "draw"}),
        invalid("snapshot: actor outside the table", "bad_message", sv(actor=5)),
        invalid("snapshot: lower-case card", "bad_message", sv(top="r5")),
        invalid("snapshot: card as a number", "bad_message", sv(top=5)),
        invalid("snapshot: hand as a map", "bad_message", sv(hand={"0": "R1"})),
        invalid("snapshot: missing field", "bad_message",
                {**snap_wire, "view": {k: v for k, v in view.items() if k != "phase"}}),
        invalid("snapshot: unknown phase", "bad_message", sv(phase="cheat")),
        invalid("snapshot: legal action not canonical", "bad_action",
                sv(legal=["COLOR b"])),
        invalid("snapshot: rules not canonical", "bad_message",
                sv(rules={**view["rules"], "seven_o": 0})),
        invalid("delta: event with 7 fields (to)", "bad_message",
                {**delta_wire, "log": [["draw", 1, [], -1, 1, "turn", 1]]}),
        invalid("delta: unknown event kind", "bad_message",
                {**delta_wire, "log": [["cheat", 1, [], -1, 0, ""]]}),
        invalid("delta: sets the seat", "bad_message", {**delta_wire, "set": {"seat": 1}}),
        invalid("delta: unknown field", "bad_message", {**delta_wire, "set": {"deck": []}}),
        invalid("presence: unknown state", "bad_message", {"t": "presence", "seat": 1, "state": "gone",
                                                            "name": "Bob"}),
        invalid("welcome: seat 10", "bad_message", {**ok[0]["value"], "seat": 10}),
        invalid("welcome: short token", "bad_message", {**ok[0]["value"], "token": "abc"}),
        invalid("welcome: empty name", "bad_message", {**ok[0]["value"], "name": ""}),
        invalid("welcome: name is a number", "bad_message", {**ok[0]["value"], "name": 1}),
        invalid("welcome: no token key (only name may be missing)", "bad_message",
                {k: v for k, v in ok[0]["value"].items() if k != "token"}),
        invalid("chat: earlier is nil (a flag: true or false, or missing)", "bad_message",
                {"t": "chat", "seat": 1, "name": "Bob", "text": "gg", "earlier": None}),
        invalid("transcript: part 1 of 1", "bad_message", {**record, "part": 1, "names": []}),
        invalid("transcript: part 0 without the names", "bad_message", {**record, "names": []}),
        invalid("transcript: names in a later part", "bad_message", {**record, "part": 1, "parts": 2}),
        invalid("transcript: one name", "bad_message", {**record, "names": ["Ann"]}),
        invalid("transcript: 257 parts", "bad_message", {**record, "parts": 257}),
        invalid("transcript: a round key in upper case", "bad_message",
                {**record, "keys": [RECORD_KEYS[0].upper()]}),
        invalid("transcript: a round key of 31 bytes", "bad_message",
                {**record, "keys": [RECORD_KEYS[0][2:]]}),
        invalid("transcript: 257 keys in a part", "bad_message", {**record, "keys": [RECORD_KEYS[0]] * 257}),
        invalid("transcript: 3001 steps in a part", "bad_message",
                {**record, "actions": [[1, "draw"]] * 3001}),
        invalid("transcript: a step of seat 10", "bad_message", {**record, "actions": [[10, "draw"]]}),
        invalid("transcript: a step as a map", "bad_message", {**record, "actions": [{"1": "draw"}]}),
        invalid("transcript: a step not canonical", "bad_action", {**record, "actions": [[1, "DRAW"]]}),
    ]
    older = [  # what an older host sends: accepted, read as the canonical message "as"
        # (false flags - table.autostart, chat.earlier - are not written: nothing to add)
        lenient("welcome from a host older than welcome.name", ok[0]["value"], "name"),
    ]
    return {
        "description": "Frames a host sends to a client. A client accepts frames up to 262144 bytes; "
                       "a host sends at most 65536.",
        "sender": "host",
        "limit": 256 * 1024,
        "valid": ok,
        "older": older,
        "invalid": bad,
    }


def framing_file() -> dict[str, Any]:
    bye = framed(msgpack.packb({"t": "bye"}))
    return {
        "description": "Framing errors, read by a host (limit 4096 bytes a frame).",
        "sender": "client",
        "limit": 4096,
        "valid": [{"name": "two frames back to back", "frame": bye + framed(msgpack.packb({"t": "ready"})),
                   "values": [{"t": "bye"}, {"t": "ready"}]}],
        "invalid": [
            invalid("length prefix over the limit (only the prefix is sent)", "too_large", frame="00001001"),
            invalid("length prefix of 4 GiB", "too_large", frame="ffffffff"),
            invalid("stream ends inside the prefix", "bad_frame", frame="0000"),
            invalid("stream ends inside the body", "bad_frame", frame=bye[:-2]),
        ],
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in (("framing", framing_file()), ("client", client_file()), ("host", host_file())):
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
