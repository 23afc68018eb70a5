"""Write ``protocol/vectors/shuffles/shuffle.json``: test vectors for the shuffles
(``protocol/SPEC.md``, "Shuffles").  Run ``python -m tests.protocol.make_shuffle_vectors``."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from unotui.engine import ALL_CARDS, Rules, build_deck, parse_cards
from unotui.engine.shuffle import (
    commitment,
    fisher_yates,
    round_key,
    secret_from_seed,
    shuffled,
    stream_seed,
    words,
)

OUT = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "shuffles" / "shuffle.json"


def case(name: str, secret: bytes, round_no: int, label: str, ordinal: int, cards: str) -> dict[str, Any]:
    key = round_key(secret, round_no)
    given = parse_cards(cards)
    out = shuffled(key, label, ordinal, given)
    return {
        "name": name,
        "secret": secret.hex(),
        "round": round_no,
        "round_key": key.hex(),
        "label": label,
        "ordinal": ordinal,
        "stream_seed": stream_seed(key, label, ordinal).hex(),
        "first_words": list(itertools.islice(words(key, label, ordinal), 8)),
        "input": cards,
        "sorted_input": " ".join(c.text for c in sorted(given)),
        "output": " ".join(c.text for c in out),
        "commitment": commitment(key, out),
    }


def build() -> dict[str, Any]:
    secret = secret_from_seed(7)
    deck = " ".join(c.text for c in build_deck(Rules.preset("classic")))
    return {
        "description": "Shuffles: key derivation, the word stream, Fisher-Yates and the commitment "
        "(protocol/SPEC.md, Shuffles). Cards are written in their text forms.",
        "canonical_order": " ".join(c.text for c in ALL_CARDS),
        "seeds": [{"seed": s, "secret": secret_from_seed(s).hex()} for s in (0, 7, 123456789)],
        "cases": [
            case("ten cards, deal of round 1", secret, 1, "deal", 1, "R0 R1 R2 R3 R4 R5 R6 R7 R8 R9"),
            case("the classic deck, deal of round 3", secret, 3, "deal", 1, deck),
            case("the second reshuffle of round 2 (input given unsorted)", secret, 2, "reshuffle", 2,
                 "W G+2 R5 B0 Y7 R5 WH G1"),
            case("a re-flip", bytes(range(32)), 1, "reflip", 1, "W+4 R1 B2 G3 Y4"),
            case("shuffled hands", bytes(range(32)), 4, "hands", 1, "R1 R1 B2 W W+4 GS YR B+2 WC"),
            case("the draw for the first dealer (round 0)", secret, 0, "dealer", 1, deck),
        ],
        "fisher_yates": [
            {
                "name": "rejection: for m = 5 the limit is 4294967295, so 4294967295 is refused",
                "words": [4294967295, 7, 4294967294, 0, 3],
                "input": "R0 R1 R2 R3 R4",
                "output": " ".join(c.text for c in fisher_yates(parse_cards("R0 R1 R2 R3 R4"),
                                                                iter([4294967295, 7, 4294967294, 0, 3]))),
            }
        ],
    }


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
