"""Seat bookkeeping of a hosted table: order, unique names, tokens that rotate."""

from __future__ import annotations

import pytest

from unotui.net.addresses import join_hints, local_addresses, split_address
from unotui.net.seats import SeatBook


def test_seats_fill_in_join_order_and_names_are_unique_casefolded() -> None:
    book = SeatBook(3)
    assert book.take("Ada") is not None
    second = book.take("ADA")
    assert second is not None
    assert book.names[:2] == ["Ada", "ADA 2"]
    assert book.take("Bob") is not None
    assert book.take("Cy") is None  # full


def test_a_long_name_keeps_its_suffix_within_16_cells() -> None:
    book = SeatBook(2)
    book.take("A" * 16)
    book.take("a" * 16)
    assert book.names[1] == "a" * 14 + " 2"


def test_token_finds_its_seat_and_rotation_retires_the_old_token() -> None:
    book = SeatBook(2)
    taken = book.take("Ada")
    assert taken is not None
    seat, token = taken
    assert book.find_token(token) == seat
    new = book.rotate(seat)
    assert new != token and len(new) >= 40
    assert book.find_token(token) is None
    assert book.find_token(new) == seat
    assert book.find_token("") is None
    assert book.find_token("x" * 43) is None


def test_bots_fill_only_open_seats_with_unique_names() -> None:
    book = SeatBook(4)
    book.take("Ada")
    filled = book.fill_with_bots(["Ada", "Blaise"], "easy")
    assert filled == [1, 2, 3]
    assert len({n.casefold() for n in book.names}) == 4
    assert book.humans() == [0] and book.bots() == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.0.0.5", ("10.0.0.5", 7777)),
        ("10.0.0.5:7000", ("10.0.0.5", 7000)),
        ("[::1]", ("::1", 7777)),
        ("[::1]:7001", ("::1", 7001)),
        ("fd00::2", ("fd00::2", 7777)),
        ("myhost", ("myhost", 7777)),
    ],
)
def test_split_address(text: str, expected: tuple[str, int]) -> None:
    assert split_address(text) == expected


@pytest.mark.parametrize("text", ["", "host:0", "host:99999", "host:7x", "[::1", "[::1]x", "host:٣"])
def test_split_address_refuses_with_a_sentence(text: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        split_address(text)


def test_join_hints_come_from_local_interfaces_without_traffic() -> None:
    addresses = local_addresses()
    assert "127.0.0.1" in addresses
    hints = join_hints("0.0.0.0", 7777)
    assert all(h.startswith("unotui join ") and ":" not in h.removeprefix("unotui join ") for h in hints)
    assert join_hints("127.0.0.1", 7001) == ["unotui join 127.0.0.1:7001"]
    assert join_hints("::1", 7777) == ["unotui join [::1]"]
