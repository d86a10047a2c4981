"""The headless commands: ``ndcg-studio import|score|agreement|export|demo``.

Each command opens the database (``--db``, ``$NDCG_STUDIO_DB`` or the default file), which
upgrades its schema, calls one service and prints or writes the result. Errors are printed as one
clear message on stderr with exit code 2 (bad input) or 1 (anything else); no traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from ndcg_studio import __version__

IMPORT_KINDS = ("run", "qrels", "judgments", "queries", "documents", "smart")
EXPORT_KINDS = ("report", "judgments", "qrels", "agreement", "compare")

Handler = Callable[[argparse.Namespace], int]
_HANDLERS: dict[str, Handler] = {}


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=argparse.SUPPRESS,
        help="SQLite file or SQLAlchemy URL (postgresql://user@host/db); "
        "default: $NDCG_STUDIO_DB, else a file in the user data directory",
    )


def _add_output(parser: argparse.ArgumentParser, *, formats: bool = True) -> None:
    if formats:
        parser.add_argument("--format", choices=("table", "csv"), default="table")
    parser.add_argument("--output", "-o", metavar="FILE", default="-", help="default: stdout")
    parser.add_argument(
        "--excel", action="store_true", help="CSV with a UTF-8 BOM so Excel detects the encoding"
    )


def _add_scoring(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("scoring (defaults follow trec_eval ndcg_cut)")
    g.add_argument("--k", type=int, default=10, help="cutoff K (default 10)")
    g.add_argument("--gain", choices=("linear", "exponential"), default="linear")
    g.add_argument(
        "--gains",
        metavar="G:GAIN,...",
        help="custom gain per grade, e.g. 0:0,1:1,2:3,3:7,4:15 (overrides --gain)",
    )
    g.add_argument(
        "--ideal",
        choices=("judged", "list"),
        default="judged",
        help="ideal DCG from all judged documents of the query (trec_eval) "
        "or from the returned list only",
    )
    g.add_argument(
        "--order",
        choices=("score", "rank"),
        default="score",
        help="run order: score desc, docno desc (trec_eval) or the file's rank column",
    )
    g.add_argument(
        "--consensus", choices=("mean", "median", "majority", "max", "min"), default="mean"
    )
    g.add_argument("--annotator", metavar="NAME", help="score against this annotator's grades only")
    g.add_argument("--run", metavar="NAME", action="append", help="only this run (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ndcg-studio`` (used by :func:`ndcg_studio.app.main`)."""
    parser = argparse.ArgumentParser(
        prog="ndcg-studio",
        description="Judge search results and score runs with NDCG@K. "
        "Without a command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=None,
        help="SQLite file or SQLAlchemy URL; default: $NDCG_STUDIO_DB, "
        "else studio.sqlite in the user data directory",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the built-in Cranfield demo database (created on first use)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("import", help="import runs, qrels, judgments, queries, documents")
    _add_db(p)
    p.add_argument("kind", choices=IMPORT_KINDS)
    p.add_argument("file")
    p.add_argument("--name", help="run: the run's name (default: the file's tag column)")
    p.add_argument("--annotator", help="qrels: annotator name (default: the file's stem)")
    p.add_argument(
        "--annotator-column",
        action="store_true",
        help="qrels: the second column holds the annotator's name",
    )
    p.add_argument("--grade-map", metavar="FROM:TO,...", help='e.g. "-1:0,5:4"')
    p.add_argument(
        "--smart-kind",
        choices=("documents", "queries"),
        default=None,
        help="smart: what the file holds (default: guessed from .T/.A fields)",
    )
    p.add_argument(
        "--renumber",
        action="store_true",
        help="smart queries: number queries 1..n by position (Cranfield)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    p = sub.add_parser("score", help="NDCG@K and its parts for every (query, run)")
    _add_db(p)
    _add_scoring(p)
    _add_output(p)
    p.add_argument("--summary", action="store_true", help="one row per run: mean with 95%% CI")

    p = sub.add_parser("agreement", help="inter-annotator agreement (alpha, kappa, spread)")
    _add_db(p)
    p.add_argument("--level", choices=ALPHA_LEVELS, default="ordinal")
    p.add_argument("--by", choices=("all", "query", "annotator", "pair", "item"), default="all")
    p.add_argument(
        "--disputed-range",
        type=int,
        default=2,
        metavar="N",
        help="an item is disputed when max-min grade >= N (default 2)",
    )
    _add_output(p)

    p = sub.add_parser("export", help="write reports, judgments, qrels, agreement, comparisons")
    _add_db(p)
    p.add_argument("kind", choices=EXPORT_KINDS)
    _add_scoring(p)
    _add_output(p, formats=False)
    p.add_argument("--wide", action="store_true", help="judgments: one grade column per annotator")
    p.add_argument("--level", choices=ALPHA_LEVELS, default="ordinal")
    p.add_argument("--by", choices=("all", "query", "annotator", "pair", "item"), default="all")
    p.add_argument("--disputed-range", type=int, default=2, metavar="N")
    p.add_argument("--runs", nargs=2, metavar=("RUN_A", "RUN_B"), help="compare: the two runs")

    p = sub.add_parser("demo", help="load the Cranfield demo collection into the database")
    _add_db(p)
    return parser


#: Krippendorff's alpha levels offered (the default, ordinal, first).
ALPHA_LEVELS = ("ordinal", "interval", "ratio", "nominal")

#: Options whose value may begin with "-" (``--grade-map "-1:0,5:4"``); argparse would take
#: such a value for an option, so :func:`normalize_argv` glues it to its option.
_DASH_VALUE_OPTIONS = ("--grade-map", "--gains")


def normalize_argv(argv: list[str]) -> list[str]:
    """``["--grade-map", "-1:0"]`` → ``["--grade-map=-1:0"]`` so a leading minus works."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in _DASH_VALUE_OPTIONS and i + 1 < len(argv):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def command(name: str) -> Callable[[Handler], Handler]:
    """Register the handler of a subcommand."""

    def register(fn: Handler) -> Handler:
        _HANDLERS[name] = fn
        return fn

    return register


def run(args: argparse.Namespace) -> int:
    """Run the subcommand in ``args``; turn expected errors into one-line messages."""
    from ndcg_studio.cli import commands  # noqa: F401  (registers the handlers)
    from ndcg_studio.io.errors import InputError
    from ndcg_studio.storage.database import DatabaseError

    try:
        return _HANDLERS[args.command](args)
    except InputError as exc:
        print(f"ndcg-studio {args.command}: {exc}", file=sys.stderr)
        print("nothing was written.", file=sys.stderr)
        return 2
    except (DatabaseError, ValueError, LookupError) as exc:
        print(f"ndcg-studio {args.command}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # the reader went away (``ndcg-studio score | head``): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"ndcg-studio {args.command}: cancelled; nothing was written.", file=sys.stderr)
        return 130


def open_db(args: argparse.Namespace) -> Any:
    """Open the database named by ``--db`` (after the command or before it)."""
    from ndcg_studio.storage.database import open_database

    return open_database(getattr(args, "db", None))
