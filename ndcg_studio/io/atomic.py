"""Files written atomically (all of a new content, or the old file untouched), row by row with
Cancel.

The content is written to a temporary file in the destination's directory, flushed and
fsync'ed, then renamed over the destination with :func:`os.replace` (atomic on POSIX and Windows
when both are on one file system). If anything fails or the caller is cancelled, the temporary
file is removed and an existing file at the destination is left untouched. A replaced file keeps
its permission bits; a new one gets the default ``0o666 & ~umask``. The path ``"-"``
(:data:`STDOUT`) writes to standard output instead (not atomic).

Every writer of :mod:`ndcg_studio.io` (CSV, workbooks, TREC files, the settings sidecar) goes
through :func:`atomic_text_writer` or :func:`atomic_path`, and polls Cancel with
:func:`rows_with_cancel` (or every :data:`CANCEL_CHECK_ROWS` rows).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from ndcg_studio.io.reading.text import PathArg
from ndcg_studio.progress import Cancelled, OperationCancelled

#: The path that means standard output.
STDOUT = "-"

#: Rows between two polls of ``cancelled()``.
CANCEL_CHECK_ROWS = 10_000


@contextlib.contextmanager
def atomic_text_writer(path: PathArg, *, bom: bool = False) -> Iterator[TextIO]:
    """Open ``path`` for writing UTF-8 text atomically (see the module docstring).

    Args:
        path: destination file, or ``"-"`` for standard output (not atomic).
        bom: start the file with a UTF-8 byte order mark (U+FEFF).

    Yields:
        A text stream with ``newline=""`` (no newline translation: what you write is what
        ends up in the file).

    Raises:
        OSError: the directory is not writable, the disk is full, ...; the destination is then
            unchanged and the temporary file removed. Any exception from the body (including
            :class:`~ndcg_studio.io.errors.OperationCancelled`) propagates the same way.
    """
    if str(path) == STDOUT:
        if bom:
            sys.stdout.write("\ufeff")
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(path)
    with atomic_path(target) as temporary:
        try:
            descriptor = os.open(
                temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666
            )
        except OSError as exc:  # name the file the user asked for, not our temporary one
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            if bom:
                handle.write("\ufeff")
            yield handle


def _fsync_directory(folder: Path) -> None:
    """Make the rename durable (POSIX); a no-op where directories cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def atomic_path(path: PathArg) -> Iterator[Path]:
    """A temporary path beside ``path`` for a library to write; renamed over ``path`` when the
    body succeeds (a replaced file keeps its permission bits), removed when it fails."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        yield temporary
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        # never mask the failure: the temporary may not exist, or its folder refuse writes
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(target.parent)


def rows_with_cancel(
    rows: Iterable[Sequence[object]], cancelled: Cancelled | None
) -> Iterator[Sequence[object]]:
    """``rows`` unchanged, polling ``cancelled()`` every :data:`CANCEL_CHECK_ROWS` rows.

    Raises:
        OperationCancelled: ``cancelled()`` returned True.
    """
    for index, row in enumerate(rows):
        if cancelled is not None and index % CANCEL_CHECK_ROWS == 0 and cancelled():
            raise OperationCancelled("export cancelled")
        yield row
