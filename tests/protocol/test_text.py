"""Cleaning peer text: what may reach a terminal, and how wide a name may be."""

from __future__ import annotations

import enum

import pytest

from unotui.engine import Colour
from unotui.protocol import RemoteProtocolError, clean, clean_chat, clean_name, name_key
from unotui.protocol import values as values_module
from unotui.protocol.sync import FIELD_CODECS
from unotui.protocol.text import CHAT_MAX, cells


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("Ann", "Ann"),
        ("\x1b]0;owned\x07Ann", "]0;ownedAnn"),  # OSC title change: ESC and BEL gone
        ("\x1b[2J\x1b[31mred", "[2J[31mred"),
        ("a\u202eb\u200bc\u2066d", "abcd"),  # bidi override, zero-width space, isolate
        ("line\u2028sep\u2029para", "line sep para"),
        ("\ue000priv", "priv"),
        ("  lots   of\tspace\n ", "lots of space"),
        ("e\u0301", "\u00e9"),  # NFC
        ("[@click=app.quit]", "[@click=app.quit]"),  # markup is harmless as plain text
    ],
)
def test_clean_removes_what_a_terminal_would_obey(raw: str, want: str) -> None:
    assert clean(raw) == want
    assert clean(clean(raw)) == clean(raw)


def test_one_clean_for_the_wire_and_the_screens() -> None:
    """The screens clean with the same function: a limit, and their own lines' spacing kept."""
    assert clean("a\u0378b") == "ab"  # unassigned: a newer terminal could draw anything
    assert clean("  lots   of\tspace ", 9) == "lots of s"
    assert clean("Host left.  (Ctrl+Q: quit)\x1b", collapse=False) == "Host left.  (Ctrl+Q: quit)"
    assert clean(" a\nb\u2028c ", 4, collapse=False) == " a b"


def test_names_are_one_to_sixteen_cells() -> None:
    assert clean_name(" Ann ") == "Ann"
    assert clean_name("W" * 16) == "W" * 16
    assert clean_name("漢字" * 4) == "漢字" * 4  # 16 cells
    for bad in ("", "\x1b\x07", "W" * 17, "漢字" * 4 + "x"):
        with pytest.raises(RemoteProtocolError) as info:
            clean_name(bad)
        assert info.value.code == "bad_name"
    assert cells("e\u0301") == 1 and cells("ＡＢ") == 4


def test_names_compare_without_case() -> None:
    assert name_key("ANN") == name_key("ann") == name_key("An\u200bn")
    assert name_key("Straße") == name_key("STRASSE")


def test_look_alike_names_are_the_same_name() -> None:
    """Cyrillic and Greek letters that look Latin, and fullwidth letters, fold onto the
    Latin ones (issue 16); different-looking names stay different."""
    ann = name_key("Ann")
    assert name_key("\u0410nn") == name_key("\u0391nn") == name_key("\uff21nn") == ann
    assert name_key("\u0412\u043e\u0412") == name_key("BoB")  # Cyrillic Ve, o, Ve
    assert name_key("\u0410\u043d\u044f") != ann  # a Russian name is still its own
    assert name_key("\u00c5nn") != ann and name_key("Anne") != ann


def test_chat_is_cleaned_and_cut() -> None:
    assert clean_chat("hi\x1b[2J") == "hi[2J"
    assert len(clean_chat("x" * 1000)) == CHAT_MAX
    assert clean_chat("\x00\x1b") == ""


def test_phase_codec_is_ready_for_a_phase_enum(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's Phase will become a StrEnum: the wire text stays the same."""

    class Phase(enum.StrEnum):
        PLAY = "play"
        DRAWN = "drawn"

    monkeypatch.setattr(values_module, "Phase", Phase)
    table = values_module._phase_values()
    assert table == {"play": Phase.PLAY, "drawn": Phase.DRAWN}
    monkeypatch.setattr(values_module, "PHASES", table)
    assert values_module.phase_out(Phase.DRAWN) == "drawn"
    assert values_module.phase_in("drawn") is Phase.DRAWN


def test_codecs_for_coming_view_fields_round_trip() -> None:
    out, read = FIELD_CODECS["history"]
    history = ((0, 0, 0), (50, 0, 12))
    assert out(history) == [[0, 0, 0], [50, 0, 12]] and read(out(history)) == history
    out, read = FIELD_CODECS["challenge_colour"]
    assert read(out(Colour.BLUE)) is Colour.BLUE and read(out(None)) is None


def test_ones_own_name_is_cut_to_fit_rather_than_refused() -> None:
    """With a fallback (a name typed here, not a peer's), the same cleaning and the same
    16 cells: too wide is cut (a wide character is not split), empty is the fallback."""
    assert clean_name("漢字" * 10, "You") == "漢字" * 4
    assert clean_name("W" * 15 + "漢", "You") == "W" * 15
    assert clean_name("Ann" + " " * 13 + "Lee", "You") == "Ann Lee"
    assert clean_name("\u202e\u200b", "You") == "You"
