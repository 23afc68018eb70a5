"""Write ``protocol/vectors/lobby_kept_*.json``: the lobby's kept matches and review slots
(protocol version 2; run: ``python -m tests.protocol.make_kept_vectors``).

Apart from ``make_vectors.py`` so that this version 2 subsection's vectors are its own
(another part of version 2 writes its own too); the helpers are that script's.
"""

from __future__ import annotations

import json
from typing import Any

from tests.protocol.make_vectors import OUT, invalid, valid
from unotui.protocol.messages import (
    Kept,
    KeptList,
    KeptRow,
    KeptText,
    Matches,
    Refused,
    Review,
    ReviewDone,
    ReviewSlot,
)

ROW = KeptRow(17, 1_790_000_000, ("Ann", "Bob", "Cy"), 0, (512, 40, 0), 0, 3)
ROW_WIRE = [17, 1_790_000_000, ["Ann", "Bob", "Cy"], 0, [512, 40, 0], 0, 3]


def client_file() -> dict[str, Any]:
    return {
        "description": "The lobby's kept matches and review slots (version 2): frames a client sends. "
                       "The host's limit is 4096 bytes a frame.",
        "sender": "client",
        "limit": 4096,
        "valid": [
            valid("list my kept matches", Matches()),
            valid("a kept match's transcript", Kept(17)),
            valid("ask for a review slot", Review()),
            valid("the review is over", ReviewDone()),
        ],
        "invalid": [
            invalid("kept: id 0", "bad_message", {"t": "kept", "id": 0}),
            invalid("kept: id above 2^53", "bad_message", {"t": "kept", "id": 2**53 + 1}),
            invalid("kept: id is a string", "bad_message", {"t": "kept", "id": "17"}),
            invalid("matches with a field", "bad_message", {"t": "matches", "limit": 5}),
            invalid("a host's kept_list from a client", "bad_message",
                    {"t": "kept_list", "rows": [], "note": ""}),
        ],
    }


def host_file() -> dict[str, Any]:
    return {
        "description": "The lobby's kept matches and review slots (version 2): frames a host sends. "
                       "A client's limit is 262144 bytes a frame; the host sends at most 65536.",
        "sender": "host",
        "limit": 262144,
        "valid": [
            valid("kept_list: one match", KeptList((ROW,), "")),
            valid("kept_list: a guest's, empty with a note",
                  KeptList((), "Matches are kept for players with an SSH key; you came as a guest.")),
            valid("kept_text: part 1 of 2", KeptText(17, 1, 2, ('"actions":[[1,"R5"]]}',))),
            valid("refused: no such match", Refused(None, "no_such_match", "No such match.")),
            valid("review_slot: granted", ReviewSlot(True, "")),
            valid("review_slot: refused",
                  ReviewSlot(False, "The server is busy reviewing other matches: try again in a minute.")),
        ],
        "invalid": [
            invalid("kept_list: a score missing", "bad_message",
                    {"t": "kept_list", "rows": [[17, 1, ["Ann", "Bob"], 0, [5], 0, 1]], "note": ""}),
            invalid("kept_list: seat outside the names", "bad_message",
                    {"t": "kept_list", "rows": [[17, 1, ["Ann", "Bob"], 2, [5, 0], 0, 1]], "note": ""}),
            invalid("kept_list: one name", "bad_message",
                    {"t": "kept_list", "rows": [[17, 1, ["Ann"], 0, [5], 0, 1]], "note": ""}),
            invalid("kept_list: 101 rows", "bad_message",
                    {"t": "kept_list", "rows": [ROW_WIRE] * 101, "note": ""}),
            invalid("kept_text: a chunk over 4096 characters", "bad_message",
                    {"t": "kept_text", "id": 17, "part": 0, "parts": 1, "chunks": ["x" * 4097]}),
            invalid("kept_text: 15 chunks", "bad_message",
                    {"t": "kept_text", "id": 17, "part": 0, "parts": 1, "chunks": ["x"] * 15}),
            invalid("kept_text: an empty chunk", "bad_message",
                    {"t": "kept_text", "id": 17, "part": 0, "parts": 1, "chunks": [""]}),
            invalid("kept_text: 65 parts", "bad_message",
                    {"t": "kept_text", "id": 17, "part": 0, "parts": 65, "chunks": ["x"]}),
            invalid("review_slot: granted is 1", "bad_message",
                    {"t": "review_slot", "granted": 1, "reason": ""}),
        ],
    }


def main() -> None:
    for name, data in (("lobby_kept_client", client_file()), ("lobby_kept_host", host_file())):
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
