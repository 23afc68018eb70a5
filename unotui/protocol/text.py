"""Cleaning text that came from another person before it reaches anyone's terminal.

Names and chat lines travel from one player's keyboard to every other player's screen.
A terminal obeys escape sequences, and Textual passes ESC through; bidi overrides and
zero-width characters let a name pretend to be another.  So text from a peer is cleaned
*when it arrives*, by the host, and again by each client before rendering (the host may
be hostile too).  Both use these functions, so they agree on what "clean" means.

Cleaning is: Unicode NFC normalization; whitespace (tab, newline, the line and paragraph
separators ``Zl``/``Zp``) becomes a plain space; every other character in the categories
``Cc`` (controls, ESC included), ``Cf`` (format: bidi overrides, zero-width joiners),
``Co`` (private use), ``Cs`` (lone surrogates) and ``Cn`` (unassigned: a terminal may
draw a code point of a newer Unicode as anything) is removed.  Runs of spaces collapse to
one and the ends are trimmed.  The screens clean every line they show with the same
function (:func:`clean` with ``collapse=False`` for their own sentences, whose spacing is
deliberate), so there is one definition of what may reach a terminal.
"""

from __future__ import annotations

import unicodedata

from .errors import RemoteProtocolError

__all__ = [
    "CHAT_MAX",
    "CHAT_RECENT",
    "NAME_MAX_CELLS",
    "cells",
    "clean",
    "clean_chat",
    "clean_name",
    "name_key",
]

#: the widest a player name may be, in terminal cells
NAME_MAX_CELLS = 16
#: the longest chat line, in characters (after cleaning)
CHAT_MAX = 280
#: the recent chat lines a table or lobby keeps and sends to whoever comes in (SPEC.md)
CHAT_RECENT = 20

_DROP = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp", "Cn"})


def clean(text: str, limit: int | None = None, *, collapse: bool = True) -> str:
    """``text`` normalized (NFC), without dangerous characters, at most ``limit`` long.

    Args:
        text: anything to be shown on a terminal (``str()`` of it).
        limit: the most characters kept (after cleaning); ``None``: no limit.
        collapse: runs of spaces become one and the ends are trimmed (the wire's rule for
            peer text); ``False`` keeps each whitespace character as one space, for a
            screen's own lines whose spacing is deliberate (``"...  (Ctrl+Q: quit)"``).
    """
    nfc = unicodedata.normalize("NFC", str(text))
    # Whitespace (tab, newline, line separators) becomes a space, so words stay apart.
    kept = "".join(" " if ch.isspace() else ch for ch in nfc
                   if ch.isspace() or unicodedata.category(ch) not in _DROP)
    out = " ".join(kept.split()) if collapse else kept
    return out if limit is None else out[:limit]


def cells(text: str) -> int:
    """Terminal cells ``text`` takes: East Asian wide and fullwidth characters take two,
    combining marks none, everything else one (an upper bound for most emoji)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def clean_name(text: str, fallback: str | None = None) -> str:
    """A player name, cleaned; 1 to :data:`NAME_MAX_CELLS` cells.

    One function for every name, so a name typed here is the name the host will show.
    Two callers want different answers for a bad name, hence ``fallback``:

    * ``None`` (a name that came from a peer, the host's check): a bad name is refused.
    * a name (one's own name, from a command line, a settings file, an SSH login): a name
      too wide is cut to fit and an empty one becomes ``fallback``, since the person
      still wants to play and nobody else is misled.

    Raises:
        RemoteProtocolError: ``bad_name`` when nothing is left or it is too wide, and
            ``fallback`` is ``None``.
    """
    name = clean(text)
    if fallback is not None:
        width = 0
        for end, ch in enumerate(name):
            width += cells(ch)
            if width > NAME_MAX_CELLS:
                name = name[:end]
                break
        return name.rstrip() or fallback
    if not name:
        raise RemoteProtocolError("bad_name", "the name is empty once control characters are removed")
    if cells(name) > NAME_MAX_CELLS:
        raise RemoteProtocolError("bad_name", f"the name is wider than {NAME_MAX_CELLS} cells")
    return name


# Cyrillic and Greek letters that look like a Latin one (in the form ``casefold`` leaves:
# lower case), folded onto it by :func:`name_key`.  Where a capital and its small letter
# look like different Latin letters (Cyrillic Н/н, Greek Η/η), the capital wins: names
# start with one.  A small table of the common look-alikes, not all of Unicode's
# confusables: the aim is that "Аnn" (Cyrillic А) cannot sit beside "Ann".
_LOOK_ALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t",
    "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ζ": "z",
})


def name_key(name: str) -> str:
    """The form in which two names are "the same" (for unique names at a table and in a
    lobby): cleaned, compatibility-folded (NFKC: fullwidth and styled letters are the
    plain ones), case-folded, and Cyrillic or Greek look-alikes of Latin letters folded
    onto them.  Only a key: the name people see is the one they chose."""
    return unicodedata.normalize("NFKC", clean(name)).casefold().translate(_LOOK_ALIKES)


def clean_chat(text: str) -> str:
    """A chat line, cleaned and cut to :data:`CHAT_MAX` characters ('' if nothing is left)."""
    return clean(text)[:CHAT_MAX]
