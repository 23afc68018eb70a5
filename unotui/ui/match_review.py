"""The match summary's ``r``: review the match just played.

Written on ``controller.record`` alone (``None`` until the match is over and its
transcript is known to this seat; then ``.transcript`` and ``.seat``), so a solo match
(:class:`~unotui.net.local.LocalGame`) and a networked one whose host handed the
transcript over work alike; before that, the sentence says why not.  The review's cache
goes beside the saved file when the match was saved (``s``), else under the matches
directory (0600 in a 0700 directory: a review holds every hand).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

__all__ = ["NOT_YET", "review_match", "unsaved_cache"]

NOT_YET = ("This match's record has not reached this seat: the host holds the game. "
           "Reviewing a networked match needs the host to hand its transcript over.")


def unsaved_cache(directory: Path, text: str) -> Path:
    """Where the review of an unsaved match (its transcript ``text``) is cached."""
    from ..private import private_dir

    private_dir(directory)
    return directory / f"unsaved-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}.review.json"


def review_match(app: Any, matches: Path, saved: Path | None) -> str:
    """Open the review of ``app.controller``'s finished match; returns ``""``, or the
    sentence saying why it cannot (no record yet, the directory cannot be made).

    The job is ``app.review_job`` when the app has one (the SSH lobby's, which bounds
    the server's review CPU); else, where the app writes nothing on this machine
    (``save_settings`` off: an SSH session), none; else :func:`local_job` here.

    ``saved``: the file ``s`` wrote, if it did (the cache goes beside it, as
    ``unotui review FILE`` would find it).
    """
    from ..private import DataDirError
    from ..review.run import cache_path
    from .review_job import local_job
    from .review_launch import open_review

    record = getattr(getattr(app, "controller", None), "record", None)
    if record is None:
        return NOT_YET
    text = json.dumps(record.transcript.to_mapping())
    job = getattr(app, "review_job", None)
    if job is not None:  # (an SSH session's app: the lobby's job, under its admission control)
        open_review(app, record.transcript, record.seat, job, text)
        return ""
    if not getattr(app, "save_settings", True):
        return "Reviewing is off here: this game runs on the server, not on your machine."
    try:
        if saved is not None:
            text, cache = saved.read_text(encoding="utf-8"), cache_path(saved)
        else:
            cache = unsaved_cache(matches, text)
    except (DataDirError, OSError) as exc:
        return f"Could not review the match: {getattr(exc, 'strerror', None) or exc}"
    open_review(app, record.transcript, record.seat, local_job(cache, nice=5), text)  # (the app stays brisk)
    return ""
