"""What every headless command shares: the usage error, argparse value types, opening the
database named by ``--db`` and checking ``--output`` before any work."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

#: int or float: what :func:`checked_number` reads
Number = TypeVar("Number", int, float)

#: A command's handler: the parsed command line in, the exit code out.
Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A command line that cannot work (a missing database or folder): exit 2, nothing done."""


def checked_number(
    text: str, kind: type[Number], accepts: Callable[[Number], bool], requirement: str
) -> Number:
    """``text`` read as ``kind`` (int or float) when ``accepts`` takes it: the body of every
    numeric argparse type. Else argparse's usage error (exit 2): ``'x' is not an integer`` (or
    ``a number``), or ``must <requirement>, got …`` with an integer as read and a number as
    typed."""
    try:
        value = kind(text)
    except ValueError:
        noun = "an integer" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
    if not accepts(value):
        got = value if kind is int else text
        raise argparse.ArgumentTypeError(f"must {requirement}, got {got}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1 (else argparse's usage error, exit 2)."""
    return checked_number(text, int, lambda v: v >= 1, "be at least 1")


def gains_map(text: str) -> dict[int, float]:
    """argparse type of ``--gains``: ``"0:0,1:1,2:3"`` → ``{0: 0.0, 1: 1.0, 2: 3.0}``."""
    custom: dict[int, float] = {}
    for part in text.split(","):
        grade, _, gain = part.partition(":")
        try:
            custom[int(grade)] = float(gain)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part!r} is not GRADE:GAIN (e.g. 0:0,1:1,2:3,3:7,4:15)"
            ) from None
        if not math.isfinite(custom[int(grade)]):
            raise argparse.ArgumentTypeError(f"{part!r}: the gain must be a finite number")
    return custom


def fraction(text: str) -> float:
    """argparse type: a number in [0, 1]."""
    return checked_number(text, float, lambda v: 0.0 <= v <= 1.0, "lie in [0, 1]")


def grade_map(text: str) -> dict[int, int]:
    """argparse type of ``--grade-map`` (:func:`ndcg_studio.io.grades.parse_grade_map`)."""
    from ndcg_studio.io.grades import parse_grade_map

    try:
        return parse_grade_map(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cell_text(value: Any, *, false: str = "") -> str:
    """A cell of a printed table: empty for None and NaN, a float with 4 decimals (as
    trec_eval), True as ``yes`` and False as ``false`` (empty unless given)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else false
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def nan_to_empty(value: Any) -> Any:
    """``value`` as written to CSV or xlsx: None (an empty cell) for a float NaN."""
    if isinstance(value, float):
        return None if math.isnan(value) else value
    return value


#: Joins the names of ``--runs A B C`` into one word (see :func:`normalize_argv`).
RUNS_SEPARATOR = "\x00"


def run_names(text: str) -> list[str]:
    """argparse type of ``--runs`` and ``--baseline``: one or more names from ``--runs A B …``
    (joined by :func:`normalize_argv`) or from ``--runs=A,B,…``; each command checks how many
    it needs."""
    names = text.split(RUNS_SEPARATOR) if RUNS_SEPARATOR in text else text.split(",")
    if not all(names):
        raise argparse.ArgumentTypeError(
            f"empty run name in {text.replace(RUNS_SEPARATOR, ' ')!r} "
            "(--runs A B … or --runs=A,B,…)"
        )
    return names


def run_list(text: str) -> list[str]:
    """argparse type of a ``--runs`` that needs two or more names (see :func:`run_names`)."""
    names = run_names(text)
    if len(names) < 2:
        raise argparse.ArgumentTypeError(
            "expected two or more run names (--runs RUN_A RUN_B [RUN_C ...] or "
            f"--runs=RUN_A,RUN_B), got {text.replace(RUNS_SEPARATOR, ' ')!r}"
        )
    return names


def open_db(args: argparse.Namespace, *, must_exist: bool = True) -> Any:
    """Open the database named by ``--db`` (after the command or before it).

    Args:
        must_exist: refuse (:class:`UsageError`) an SQLite file that does not exist, creating
            nothing: commands that only read must not make an empty database at a typo.

    Raises:
        UsageError: ``must_exist`` and no such SQLite file.
        DatabaseError: as :func:`ndcg_studio.storage.database.open_database`.
    """
    from ndcg_studio.storage.database import describe_url, in_memory, open_database, resolve_url

    url = resolve_url(getattr(args, "db", None))
    args.db_label = describe_url(url)
    if url.get_backend_name() == "sqlite" and not in_memory(url):
        path = Path(str(url.database))
        if must_exist and not path.is_file():
            raise UsageError(f"no database at {path}; `import` or `demo` creates one")
    return open_database(url, command=True)


def check_output(args: argparse.Namespace) -> None:
    """Refuse ``--output`` into a folder that does not exist (before any work is done).

    Raises:
        UsageError: the folder of ``--output`` does not exist, or the output is a folder.
    """
    output = getattr(args, "output", "-")
    if output == "-":
        if getattr(args, "format", None) == "xlsx":
            raise UsageError("--format xlsx writes a file: give --output F.xlsx")
        return
    path = Path(output)
    if path.is_dir():
        raise UsageError(f"--output {output}: is a folder; give a file name")
    if not path.absolute().parent.is_dir():
        raise UsageError(f"--output {output}: no folder {path.absolute().parent}; create it first")


def input_file(path: str | Path, option: str = "") -> Path:
    """``path`` as a file to read, or a :class:`UsageError` that says why it is not one (no such
    file, a folder, unreadable); ``option`` (``--gold``) names where it was given."""
    where = f"{option} {path}" if option else str(path)
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{where} is a folder, not a file: name a file in it")
    if not target.exists():
        raise UsageError(f"{where}: no such file")
    if not os.access(target, os.R_OK):
        raise UsageError(f"{where}: not readable (check its permissions)")
    return target


#: Fields per line of the two TREC formats, to tell a run from a qrels file.
TREC_FIELDS = {"run": 6, "qrels": 4}


def trec_kind(path: Path) -> str | None:
    """``"run"`` or ``"qrels"`` when the first data line of ``path`` has exactly that format's
    number of fields (within the file's first 64 KiB), else None (neither, or undecided)."""
    with open(path, "rb") as handle:
        head = handle.read(65536)
    for line in head.split(b"\n")[:100]:
        words = line.split()
        if words and not words[0].startswith(b"#"):
            return next((k for k, n in TREC_FIELDS.items() if n == len(words)), None)
    return None
