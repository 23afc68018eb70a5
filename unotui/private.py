"""Private directories and files: 0700 and 0600 whatever the umask.

The data directory of ``unotui serve`` (and of ``unotui host --headless --data-dir``)
holds everything a local user must not read: each match's secret (every hand and the
draw pile follow from it), every seat's resume token (a copied token takes the seat),
SSH fingerprints, the host key.  Every writer goes through these helpers, so no file is
ever created with the process's umask (0644 under the usual 022) and an existing
directory or file left readable by an older unotui is tightened when it is opened.

SQLite makes its ``-wal`` and ``-shm`` files with the main file's mode, so a database is
made 0600 *before* SQLite opens it (:func:`private_database`); companions left by an
older run are tightened too.

Only the standard library: the lobby's store, the journal and the SSH shell all use it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

__all__ = ["DIR_MODE", "FILE_MODE", "DataDirError", "private_database", "private_dir", "private_file",
           "write_private"]

DIR_MODE = 0o700
FILE_MODE = 0o600
#: the files SQLite keeps beside a database (WAL mode, or a rollback journal)
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


class DataDirError(Exception):
    """A data directory or file that cannot be used or made private (one sentence)."""


def private_dir(path: Path) -> Path:
    """``path`` as a directory of mode 0700 (made, with its parents, if missing).

    A shared directory (sticky bit, like ``/tmp``) is refused rather than closed to the
    others who use it.

    Raises:
        DataDirError: ``path`` is a file, a shared directory, or cannot be made or changed.
    """
    try:
        if path.exists() and not path.is_dir():
            raise DataDirError(f"{path} is not a directory")
        path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        mode = path.stat().st_mode
        if mode & stat.S_ISVTX:
            raise DataDirError(f"{path} is a shared directory (like /tmp): give a directory of its own")
        if stat.S_IMODE(mode) != DIR_MODE:
            os.chmod(path, DIR_MODE)
    except OSError as exc:
        raise DataDirError(f"{path}: {exc.strerror or exc}") from exc
    return path


def private_file(path: Path) -> Path:
    """``path`` as a regular file of mode 0600, made empty if missing (before a logger or
    SQLite opens it, so that it is never created with the umask).

    Raises:
        DataDirError: ``path`` is a directory or cannot be made or changed.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        try:
            if stat.S_IMODE(os.fstat(fd).st_mode) != FILE_MODE:
                os.fchmod(fd, FILE_MODE)
        finally:
            os.close(fd)
    except OSError as exc:
        raise DataDirError(f"{path}: {exc.strerror or exc}") from exc
    return path


def private_database(path: Path | str) -> None:
    """Make an SQLite file private before it is opened: the file itself and any ``-wal``,
    ``-shm`` or ``-journal`` an earlier run left (SQLite reuses those as they are).
    ``":memory:"`` is left alone."""
    if str(path) == ":memory:":
        return
    path = Path(path)
    private_file(path)
    for suffix in SQLITE_COMPANIONS:
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            private_file(companion)


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (mode 0600) atomically: a temporary file, flushed to
    disk, then renamed over ``path``, so that a crash leaves the old file or the new one.

    Raises:
        OSError: the file cannot be written.
    """
    temp = path.with_name(path.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), FILE_MODE)  # a .tmp an older run left with other bits
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
