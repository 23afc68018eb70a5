"""The match summary's ``r``: review the match just played.

Written on ``controller.record`` alone (``None`` until the match is over and its
transcript is known to this seat; then ``.transcript`` and ``.seat``), so a solo match
(:class:`~unotui.net.local.LocalGame`) and a networked one whose host handed its record
over work alike; before that, the sentence says why not (:func:`no_record`, the same as
``s`` says: :func:`saved_game`).  The review's cache
goes beside the saved file when the match was saved (``s``), else under the matches
directory (0600 in a 0700 directory: a review holds every hand).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..transcript import Transcript

__all__ = ["no_record", "review_match", "saved_game", "unsaved_cache"]

#: where the app writes nothing on this machine (an SSH session: the game runs on the server)
NOT_HERE = "{} is off here: this game runs on the server, not on your machine."


def no_record(controller: Any) -> str:
    """Why ``controller`` (its match over) has no record of it yet: on its way, refused
    (the host's did not match what this seat saw), or a host that sends none."""
    from ..transcript.save import HOST_SENDS_NO_RECORD, RECORD_ON_ITS_WAY

    refused: str = getattr(controller, "record_refused", "")
    if refused:
        return refused
    welcome = getattr(controller, "welcome", None)
    if welcome is not None and welcome.version < 2:
        return HOST_SENDS_NO_RECORD
    return RECORD_ON_ITS_WAY


def saved_game(app: Any) -> tuple[Transcript | None, str]:
    """The transcript the match summary's ``s`` saves, or ``None`` and why it cannot yet.

    A solo game's is its own (:class:`~unotui.net.local.LocalGame`); a seat at a LAN or
    lobby table has the host's record once it arrived and matched what the seat saw
    (``controller.record``), and until then :func:`no_record` says why.  An app that
    writes nothing on this machine (an SSH session: ``save_settings`` off) saves nothing.
    """
    if not getattr(app, "save_settings", True):
        return None, NOT_HERE.format("Saving")
    controller = getattr(app, "controller", None)
    record = getattr(controller, "record", None)
    if record is not None:
        return record.transcript, ""
    return None, no_record(controller)


def unsaved_cache(directory: Path, text: str) -> Path:
    """Where the review of an unsaved match (its transcript ``text``) is cached."""
    from ..private import private_dir

    private_dir(directory)
    return directory / f"unsaved-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}.review.json"


def review_match(app: Any, matches: Path, saved: Path | None) -> str:
    """Open the review of ``app.controller``'s finished match; returns ``""``, or the
    sentence saying why it cannot (no record yet, the directory cannot be made).

    The job is the app's home's ``review_job()`` when it has one (the SSH lobby's
    :class:`~unotui.ui.lobby_home.LobbyHome`: a slot the lobby grants bounds the server's
    review CPU); else, where the app writes nothing on this machine
    (``save_settings`` off: an SSH session), none; else :func:`local_job` here.

    ``saved``: the file ``s`` wrote, if it did (the cache goes beside it, as
    ``unotui review FILE`` would find it).
    """
    from ..private import DataDirError
    from ..review.run import cache_path
    from .review_job import local_job
    from .review_launch import open_review

    controller = getattr(app, "controller", None)
    record = getattr(controller, "record", None)
    if record is None:
        return no_record(controller)
    text = json.dumps(record.transcript.to_mapping())
    make_job = getattr(getattr(app, "home", None), "review_job", None)
    if callable(make_job):  # (an SSH session's lobby: its job asks the lobby for a slot first)
        open_review(app, record.transcript, record.seat, make_job(), text)
        return ""
    if not getattr(app, "save_settings", True):
        return NOT_HERE.format("Reviewing")
    try:
        if saved is not None:
            text, cache = saved.read_text(encoding="utf-8"), cache_path(saved)
        else:
            cache = unsaved_cache(matches, text)
    except (DataDirError, OSError) as exc:
        return f"Could not review the match: {getattr(exc, 'strerror', None) or exc}"
    open_review(app, record.transcript, record.seat, local_job(cache, nice=5), text)  # (the app stays brisk)
    return ""
