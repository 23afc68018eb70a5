"""Checking the host's shuffles, on the client: what this seat saw, and the verdicts.

The host commits to each round's deck at the deal and reveals the round key when the
round is over (``SeatView.deck_commit`` / ``revealed_key``).  :class:`ShuffleWatch` is fed
every view this seat receives; it remembers the commitment it saw *first* in each round
(a host that swapped it at the end, to fit a key chosen afterwards, is caught here) and,
once the key is revealed, checks the round with :func:`unotui.engine.verify_round`, which
recomputes every shuffle and compares it with the cards this seat saw.  The round
summary shows the verdict (:func:`unotui.ui.words.verdict_text`).
"""

from __future__ import annotations

from ..engine import SeatView, Verdict, verify_round

__all__ = ["ShuffleWatch"]


class ShuffleWatch:
    """The commitments one seat saw and the verdict of each finished round."""

    def __init__(self) -> None:
        self._commits: dict[int, str] = {}
        self._verdicts: dict[int, Verdict] = {}

    def observe(self, view: SeatView) -> Verdict | None:
        """Take in a view; the round's verdict once its key is revealed, else ``None``."""
        r = view.round_no
        if view.deck_commit and r not in self._commits:
            if len(self._commits) > 64:  # a long match: forget the oldest rounds
                for old in sorted(self._commits)[:32]:
                    self._commits.pop(old)
                    self._verdicts.pop(old, None)
            self._commits[r] = view.deck_commit
        if not view.revealed_key:
            return None
        known = self._verdicts.get(r)
        if known is not None:
            return known
        if self._commits.get(r, view.deck_commit) != view.deck_commit:
            verdict = Verdict(False, r, "the deck's commitment changed during the round")
        else:
            verdict = verify_round(view)
        self._verdicts[r] = verdict
        return verdict

    def verdict(self, round_no: int) -> Verdict | None:
        """The verdict of a finished round, if it was checked."""
        return self._verdicts.get(round_no)

