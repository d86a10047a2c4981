"""``ndcg-studio changes RUN_A RUN_B``: what changed from run A to run B (two snapshots of a
fetched run, or any two runs), per query and overall: overlap@K, Jaccard, rank-biased overlap,
the documents that entered and left the top K, and ΔnDCG@K; with ``--campaign NAME
--annotators …`` the documents that entered unjudged become a judging campaign.

Registered by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMAND`) and
:data:`ndcg_studio.cli.handlers.HANDLERS` (:func:`changes_command`); the use case is
:mod:`ndcg_studio.services.changes.service`.
"""

from __future__ import annotations

import argparse
import sys

from ndcg_studio.cli.common import (
    RUNS_SEPARATOR,
    UsageError,
    check_output,
    checked_number,
    open_db,
    positive_int,
)
from ndcg_studio.cli.options import Command, add_output, add_scoring

__all__ = ["COMMAND", "changes_command"]


def _persistence(text: str) -> float:
    return checked_number(text, float, lambda v: 0.0 < v < 1.0, "be above 0 and below 1")


def _changes_options(p: argparse.ArgumentParser) -> None:
    """The options of ``changes`` after ``--db``."""
    p.add_argument("run_a", metavar="RUN_A", help="the earlier run (e.g. NAME@TIME)")
    p.add_argument("run_b", metavar="RUN_B", help="the later run")
    p.add_argument(
        "--p", type=_persistence, default=0.9, help="RBO persistence in (0, 1) (default 0.9)"
    )
    add_scoring(p, runs=False)
    add_output(p)
    c = p.add_argument_group("a campaign of what entered unjudged")
    c.add_argument("--campaign", metavar="NAME", help="make the campaign NAME")
    c.add_argument("--annotators", nargs="+", metavar="NAME", help="its annotators")
    c.add_argument("--overlap", type=positive_int, default=1, help="grades per item (default 1)")


#: ``changes``: its name, help line, description and options (after ``--db``)
COMMAND: Command = (
    "changes",
    "what changed from run A to run B: overlap@K, RBO, entered/left, ΔnDCG per query",
    "One row per query with results in A or B, then an overall row 'all': "
    "overlap (|A∩B|/K of the two top K), jaccard (|A∩B|/|A∪B|), rbo (rank-biased overlap, "
    "extrapolated: Webber, Moffat & Zobel 2010, eq. 32, persistence --p), entered and left "
    "(documents in B's top K and not A's, and the reverse), entered_unjudged, ndcg_a, "
    "ndcg_b and delta_ndcg (B - A, with the scoring options). With --campaign NAME "
    "--annotators ... the documents that entered unjudged become the campaign NAME, pooled "
    "from B at depth K.",
    _changes_options,
)


def changes_command(args: argparse.Namespace) -> int:
    from ndcg_studio.cli.commands import scoring_settings, write_rows
    from ndcg_studio.services.changes.service import CHANGE_COLUMNS, ChangesService
    from ndcg_studio.services.exporting.tables import About

    if (args.campaign is None) != (args.annotators is None):
        raise UsageError("--campaign and --annotators go together")
    check_output(args)
    settings = scoring_settings(args)
    db = open_db(args)
    try:
        service = ChangesService(db)
        try:
            changes = service.changes(args.run_a, args.run_b, settings, args.p)
        except (LookupError, ValueError) as exc:
            raise UsageError(str(exc)) from exc
        about = About("changes", f"{settings.describe()} p={args.p:g}")
        about.notes.append(f"from {args.run_a!r} (A) to {args.run_b!r} (B)")
        write_rows(args, CHANGE_COLUMNS, changes.rows(), about)
        if args.campaign is not None:
            annotators = [n for word in args.annotators for n in word.split(RUNS_SEPARATOR)]
            try:
                info = service.campaign_of_unjudged(
                    changes, args.campaign, annotators, args.overlap
                )
            except (LookupError, ValueError) as exc:
                raise UsageError(f"{exc}; no campaign was made") from exc
            print(
                f"campaign {info.name!r}: {info.items} unjudged documents that entered the top "
                f"{changes.k} of {args.run_b!r}, {info.overlap} grade(s) each, "
                f"{len(info.annotators)} annotator(s)",
                file=sys.stderr,
            )
    finally:
        db.dispose()
    return 0
