"""``ndcg-studio eval QRELS RUN``: trec_eval's measures straight from the two files, no database.

Options and output follow trec_eval 10 (``-m``, ``-q``, ``-c``, ``-l``, ``-J``; lines
``measure<TAB>query<TAB>value``, then the ``all`` lines); see
:mod:`ndcg_studio.services.evaluation.evaluate` for the measures and conventions. A measure that is
not
implemented is refused in one line (exit 2) before the files are read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ndcg_studio.cli.common import TREC_FIELDS, UsageError, input_file, trec_kind

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    """Add the ``eval`` sub-command to ``ndcg-studio``'s sub-parsers (its handler is
    registered when this module is imported)."""
    from ndcg_studio.services.evaluation.measures import DEFAULT_MEASURES, MEASURES

    p = sub.add_parser(
        "eval",
        help="trec_eval's measures of a run file against a qrels file (no database)",
        description="Evaluate RUN against QRELS with trec_eval's options and output format, "
        "without a database. Implemented measures: "
        + ", ".join(f"{m}.K1,K2" if cut else m for m, cut in MEASURES.items())
        + "; ndcg also takes per-grade gains (ndcg.0=0,1=1,2=3). Without -m: "
        + " ".join(DEFAULT_MEASURES)
        + ".",
    )
    p.add_argument("qrels", metavar="QRELS", help="TREC qrels file (qid iter docno grade)")
    p.add_argument("run", metavar="RUN", help="TREC run file (qid Q0 docno rank score tag)")
    p.add_argument(
        "-m",
        dest="measures",
        metavar="MEASURE",
        action="append",
        default=[],
        help="measure, as in trec_eval: ndcg_cut.10, P.5,10, map, recip_rank ... (repeatable); "
        "all_trec: every one implemented here — all of trec_eval 10's but relstring, gm_bpref, "
        "Rprec_mult, utility, 11pt_avg, binG, G, Rndcg, relative_P, unj and rbp_resid",
    )
    p.add_argument("-q", dest="per_query", action="store_true", help="print every query's values")
    p.add_argument(
        "-c",
        dest="complete",
        action="store_true",
        help="queries of the qrels missing from the run count, as 0",
    )
    p.add_argument(
        "-l",
        dest="level",
        metavar="N",
        type=int,
        default=1,
        help="relevance level: grade >= N is relevant (default 1; nDCG's gains ignore it)",
    )
    p.add_argument(
        "-M",
        dest="max_docs",
        type=int,
        metavar="N",
        help="evaluate only the first N documents of each query (trec_eval's order)",
    )
    p.add_argument(
        "-J",
        dest="judged_only",
        action="store_true",
        help="evaluate over judged documents only (unjudged ones are removed from the run)",
    )


def _reuse_freed_memory() -> None:
    """glibc only: serve large allocations from the heap and keep what is freed for the next.

    By default glibc maps each array over 32 MiB afresh and unmaps it when freed, so every one
    of the many large temporary arrays of a 10M-line evaluation faults its pages in from the
    kernel again; that system time was about half of the command's CPU time at 10M lines. With
    ``M_MMAP_MAX`` 0 and a high ``M_TRIM_THRESHOLD`` freed arrays are reused (a somewhat higher
    peak RSS, still below pytrec_eval's). One short process only: never set in the app. Guarded
    by ``benchmarks/bench_eval.py``; the numbers are in ``benchmarks/README.md``.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library the interpreter runs on
    except (OSError, AttributeError):  # a C library without mallopt
        return
    m_trim_threshold, m_mmap_max = -1, -4  # glibc's malloc.h
    mallopt(m_mmap_max, 0)
    mallopt(m_trim_threshold, 2**31 - 1)


def eval_command(args: argparse.Namespace) -> int:
    """Print trec_eval's lines for ``args.run`` against ``args.qrels``."""
    _reuse_freed_memory()
    from ndcg_studio.io.trec.columns import read_qrels_columns, read_run_columns
    from ndcg_studio.services.evaluation.evaluate import evaluate
    from ndcg_studio.services.evaluation.measures import MeasureError, parse_measures

    try:
        measures = parse_measures(args.measures)
    except MeasureError as exc:
        raise UsageError(str(exc)) from None
    if args.max_docs is not None and args.max_docs < 1:
        raise UsageError(f"-M {args.max_docs}: the number of documents per query must be >= 1")
    if args.max_docs is not None and args.judged_only:
        # trec_eval cuts the list to N before it drops the unjudged documents; not done here
        raise UsageError("-M with -J is not supported: give one of them")
    if args.level < 1:
        raise UsageError(f"-l {args.level}: the relevance level must be at least 1")
    qrels_kind, run_kind = (trec_kind(input_file(p)) for p in (args.qrels, args.run))
    if qrels_kind == "run" and run_kind == "qrels":
        raise UsageError(
            f"{args.qrels} looks like a run and {args.run} like qrels: give the qrels first, "
            "as trec_eval does (ndcg-studio eval QRELS RUN)"
        )
    for path, kind, want in ((args.qrels, qrels_kind, "qrels"), (args.run, run_kind, "run")):
        if kind is not None and kind != want:
            raise UsageError(
                f"{path} looks like a {kind} file ({TREC_FIELDS[kind]} columns), not a {want} "
                f"file ({TREC_FIELDS[want]}): ndcg-studio eval QRELS RUN"
            )
    qrels = read_qrels_columns(args.qrels)
    run = read_run_columns(args.run)
    result = evaluate(
        run,
        qrels,
        measures,
        complete=args.complete,
        relevance_level=args.level,
        judged_only=args.judged_only,
        max_docs=args.max_docs,
    )
    sys.stdout.write("\n".join(result.lines(args.per_query)) + "\n")
    return 0
