"""``ndcg-studio campaign create|queue|status|list|close|grades``: judging campaigns headless.

Registered by :func:`ndcg_studio.cli.build_parser` (:func:`add_parser`); see
:mod:`ndcg_studio.services.campaigns.service` for what a campaign is.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ndcg_studio.cli.common import (
    RUNS_SEPARATOR,
    UsageError,
    cell_text,
    check_output,
    input_file,
    open_db,
    positive_int,
    run_names,
)
from ndcg_studio.cli.options import add_command

if TYPE_CHECKING:
    from ndcg_studio.services.campaigns.service import CampaignService

#: The ``--strategy`` choices (services/campaign_types.POOL_STRATEGIES; the CLI's parser must
#: not import the services, tests/cli checks they are equal).
POOL_STRATEGIES = ("depth", "mtf", "bandit", "ab", "ppi")

STATUS_COLUMNS = (
    "annotator",
    "assigned",
    "done",
    "cant_judge",
    "median_seconds",
    "leniency",
    "kappa_vs_others",
    "alpha_without",
    "gold_exact",
    "gold_within_one",
    "later",
    "gold_n",
    "gold_warning",
    "grade_0",
    "grade_1",
    "grade_2",
    "grade_3",
    "grade_4",
)


_FORMAT = "an aligned table for reading, or CSV (header on line 1)"


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number between 0 and 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def add_parser(sub: Any) -> None:
    """Add the ``campaign`` command to the subparsers ``sub`` and register its handler."""
    p = sub.add_parser(
        "campaign",
        help="judging campaigns: who judges which pooled items, how often, with gold checks",
        description="Create a judging campaign, see what an annotator is offered next, the "
        "lead's statistics, list and close campaigns.",
    )
    actions = p.add_subparsers(dest="campaign_action", metavar="ACTION", required=True)
    _add_create(actions)
    q = add_command(
        actions,
        "queue",
        help="what an annotator is offered next (held for them)",
        description="The items ANNOTATOR is offered next, gold included; they are held for "
        "them (--hold-minutes) as the app does.",
    )
    q.add_argument("name", help="the campaign (a name that starts with - goes after --)")
    q.add_argument("--annotator", required=True, metavar="NAME", help="whose queue")
    q.add_argument("--limit", type=positive_int, default=10, metavar="K", help="at most K items")
    q.add_argument(
        "--hold-minutes", type=float, default=30.0, metavar="M", help="hold them M minutes"
    )
    q.add_argument("--format", choices=("table", "csv"), default="table", help=_FORMAT)
    for action, help_text, description, fmt in (
        (
            "status",
            "the lead's statistics, one row per annotator",
            "One row per annotator: " + ",".join(STATUS_COLUMNS) + ".",
            "table",
        ),
        (
            "grades",
            "every grade and mark of a campaign",
            "Every grade of the campaign's items with its state, explanation, seconds "
            "and campaign, and every can't judge / later mark.",
            "csv",
        ),
    ):
        s = add_command(actions, action, help=help_text, description=description)
        s.add_argument("name", help="the campaign (a name that starts with - goes after --)")
        s.add_argument("--format", choices=("table", "csv"), default=fmt, help=_FORMAT)
        s.add_argument(
            "--output",
            "-o",
            metavar="FILE",
            default="-",
            help="write to FILE (its folder must exist); default: standard output",
        )
    ls = add_command(actions, "list", help="every campaign", description="Every campaign.")
    ls.add_argument("--format", choices=("table", "csv"), default="table", help=_FORMAT)
    cl = add_command(actions, "close", help="close a campaign", description="Close a campaign.")
    cl.add_argument("name", help="the campaign (a name that starts with - goes after --)")


def _add_create(actions: Any) -> None:
    c = add_command(actions, "create", help="create a campaign", description="Create a campaign.")
    c.add_argument(
        "name", help="the campaign's name, unique (a name that starts with - goes after --)"
    )
    c.add_argument("--runs", type=run_names, required=True, metavar="RUN", help="runs to pool")
    c.add_argument("--depth", type=positive_int, required=True, help="pool depth D")
    c.add_argument("--overlap", type=positive_int, required=True, help="grades per item N ≥ 1")
    c.add_argument(
        "--annotators",
        nargs="+",
        required=True,
        metavar="NAME",
        help="annotators (every word up to the next option, whatever it starts with)",
    )
    group = c.add_mutually_exclusive_group()
    group.add_argument("--queries", metavar="FILE", help="query ids, one per line")
    group.add_argument("--sample", type=positive_int, metavar="N", help="a random sample of N")
    c.add_argument("--seed", type=int, default=0, help="seed of the sample and shuffle")
    c.add_argument("--gold", metavar="FILE", help="gold items: QUERY [ITER] DOCUMENT GRADE")
    c.add_argument("--gold-rate", type=_rate, default=0.05, help="share of gold (default 0.05)")
    c.add_argument(
        "--gold-threshold",
        type=_rate,
        default=0.7,
        help="warn when an annotator's exact gold accuracy is below this (default 0.7)",
    )
    c.add_argument("--guidelines", metavar="FILE", help="guidelines (Markdown)")
    c.add_argument(
        "--strategy",
        choices=POOL_STRATEGIES,
        default="depth",
        help="the order the queue offers the pool in: depth (fewest grades first, shuffled; "
        "default), mtf (move-to-front), bandit (discounted MaxMean, λ 0.9), ab (what decides "
        "--pair at --k), ppi (active human sampling for estimate --campaign: a seeded draw of "
        "queries, each with a probability that grows with |nDCG@K(A) - nDCG@K(B)| under "
        "--machine's grades, --sample of them expected; offered query by query, whole pools)",
    )
    c.add_argument("--pair", nargs=2, metavar=("A", "B"), help="ab, ppi: the two runs compared")
    c.add_argument("--k", type=positive_int, metavar="K", help="ab, ppi: the cutoff K")
    m = c.add_argument_group(
        "correcting a machine judge",
        "only the pooled items where model source --machine and the humans disagree "
        "(--where humans), where model sources disagree (machines; --against one of them), or "
        "that only machines graded and whose grade could change which of two runs wins at "
        "--decision-k "
        "(decision). Annotators never see the machine's grade. Every annotator's grade counts "
        "toward --overlap, the machine's too: ask for one more than the human grades wanted.",
    )
    m.add_argument(
        "--machine",
        metavar="SOURCE",
        help="the model source to correct; with --strategy ppi the source whose grades weigh "
        "the queries (then no --where selection)",
    )
    m.add_argument(
        "--where",
        choices=("humans", "machines", "decision"),
        default="humans",
        help="which items (default humans)",
    )
    m.add_argument("--against", metavar="SOURCE", help="machines: the other model source")
    m.add_argument("--min-difference", type=float, default=1.0, metavar="G", help="(1)")
    m.add_argument("--decision-k", type=positive_int, default=10, metavar="K", help="(10)")


def _only_items(database: Any, args: argparse.Namespace) -> frozenset[tuple[int, int]] | None:
    """The items of ``--machine`` / ``--where`` (None without ``--machine`` or under ppi)."""
    if not args.machine or args.strategy == "ppi":
        return None
    from ndcg_studio.services.judges.corrections import correction_items
    from ndcg_studio.services.scoring.settings import ScoringSettings

    settings = ScoringSettings(k=args.decision_k)
    return correction_items(
        database, args.machine, args.where, against=args.against,
        min_difference=args.min_difference, runs=args.runs, settings=settings,
    )  # fmt: skip


def _emit(fmt: str, header: list[str], rows: list[list[Any]], output: str = "-") -> None:
    """The rows as CSV or an aligned table, on standard output or (atomically) in ``output``."""
    from ndcg_studio.io.atomic import atomic_text_writer

    cells = [[cell_text(v, false="no") for v in row] for row in rows]
    with atomic_text_writer(output) as handle:
        if fmt == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(cells)
            return
        widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(header)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
        handle.write("".join(line.rstrip() + "\n" for line in lines))


def _read_file(option: str, path: str | None) -> str | None:
    if path is None:
        return None
    input_file(path, option)
    return path


def campaign_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.campaigns.service import CampaignService

    if args.campaign_action == "create":
        return _create(args)
    check_output(args)
    database = open_db(args)
    try:
        service = CampaignService(database)
        try:
            _ACTIONS[args.campaign_action](service, args)
        except (LookupError, ValueError) as exc:
            raise UsageError(str(exc)) from exc
    finally:
        database.dispose()
    return 0


def _list(service: CampaignService, args: argparse.Namespace) -> None:
    header = ["name", "status", "overlap", "items", "complete", "gold", "runs", "strategy"]
    rows = [
        [c.name, c.status, c.overlap, c.items, c.complete, c.gold, " ".join(c.runs), c.strategy]
        for c in service.all()
    ]
    _emit(args.format, header, rows)


def _close(service: CampaignService, args: argparse.Namespace) -> None:
    info = service.close(args.name)
    print(f"campaign {info.name!r} closed: {info.complete}/{info.items} complete")


def _queue(service: CampaignService, args: argparse.Namespace) -> None:
    who = service.annotation.ensure_annotator(args.annotator)
    items = service.queue(args.name, who.id, args.limit, hold_seconds=args.hold_minutes * 60)
    _emit(args.format, ["query_id", "doc_id"], [[i.query, i.document] for i in items])


def _status(service: CampaignService, args: argparse.Namespace) -> None:
    status = service.status(args.name)
    rows = [
        [
            r.annotator,
            r.assigned,
            r.done,
            r.cant_judge,
            r.median_seconds,
            r.leniency,
            r.kappa_vs_others,
            r.alpha_without,
            r.gold_exact,
            r.gold_within_one,
            r.later,
            r.gold_n,
            r.gold_warning,
            *r.grades,
        ]
        for r in status.annotators
    ]
    _emit(args.format, list(STATUS_COLUMNS), rows, args.output)
    info = status.campaign
    print(
        f"note: {info.name}: {info.complete}/{info.items} items complete "
        f"({info.overlap} grades each), {info.gold} gold",
        file=sys.stderr,
    )
    draw = status.draw
    if draw is not None:
        ready = (
            "estimate ready"
            if draw.ready
            else f"{len(draw.unfinished)} drawn quer{'y' if len(draw.unfinished) == 1 else 'ies'} "
            f"unfinished, first: {draw.unfinished[0]}"
        )
        print(
            f"note: {info.name}: ppi draw: drawn {draw.drawn} of {draw.queries} queries "
            f"({draw.expected:g} expected), {draw.complete} complete; {ready}",
            file=sys.stderr,
        )


GRADES_COLUMNS = (
    "campaign",
    "query_id",
    "doc_id",
    "annotator",
    "state",
    "grade",
    "explanation",
    "seconds",
    "reason",
    "gold",
)


def _grades(service: CampaignService, args: argparse.Namespace) -> None:
    rows = [
        [
            g.campaign,
            g.query,
            g.document,
            g.annotator,
            g.state,
            g.grade,
            g.explanation,
            g.seconds,
            g.reason,
            g.gold,
        ]
        for g in service.grades(args.name)
    ]
    _emit(args.format, list(GRADES_COLUMNS), rows, args.output)


_ACTIONS: dict[str, Callable[[CampaignService, argparse.Namespace], None]] = {
    "list": _list,
    "close": _close,
    "queue": _queue,
    "status": _status,
    "grades": _grades,
}


def _create(args: argparse.Namespace) -> int:
    from ndcg_studio.io.campaign_files import read_gold_file, read_query_list
    from ndcg_studio.services.campaigns.service import CampaignService
    from ndcg_studio.services.campaigns.types import CampaignSpec, GoldItem

    queries = gold_rows = guidelines = None
    if _read_file("--queries", args.queries):
        queries = read_query_list(args.queries)
    if _read_file("--gold", args.gold):
        gold_rows = read_gold_file(args.gold)
    if _read_file("--guidelines", args.guidelines):
        guidelines = Path(args.guidelines).read_text(encoding="utf-8")
    database = open_db(args)
    try:
        service = CampaignService(database)
        try:
            info = service.create(
                CampaignSpec(
                    name=args.name,
                    runs=args.runs,
                    depth=args.depth,
                    overlap=args.overlap,
                    annotators=[
                        name for word in args.annotators for name in word.split(RUNS_SEPARATOR)
                    ],
                    queries=queries,
                    sample=args.sample,
                    seed=args.seed,
                    gold=[GoldItem(q, d, g) for q, d, g, _line in gold_rows or []],
                    gold_rate=args.gold_rate,
                    gold_threshold=args.gold_threshold,
                    guidelines=guidelines or "",
                    strategy=args.strategy,
                    pair=tuple(args.pair) if args.pair else None,
                    k=args.k,
                    machine=args.machine if args.strategy == "ppi" else None,
                    only_items=_only_items(database, args),
                )
            )
        except (LookupError, ValueError) as exc:
            raise UsageError(f"{exc}; nothing was written") from exc
    finally:
        database.dispose()
    print(
        f"campaign {info.name!r}: {info.items} items from {len(info.runs)} run(s) at depth "
        f"{info.pool_depth}, {info.overlap} grade(s) each, {info.gold} gold, "
        f"{len(info.annotators)} annotator(s), offered in {info.strategy} order"
    )
    return 0
