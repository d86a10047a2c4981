"""``ndcg-studio runs``: the database's runs, one a line with the time it was fetched (blank for
a run imported from a file), or with ``--snapshots NAME`` the fetches of one run, newest first.

Registered by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMAND`) and
:data:`ndcg_studio.cli.handlers.HANDLERS` (:func:`runs_command`); the snapshots are
:mod:`ndcg_studio.services.fetching.snapshots`.
"""

from __future__ import annotations

import argparse

from ndcg_studio.cli.common import UsageError, open_db
from ndcg_studio.cli.options import Command

__all__ = ["COMMAND", "runs_command"]


def _runs_options(p: argparse.ArgumentParser) -> None:
    """The options of ``runs`` after ``--db``."""
    p.add_argument("--snapshots", metavar="NAME", help="the snapshots of the run NAME")


#: ``runs``: its name, help line, description and options (after ``--db``)
COMMAND: Command = (
    "runs",
    "list the runs, or the snapshots of one fetched run (--snapshots NAME)",
    "Without options: every run, tab-separated with the time it was fetched "
    "(blank: imported from a file). With --snapshots NAME: the fetches of the run NAME, "
    "newest first, tab-separated: run name, fetch time (UTC), URL, and 'current' for the "
    "run NAME itself; each earlier fetch is the run NAME@TIME.",
    _runs_options,
)


def runs_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.fetching.snapshots import fetch_times, snapshots

    db = open_db(args)
    try:
        if args.snapshots is not None:
            found = snapshots(db, args.snapshots)
            if not found:
                raise UsageError(f"no fetched run named {args.snapshots!r}; `runs` lists them")
            for s in found:
                print("\t".join([s.name, s.at, s.url, "current" if s.current else ""]).rstrip())
            return 0
        for name, at in fetch_times(db).items():
            print(f"{name}\t{at or ''}".rstrip())
    finally:
        db.dispose()
    return 0
