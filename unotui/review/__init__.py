"""Game review: replay a match and judge, decision by decision, what each one cost.

``decisions`` (:mod:`.decisions`) replays a transcript and yields every turn decision with
the deciding seat's view of that moment; ``analyse`` (:mod:`.analysis`) estimates, from
that view alone, each legal option's chance of winning the round; :mod:`.judge` turns
the estimates into marks and per-seat summaries; :mod:`.run` reviews a whole match over
worker processes and caches the result beside the transcript.  No screen, no event
loop: the review screen (issue 20) will sit on top of this.
"""

from .analysis import Analysis, Option, analyse, option_key
from .decisions import Decision, decisions
from .judge import MARKS, Judged, SeatSummary, judge, mark_of, summarise

__all__ = [
    "MARKS",
    "Analysis",
    "Decision",
    "Judged",
    "Option",
    "SeatSummary",
    "analyse",
    "decisions",
    "judge",
    "mark_of",
    "option_key",
    "summarise",
]
