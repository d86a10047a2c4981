"""Snapshots of a fetched run: fetching again under a run name that holds an earlier fetch keeps
the earlier run, renamed ``NAME@TIME`` by the time its description records (``at``, UTC, as
``2026-12-02T01:40:00Z``), and the new fetch takes ``NAME``. A run imported from a file is not
a snapshot and is never renamed; ``--replace`` replaces without keeping.

The names are the whole convention (no table of its own): the snapshots of ``NAME`` are the run
``NAME`` and the runs ``NAME@…`` whose description is a fetch's JSON object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ndcg_studio.storage.bulk.imports import import_transaction, rename_run
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.names import run_descriptions

__all__ = [
    "SNAPSHOT_MARK",
    "Snapshot",
    "fetch_times",
    "fetched_at",
    "is_fetched",
    "keep_snapshot",
    "snapshots",
]

#: Between a run's name and its fetch time in a snapshot's name.
SNAPSHOT_MARK = "@"


@dataclass(frozen=True)
class Snapshot:
    """One fetch of a run: the run's ``name``, the fetch time ``at`` (ISO 8601 UTC, ``Z``),
    the endpoint's ``url`` (without credentials) and whether it is the ``current`` one."""

    name: str
    at: str
    url: str
    current: bool


def _fetch_record(description: str) -> dict[str, object] | None:
    try:
        record = json.loads(description)
    except ValueError:
        return None
    if isinstance(record, dict) and "fetched" in record and isinstance(record.get("at"), str):
        return record
    return None


def fetched_at(description: str) -> str | None:
    """The fetch time of a run's description as ``YYYY-MM-DDTHH:MM:SSZ``, or None when the
    description is not a fetch's JSON object (the run was imported from a file)."""
    record = _fetch_record(description)
    if record is None:
        return None
    at = str(record["at"])
    return at[: -len("+00:00")] + "Z" if at.endswith("+00:00") else at


def fetch_times(db: Database) -> dict[str, str | None]:
    """``{run name: fetch time}`` of every run, ascending by name; None for a run imported
    from a file."""
    with db.engine.connect() as conn:
        described = run_descriptions(conn)
    return {name: fetched_at(described[name]) for name in sorted(described)}


def snapshots(db: Database, name: str) -> list[Snapshot]:
    """The fetches of the run ``name``, newest first (empty when ``name`` was never fetched)."""
    with db.engine.connect() as conn:
        described = run_descriptions(conn)
    found = []
    for run, description in described.items():
        if run != name and not run.startswith(name + SNAPSHOT_MARK):
            continue
        record = _fetch_record(description)
        at = fetched_at(description)
        if record is None or at is None:
            continue
        found.append(Snapshot(run, at, str(record.get("url", "")), run == name))
    return sorted(found, key=lambda s: (s.at, s.current), reverse=True)


def keep_snapshot(db: Database, name: str, new: str) -> str | None:
    """Make the run ``new`` (just stored) the run ``name``, and the earlier run ``name``, when it
    was fetched, its snapshot ``name@TIME`` (``-2``, ``-3``… added when two fetches share a
    second), in one transaction. Returns the snapshot's name, or None when there was no
    earlier fetch (the run ``new`` is then only renamed).

    Raises:
        LookupError: no run ``new``.
    """
    with import_transaction(db.engine) as conn:
        described = run_descriptions(conn)
        at = fetched_at(described.get(name, ""))
        kept = None
        if at is not None:
            kept = base = f"{name}{SNAPSHOT_MARK}{at}"
            n = 1
            while kept in described:
                n += 1
                kept = f"{base}-{n}"
            rename_run(conn, name, kept)
        rename_run(conn, new, name)
    return kept


def is_fetched(db: Database, name: str) -> bool:
    """Whether the run ``name`` exists and holds a fetch (a new fetch keeps it as a snapshot)."""
    with db.engine.connect() as conn:
        return fetched_at(run_descriptions(conn).get(name, "")) is not None
