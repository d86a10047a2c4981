"""One line for every way a command or an action of the app can fail outside its input: what
happened, what to do.

:func:`explain` reads the exception and its causes (SQLAlchemy wraps the driver's error, the
storage layer wraps both in :class:`~ndcg_studio.storage.database.DatabaseError`) and
recognises SQLite's and the operating system's own conditions (a locked, read-only or damaged
database, a read-only folder, a full disk) and the team server's refusal of a login's change
anywhere in the chain (a clean-up after the refused statement may raise a second error, e.g.
"current transaction is aborted", that hides the first). The CLI prints the line; the app
shows it (:func:`known`: None when the condition is not one of these, so the app can say
"unexpected" only for what is).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

__all__ = ["explain", "known"]

_DAMAGED = ("database disk image is malformed", "file is not a database", "malformed")
_FULL = ("database or disk is full", "disk is full", "no space left")


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _text(chain: list[BaseException]) -> str:
    return " | ".join(str(e) for e in chain).lower()


def _sqlite_file(label: str | None) -> Path | None:
    if not label or "://" in label or label == ":memory:":
        return None
    return Path(label)


def _read_only_file_system(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs on Windows
        return False


def _read_only(label: str | None) -> str:
    path = _sqlite_file(label)
    if path is not None and path.exists() and _read_only_file_system(path):
        return (
            f"the database {path} is on a read-only file system; copy it to a writable "
            "folder and use the copy"
        )
    if path is not None and path.exists() and not os.access(path, os.W_OK):
        return (
            f"the database file {path} is read-only; make it writable (chmod u+w) or work on a copy"
        )
    if path is not None and not os.access(path.parent, os.W_OK):
        return (
            f"the folder {path.parent} is read-only, and SQLite needs to create "
            f"{path.name}-wal and {path.name}-shm beside the database (WAL journal); "
            "make the folder writable or move the database to a writable folder"
        )
    where = f" {label}" if label else ""
    return f"the database{where} is read-only; open a writable copy"


def explain(exc: BaseException, db_label: str | None = None) -> str:
    """The one-line message for ``exc`` raised by a command on the database ``db_label``.

    Args:
        exc: the exception the command raised (not an InputError: those carry their own
            ``FILE:LINE: field: message``).
        db_label: the database as shown to the user (an SQLite path or a password-free URL),
            or None when the command failed before opening it.

    Returns:
        A sentence naming what happened and what to do.
    """
    line = known(exc, db_label)
    if line is not None:
        return line
    from ndcg_studio.storage.database import DatabaseError

    if isinstance(exc, DatabaseError | ValueError | LookupError):
        return str(exc)
    return (
        f"unexpected {type(exc).__name__}: {_first_line(_chain(exc))} "
        "(please report this, with the command you ran)"
    )


def known(exc: BaseException, db_label: str | None = None) -> str | None:
    """The one line for ``exc`` when it is a condition of the database, the disk or the login
    (see the module docstring), else None."""
    from ndcg_studio.storage.database import DatabaseError
    from ndcg_studio.storage.resilience import WriteRefused, refusal_of

    chain = _chain(exc)
    if isinstance(exc, WriteRefused):
        return str(exc)
    if not isinstance(exc, DatabaseError | ValueError | LookupError):  # those have their words
        for link in chain:
            refusal = refusal_of(link, db_label)
            if refusal is not None:
                return str(refusal)
    text = _text(chain)
    label = db_label or "the database"
    os_error = next((e for e in chain if isinstance(e, OSError)), None)
    if any(s in text for s in _FULL) or (
        os_error is not None and os_error.errno in (errno.ENOSPC, errno.EDQUOT)
    ):
        target = f" ({os_error.filename})" if os_error is not None and os_error.filename else ""
        return (
            f"the disk is full{target}; nothing was written (an existing file is unchanged): "
            "free some space and run the command again"
        )
    if "database is locked" in text or "database table is locked" in text:
        return (
            f"{label} is locked by another program writing to it (waited for it to finish); "
            "close that program or wait, then run the command again"
        )
    if "readonly database" in text:  # SQLite: "attempt to write a readonly database"
        return _read_only(db_label)
    if any(s in text for s in _DAMAGED):
        return (
            f"{label} is damaged ({_first_line(chain)}); nothing was written. Restore it from "
            f"a backup, or recover what is readable with `sqlite3 {label} .recover | sqlite3 "
            "NEW.sqlite`"
        )
    if "unable to open database file" in text:
        path = _sqlite_file(db_label)
        if path is not None and not os.access(path.parent, os.W_OK | os.X_OK):
            return _read_only(db_label)
        return f"cannot open {label}: check that its folder exists and is readable"
    if os_error is not None:
        name = f" {os_error.filename}" if os_error.filename else ""
        reason = os_error.strerror or str(os_error)
        if os_error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return f"cannot write{name}: {reason}; choose a writable place"
        return f"cannot read or write{name}: {reason}"
    return None


def _first_line(chain: list[BaseException]) -> str:
    """The innermost error's first line (the driver's own words, without SQL)."""
    text = str(chain[-1]).strip().splitlines()
    return text[0] if text else type(chain[-1]).__name__
