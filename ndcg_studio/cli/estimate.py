"""``ndcg-studio estimate``: every run's mean nDCG@K (and pair differences) from a machine
source's grades and the humans' on a sample of queries, with prediction-powered intervals
(reads, never writes).

Registered by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMAND`) and
:data:`ndcg_studio.cli.handlers.HANDLERS` (:func:`estimate_command`); the use case is
:mod:`ndcg_studio.services.estimation.service`.
"""

from __future__ import annotations

import argparse
import math

from ndcg_studio.cli.common import (
    checked_number,
    input_file,
    nan_to_empty,
    open_db,
    positive_int,
    run_names,
)
from ndcg_studio.cli.options import Command, add_output
from ndcg_studio.vocabulary import CONSENSUS_METHODS

__all__ = ["COMMAND", "estimate_command"]


def _level(text: str) -> float:
    return checked_number(text, float, lambda v: 0 < v < 1, "lie strictly between 0 and 1")


def _estimate_options(p: argparse.ArgumentParser) -> None:
    """The options of ``estimate`` after ``--db``."""
    p.add_argument(
        "--machine-source", required=True, metavar="NAME", help="the machine's source (kind model)"
    )
    humans = p.add_mutually_exclusive_group()
    humans.add_argument("--human-annotator", metavar="A", help="this annotator's grades only")
    humans.add_argument(
        "--human-consensus",
        choices=CONSENSUS_METHODS,
        default="mean",
        help="how several humans' grades of an item combine (default mean)",
    )
    sample = p.add_mutually_exclusive_group(required=True)
    sample.add_argument(
        "--human-queries",
        metavar="FILE",
        help="the query ids the humans judged completely, one a line (a uniform sample)",
    )
    sample.add_argument(
        "--campaign",
        metavar="C",
        help="a campaign of order ppi (campaign create --strategy ppi): the queries it drew, "
        "each weighted by 1 / its inclusion probability (active inference, Zrnic & Candès "
        "2024); refused until every drawn query's pool is judged to the campaign's overlap, "
        "and for a campaign of another order (its judged queries are no random sample)",
    )
    p.add_argument("--k", type=positive_int, required=True, help="cutoff K of nDCG@K")
    p.add_argument(
        "--measure",
        choices=("ndcg", "dcg", "precision", "rr_at_k", "err"),
        default="ndcg",
        help="the per-query measure at K whose mean is estimated (default ndcg)",
    )
    p.add_argument(
        "--ci", type=_level, default=0.95, metavar="LEVEL", help="interval level (default 0.95)"
    )
    p.add_argument("--runs", type=run_names, metavar="RUN", help="runs to estimate (default all)")
    p.add_argument(
        "--pair",
        nargs=2,
        action="append",
        default=[],
        metavar=("A", "B"),
        help="estimate and decide A - B (repeatable)",
    )
    add_output(p, default="csv")


#: ``estimate``: its name, help line, description and options (after ``--db``)
COMMAND: Command = (
    "estimate",
    "estimate each run's mean nDCG@K from machine grades and few human grades "
    "(prediction-powered intervals)",
    "Estimate each run's mean nDCG@K over every query the machine source "
    "graded, corrected by the human grades on a uniform sample of queries (PPI++: "
    "Angelopoulos, Duchi & Zrnic 2023), with its interval, the human-only interval on the "
    "same queries and the machine-only mean (biased) beside it. With --pair A B the "
    'difference A - B too, and the pair is decided ("A better than B") when its interval '
    "excludes 0 (Holm's correction when the pairs involve more than two runs). Below 12 "
    "human-judged queries no interval is given. Columns: run,estimate,low,high,human_only,"
    "human_only_low,human_only_high,machine_only,human_queries,queries,lambda,se,"
    "extra_human_queries,p_adjusted,verdict,note.",
    _estimate_options,
)


def estimate_command(args: argparse.Namespace) -> int:
    from ndcg_studio.cli.commands import write_rows
    from ndcg_studio.io.query_list import read_query_list
    from ndcg_studio.services.estimation.sentence import pair_sentence
    from ndcg_studio.services.estimation.service import (
        ESTIMATE_COLUMNS,
        EstimateRequest,
        estimate,
        report_rows,
    )
    from ndcg_studio.services.exporting.tables import About

    db = open_db(args)
    try:
        listed = None
        if args.campaign is None:
            listed = read_query_list(input_file(args.human_queries, "--human-queries"))
        request = EstimateRequest(
            machine_source=args.machine_source,
            human_queries=listed,
            campaign=args.campaign,
            k=args.k,
            human_annotator=args.human_annotator,
            human_consensus=args.human_consensus,
            confidence=args.ci,
            runs=tuple(args.runs) if args.runs else None,
            pairs=tuple((a, b) for a, b in args.pair),
            measure=args.measure,
        )
        report = estimate(db, request)
    finally:
        db.dispose()
    rows = [[nan_to_empty(v) for v in row] for row in report_rows(report)]
    notes = [
        f"machine source {args.machine_source}: linear-weighted kappa with the humans "
        + ("unknown" if math.isnan(report.kappa_linear) else f"{report.kappa_linear:.3f}"),
        "machine_only is biased by the machine's errors: no interval",
    ]
    if report.holm:
        notes.append("pairs decided with Holm's correction (more than two runs compared)")
    notes += [
        pair_sentence(p.a, p.b, p.verdict, p.estimate, args.machine_source, report.kappa_linear)
        for p in report.pairs
    ]
    human = args.human_annotator or f"consensus {args.human_consensus}"
    about = About(
        "estimate",
        f"estimate --machine-source {args.machine_source} "
        + (
            f"--campaign {args.campaign} (active, inverse-probability weighted) "
            if args.campaign is not None
            else f"--human-queries {args.human_queries} "
        )
        + f"--k {args.k} --measure {args.measure} --ci {args.ci:g} humans={human}",
        notes=notes,
    )
    write_rows(args, ESTIMATE_COLUMNS, rows, about)
    return 0
