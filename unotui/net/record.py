"""A finished match's record as a seat keeps it, and the two updates that say it came.

Apart from :mod:`unotui.net.controller` (which loads asyncio for its hints) so that the
table core, which sends the record (:mod:`unotui.net.handover`), stays free of any event
loop; the controller offers the same names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..transcript import Transcript

__all__ = ["MatchRecord", "RecordArrived", "RecordRefused"]


class MatchRecord(NamedTuple):
    """A finished match as this seat may keep it: its ``transcript`` (what ``s`` saves,
    ``unotui replay`` and ``unotui review`` read) and the ``seat`` to review it from (the
    viewer's; a spectator's is the winner's)."""

    transcript: Transcript
    seat: int


class RecordArrived(NamedTuple):
    """The match's record is known now (a remote seat: the host's, checked against what
    the seat saw): ``Controller.record`` holds it."""

    record: MatchRecord


class RecordRefused(NamedTuple):
    """The host's record of the match was refused: ``reason`` is a sentence for the
    player; ``Controller.record`` stays ``None``."""

    reason: str
