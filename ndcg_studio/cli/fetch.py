"""``ndcg-studio fetch-run``: send every query of a queries file to a live search engine
described by an endpoint file and store the ranked lists as a run.

Registered by :func:`ndcg_studio.cli.parser.build_parser` (:data:`COMMAND`) and
:data:`ndcg_studio.cli.handlers.HANDLERS` (:func:`fetch_command`); the endpoint file is read by
:mod:`ndcg_studio.io.endpoints.file`, the use case is :mod:`ndcg_studio.services.fetching.service`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ndcg_studio.cli.common import checked_number, input_file, open_db, positive_int
from ndcg_studio.cli.options import Command

__all__ = ["COMMAND", "fetch_command"]


def _positive_number(text: str) -> float:
    return checked_number(text, float, lambda v: v > 0 and v != float("inf"), "be a number above 0")


def _count(text: str) -> int:
    return checked_number(text, int, lambda v: v >= 0, "be 0 or more")


def _fetch_options(p: argparse.ArgumentParser) -> None:
    """The options of ``fetch-run`` after ``--db``."""
    p.add_argument("--name", required=True, help="the run's name")
    p.add_argument("--endpoint", required=True, metavar="FILE", help="the endpoint file (TOML)")
    p.add_argument(
        "--queries",
        required=True,
        metavar="FILE",
        help="TREC topics, SMART queries (cran.qry) or a queries TSV/CSV",
    )
    p.add_argument(
        "--renumber",
        action="store_true",
        help="SMART queries: number them 1..n by position (Cranfield)",
    )
    p.add_argument("--k", type=positive_int, default=100, help="hits per query (default 100)")
    p.add_argument(
        "--concurrency", type=positive_int, default=4, help="requests at once (default 4)"
    )
    p.add_argument(
        "--rate", type=_positive_number, default=None, help="at most R requests a second"
    )
    p.add_argument(
        "--timeout",
        type=_positive_number,
        default=30.0,
        metavar="S",
        help="seconds per request (default 30)",
    )
    p.add_argument(
        "--retries",
        type=_count,
        default=4,
        help="attempts after the first on 429, 5xx, time-outs and broken answers (default 4)",
    )
    p.add_argument(
        "--keep-partial",
        action="store_true",
        help="store the queries that were fetched even when others failed",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="replace the run of that name without keeping it (without --replace an earlier "
        "fetch is kept as the snapshot NAME@TIME; see 'ndcg-studio runs --snapshots NAME')",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


#: ``fetch-run``: its name, help line, description and options (after ``--db``)
COMMAND: Command = (
    "fetch-run",
    "send the queries to a live search engine and store its ranked lists as a run",
    "Send each query of --queries to the search engine of --endpoint (a TOML "
    "endpoint file: a preset or url, method, headers, body and a [response] mapping; see "
    "the page 'Evaluate a live engine') and store the ranked lists as the run --name, "
    "ranks in the engine's order and scores as returned. Failed queries are listed at the "
    "end and nothing is stored unless --keep-partial; the lists fetched so far stay in a "
    "journal, so the same command again sends only the queries still missing. A bad "
    "endpoint file: FILE:LINE: field: message, exit 2, nothing sent.",
    _fetch_options,
)


def fetch_command(args: argparse.Namespace) -> int:
    from ndcg_studio.cli.commands import terminal_progress
    from ndcg_studio.io.endpoints.file import read_endpoint
    from ndcg_studio.services.fetching.journal import Journal, journal_folder, journal_path
    from ndcg_studio.services.fetching.sender import Policy
    from ndcg_studio.services.fetching.service import FetchService, Limits, read_query_file

    endpoint = read_endpoint(input_file(args.endpoint, "--endpoint"))
    queries = read_query_file(input_file(args.queries, "--queries"), renumber=args.renumber)
    limits = Limits(
        k=args.k,
        concurrency=args.concurrency,
        rate=args.rate,
        policy=Policy(timeout=args.timeout, retries=args.retries),
    )
    db = open_db(args, must_exist=False)
    try:
        key = (args.name, endpoint.template_hash(), args.db_label)
        journal = Journal(journal_path(journal_folder(), *key))
        with terminal_progress(not args.quiet, f"fetching {args.name}") as progress:
            outcome = FetchService(db).fetch(
                endpoint,
                queries,
                name=args.name,
                journal=journal,
                limits=limits,
                keep_partial=args.keep_partial,
                replace=args.replace,
                progress=progress,
            )
    finally:
        db.dispose()
    return _report(outcome)


def _report(outcome: Any) -> int:
    """Print what the fetch did on stderr; exit 1 when queries failed and nothing was stored."""
    for failure in outcome.failures:
        answer = failure.answer.replace("\n", " ")
        print(f"query {failure.query_id}: {failure.status}: {answer}".rstrip(": "), file=sys.stderr)
    for note in outcome.notes[:20]:
        print(note, file=sys.stderr)
    fetched = f"{outcome.sent} queries sent, {outcome.reused} from the journal"
    if outcome.stored:
        failed = f"; {len(outcome.failures)} failed, left out" if outcome.failures else ""
        print(
            f"run {outcome.name!r} stored: {outcome.results} results of "
            f"{outcome.queries - len(outcome.failures)} queries ({fetched}, "
            f"{outcome.seconds:.1f} s){failed}",
            file=sys.stderr,
        )
        if outcome.kept:
            print(f"the earlier fetch is kept as the run {outcome.kept!r}", file=sys.stderr)
        return 0
    print(
        f"{len(outcome.failures)} of {outcome.queries} queries failed ({fetched}); nothing was "
        f"stored. The fetched lists are kept in {outcome.journal}: run the same command again "
        "to send only the missing queries, or add --keep-partial to store without them.",
        file=sys.stderr,
    )
    return 1
