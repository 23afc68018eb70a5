"""The randomness seam: the specified generator (against the language-neutral vectors),
Fisher-Yates with rejection sampling, uniformity, and every random outcome going through it."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import unotui.engine.shuffle as seam
from unotui.engine import ALL_CARDS, Card, Game, Rules, parse_cards
from unotui.engine.shuffle import (
    Label,
    ShuffleSource,
    commitment,
    fisher_yates,
    round_key,
    secret_from_seed,
    shuffled,
    stream_seed,
    words,
)

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "shuffles" / "shuffle.json"
DATA: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))


def test_canonical_order_is_the_cards_codes() -> None:
    assert DATA["canonical_order"].split() == [c.text for c in ALL_CARDS]
    assert sorted(ALL_CARDS, key=lambda c: c.text) != list(ALL_CARDS)  # not alphabetical


@pytest.mark.parametrize("entry", DATA["seeds"], ids=lambda e: str(e["seed"]))
def test_seed_vectors(entry: dict[str, Any]) -> None:
    assert secret_from_seed(entry["seed"]).hex() == entry["secret"]


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["name"])
def test_shuffle_vectors(case: dict[str, Any]) -> None:
    secret = bytes.fromhex(case["secret"])
    key = round_key(secret, case["round"])
    assert key.hex() == case["round_key"]
    assert stream_seed(key, case["label"], case["ordinal"]).hex() == case["stream_seed"]
    assert list(itertools.islice(words(key, case["label"], case["ordinal"]), 8)) == case["first_words"]
    out = shuffled(key, case["label"], case["ordinal"], parse_cards(case["input"]))
    assert " ".join(c.text for c in out) == case["output"]
    assert commitment(key, out) == case["commitment"]
    # the same through a match's source
    source = ShuffleSource(secret)
    assert source.shuffled(case["round"], case["label"], case["ordinal"], parse_cards(case["input"])) == out


@pytest.mark.parametrize("case", DATA["fisher_yates"], ids=lambda c: c["name"])
def test_fisher_yates_vectors(case: dict[str, Any]) -> None:
    out = fisher_yates(parse_cards(case["input"]), iter(case["words"]))
    assert " ".join(c.text for c in out) == case["output"]


def test_the_fast_path_is_the_specified_algorithm(monkeypatch: pytest.MonkeyPatch) -> None:
    """``shuffled`` computes the words in one go; with rejections made frequent (a lower
    limit for every m) it must still agree with fisher_yates over the word stream."""
    deck = list(ALL_CARDS) * 2
    key = round_key(b"\x01" * 32, 1)
    for ordinal in range(1, 30):
        assert shuffled(key, "deal", ordinal, deck) == fisher_yates(sorted(deck), words(key, "deal", ordinal))
    low = [0] + [(1 << 31) - (1 << 31) % m for m in range(1, 1024)]  # half the words rejected
    monkeypatch.setattr(seam, "_LIMITS", low)
    for ordinal in range(1, 30):
        assert shuffled(key, "deal", ordinal, deck) == fisher_yates(sorted(deck), words(key, "deal", ordinal))


def test_the_word_stream_does_not_depend_on_how_much_is_computed_at_once() -> None:
    key = round_key(b"\x02" * 32, 5)
    a = list(itertools.islice(words(key, "reshuffle", 3, 1), 300))
    b = list(itertools.islice(words(key, "reshuffle", 3, 500), 300))
    assert a == b


def test_shuffle_input_order_does_not_matter() -> None:
    """The input is sorted first: the key alone decides the output (and the input is public)."""
    key = round_key(b"\x03" * 32, 2)
    cards = parse_cards("W G+2 R5 B0 Y7 R5 WH G1")
    assert shuffled(key, "reshuffle", 1, cards) == shuffled(key, "reshuffle", 1, reversed(cards))


def test_chi_square_uniformity_of_positions() -> None:
    """20,000 shuffles of 10 items: counts of item-at-position against uniform.

    81 degrees of freedom: chi-square above 157 has p < 1e-6.  Seeded, so deterministic.
    """
    n, runs = 10, 20_000
    key = round_key(secret_from_seed(2024), 1)
    items = list(ALL_CARDS[:n])
    counts = [[0] * n for _ in range(n)]
    for ordinal in range(runs):
        for pos, card in enumerate(shuffled(key, "deal", ordinal, items)):
            counts[card.code][pos] += 1
    expected = runs / n
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert chi2 < 157, chi2  # p = 1e-6 (Wilson-Hilferty)
    # and no pair of neighbours is favoured (first two positions jointly: 89 d.o.f.)
    pairs = [[0] * n for _ in range(n)]
    for ordinal in range(runs):
        out = shuffled(key, "hands", ordinal, items)
        pairs[out[0].code][out[1].code] += 1
    exp2 = runs / (n * (n - 1))
    chi2_pairs = sum((pairs[a][b] - exp2) ** 2 / exp2 for a in range(n) for b in range(n) if a != b)
    assert chi2_pairs < 168, chi2_pairs  # p = 1e-6


def test_match_secrets() -> None:
    fresh = ShuffleSource()
    assert fresh.from_secrets and fresh.seed is None and len(fresh.secret) == 32
    assert fresh.secret != ShuffleSource().secret
    seeded = ShuffleSource(seed=7)
    assert not seeded.from_secrets and seeded.secret == secret_from_seed(7)
    assert fresh.secret.hex() not in repr(fresh)
    with pytest.raises(ValueError):
        ShuffleSource(b"short")
    with pytest.raises(ValueError):
        ShuffleSource(b"\x00" * 32, seed=1)


def test_a_game_is_a_function_of_its_secret() -> None:
    rules = Rules.preset("giant")
    a = Game(4, rules, secret=b"\x05" * 32)
    random.seed(1)  # the random module's state plays no part
    b = Game(4, rules, secret=b"\x05" * 32)
    assert a.hands == b.hands and a.draw_pile == b.draw_pile and a.dealer == b.dealer
    assert Game(4, rules, seed=3).hands == Game(4, rules, seed=3).hands
    assert Game(4, rules, seed=3).hands != Game(4, rules, seed=4).hands


def test_every_random_outcome_goes_through_the_seam(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw for the dealer, the deal, a re-flip, reshuffles and shuffled hands all
    come from ShuffleSource.shuffled, numbered within their round."""
    seen: list[tuple[int, str, int]] = []
    real = ShuffleSource.shuffled

    def spy(self: ShuffleSource, round_no: int, label: str, ordinal: int, cards: Any) -> list[Card]:
        seen.append((round_no, str(label), ordinal))
        return real(self, round_no, label, ordinal, cards)

    monkeypatch.setattr(ShuffleSource, "shuffled", spy)
    monkeypatch.setattr(random, "shuffle", lambda *_a: pytest.fail("random.shuffle used"))
    rules = Rules.preset("classic").with_(shuffle_hands=4, target_score=100_000)
    Game(3, rules.with_(hand_size=3), seed=1, dealer=0, deck=parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 W+4"))
    assert (1, "deal", 1) in seen and (1, "reflip", 1) in seen
    game = Game(3, rules, seed=2)
    assert (0, "dealer", 1) in seen
    pick = random.Random(3)
    while not {"reshuffle", "hands"} <= {label for _, label, _ in seen}:
        moves = [(s, a) for s in range(3) for a in game.legal_actions(s)]
        game.apply(*moves[pick.randrange(len(moves))])
    numbered = [(r, label, k) for r, label, k in seen if label == "reshuffle"]
    assert [k for r, _, k in numbered if r == numbered[0][0]][:2] in ([1], [1, 2])
    assert {label for _, label, _ in seen} == {x.value for x in Label}
