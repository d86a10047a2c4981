"""The option groups several ``ndcg-studio`` commands share: ``--db``, the output options, the
scoring options and the agreement options (choices and defaults from
:mod:`ndcg_studio.vocabulary`), and a command's parser opened with ``--db`` (:func:`add_command`,
:func:`add_commands` of a :data:`Command`). The commands are added in the order of
:mod:`ndcg_studio.cli.parser`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from ndcg_studio.cli.common import gains_map, positive_int
from ndcg_studio.vocabulary import (
    ALPHA_LEVELS,
    CONSENSUS_METHODS,
    DEFAULT_CONSENSUS,
    DEFAULT_DISPUTED_RANGE,
    DEFAULT_GAIN,
    DEFAULT_IDEAL,
    DEFAULT_LEVEL,
    DEFAULT_ORDER,
    DEFAULT_SCOPE,
    GAINS,
    IDEALS,
    ORDERS,
    SCOPES,
)

if TYPE_CHECKING:
    # the subparsers of a command (argparse's own type, generic only in typeshed)
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

#: A command (or export kind) with ``--db``: its name, help line, description and the function
#: that adds its options after ``--db`` (None: it has no other option)
Command = tuple[str, str, str, Callable[[argparse.ArgumentParser], None] | None]


def add_db(parser: argparse.ArgumentParser) -> None:
    """``--db`` after a command; when absent, the value of ``--db`` before the command stays."""
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        default=argparse.SUPPRESS,
        help="SQLite file or SQLAlchemy URL (postgresql://user@host/db); "
        "default: $NDCG_STUDIO_DB, else a file in the user data directory",
    )


def add_command(
    sub: Subparsers, name: str, *, help: str, description: str
) -> argparse.ArgumentParser:
    """The parser of the command (or subcommand) ``name``, added to the subparsers ``sub`` with
    its ``help`` line and ``description``, ``--db`` its first option (:func:`add_db`)."""
    parser = sub.add_parser(name, help=help, description=description)
    add_db(parser)
    return parser


def add_commands(sub: Subparsers, commands: tuple[Command, ...]) -> None:
    """A parser per :data:`Command` of ``commands``, in their order (:func:`add_command`), then
    the command's options."""
    for name, summary, description, add_options in commands:
        parser = add_command(sub, name, help=summary, description=description)
        if add_options is not None:
            add_options(parser)


def add_output(
    parser: argparse.ArgumentParser,
    *,
    formats: bool = True,
    excel: bool = True,
    file_format: str = "csv",
    default: str = "table",
) -> None:
    """``--format``, ``--output`` (and ``--excel``): with ``formats`` an aligned table, CSV or
    an xlsx workbook (``default``: ``table`` or ``csv``); else ``file_format`` (the file kind:
    ``csv``, qrels ``trec``) or xlsx."""
    if formats:
        parser.add_argument(
            "--format",
            choices=("table", "csv", "xlsx"),
            default=default,
            help=(
                "an aligned table for reading (default), CSV (header on line 1)"
                if default == "table"
                else "CSV (default; header on line 1), an aligned table for reading"
            )
            + " or an Excel workbook (needs --output F.xlsx; the settings on its second sheet)",
        )
    else:
        parser.add_argument(
            "--format",
            choices=(file_format, "xlsx"),
            default=file_format,
            help=f"{file_format} (default) or an Excel workbook (needs --output F.xlsx; "
            "numbers as numbers, ids as text, the settings on its second sheet)",
        )
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        default="-",
        help="write to FILE (its folder must exist; the settings go to FILE's name + "
        ".settings.json beside it); default: standard output",
    )
    if excel:
        parser.add_argument(
            "--excel",
            action="store_true",
            help="CSV with a UTF-8 BOM so Excel detects the encoding",
        )


def add_scoring(
    parser: argparse.ArgumentParser, *, runs: bool = True, only_grades: bool = False
) -> None:
    """The scoring group: ``--k --gain --gains --ideal --order`` (unless ``only_grades``),
    ``--consensus --annotator``, and ``--run`` with ``runs``."""
    title = "grades" if only_grades else "scoring (defaults follow trec_eval ndcg_cut)"
    g = parser.add_argument_group(title)
    if not only_grades:
        g.add_argument("--k", type=positive_int, default=10, help="cutoff K >= 1 (default 10)")
        g.add_argument(
            "--gain",
            choices=GAINS,
            default=DEFAULT_GAIN,
            help="gain of grade g: g (linear, trec_eval; default) or 2^g - 1 (exponential)",
        )
        g.add_argument(
            "--gains",
            metavar="G:GAIN,...",
            type=gains_map,
            help="custom gain per grade, e.g. 0:0,1:1,2:3,3:7,4:15 (overrides --gain)",
        )
        g.add_argument(
            "--ideal",
            choices=IDEALS,
            default=DEFAULT_IDEAL,
            help="ideal DCG from all judged documents of the query (trec_eval; default) "
            "or from the returned list only",
        )
        g.add_argument(
            "--order",
            choices=ORDERS,
            default=DEFAULT_ORDER,
            help="run order: score desc, docno desc (trec_eval; default) or the file's rank column",
        )
    g.add_argument(
        "--consensus",
        choices=CONSENSUS_METHODS,
        default=DEFAULT_CONSENSUS,
        help="how several annotators' grades of a document make one (default mean)",
    )
    g.add_argument(
        "--annotator",
        metavar="NAME",
        help="use this annotator's grades only (a NAME starting with - : --annotator=NAME)",
    )
    if runs:
        g.add_argument(
            "--run",
            metavar="NAME",
            action="append",
            help="only this run (repeatable; a NAME starting with - : --run=NAME)",
        )


def add_agreement(parser: argparse.ArgumentParser, *, by: bool = True) -> None:
    """``--level`` of Krippendorff's alpha, and with ``by`` ``--by`` and ``--disputed-range``."""
    parser.add_argument(
        "--level",
        choices=ALPHA_LEVELS,
        default=DEFAULT_LEVEL,
        help="level of measurement of Krippendorff's alpha (default ordinal)",
    )
    if by:
        parser.add_argument(
            "--by",
            choices=SCOPES,
            default=DEFAULT_SCOPE,
            help="one row per statistic for all judgments (default), or per query, "
            "annotator, pair of annotators or item",
        )
        parser.add_argument(
            "--disputed-range",
            type=positive_int,
            default=DEFAULT_DISPUTED_RANGE,
            metavar="N",
            help=f"an item is disputed when max-min grade >= N (default {DEFAULT_DISPUTED_RANGE})",
        )
