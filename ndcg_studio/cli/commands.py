"""Handlers of the headless subcommands (registered with :func:`ndcg_studio.cli.command`)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from ndcg_studio.cli import command, open_db

# ----------------------------------------------------------------------------- output helpers


def _fmt(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def print_table(header: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO) -> None:
    """An aligned plain-text table (4 decimals, like trec_eval); empty cells for no value."""
    body = [[_fmt(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(header)]
    numeric = [all(_is_number(r[i]) for r in body if r[i]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    out.write(line(header) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for row in body:
        out.write(line(row) + "\n")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def write_rows(
    args: argparse.Namespace,
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    comments: Sequence[str] = (),
    fmt: str | None = None,
) -> None:
    """Write ``rows`` as a table or CSV to ``--output`` (stdout for ``-``); CSV files are atomic."""
    from ndcg_studio.io.writers import write_csv

    fmt = fmt or getattr(args, "format", "csv")
    if fmt == "table":
        from ndcg_studio.io.writers import atomic_text_writer

        with atomic_text_writer(args.output) as out:
            for c in comments:
                out.write(f"# {c}\n")
            print_table(header, rows, out)
        return
    write_csv(args.output, header, rows, excel=args.excel, comments=comments)


@contextmanager
def terminal_progress(enabled: bool, description: str) -> Iterator[Any]:
    """A tqdm bar on stderr (only on a terminal) fed with ``progress(done, total)`` calls."""
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    bar = tqdm(total=100, desc=description, unit="%", disable=None, leave=False, file=sys.stderr)

    def progress(done: int, total: int) -> None:
        target = int(100 * done / max(total, 1))
        if target > bar.n:
            bar.update(target - bar.n)

    try:
        yield progress
    finally:
        bar.close()


def scoring_settings(args: argparse.Namespace) -> Any:
    """ScoringSettings from the ``--k --gain --gains --ideal --order --consensus`` options."""
    from ndcg_studio.services.scoring import ScoringSettings

    custom = None
    if getattr(args, "gains", None):
        custom = {}
        for part in args.gains.split(","):
            grade, _, gain = part.partition(":")
            try:
                custom[int(grade)] = float(gain)
            except ValueError:
                raise ValueError(
                    f"--gains: {part!r} is not GRADE:GAIN (e.g. 0:0,1:1,2:3,3:7,4:15)"
                ) from None
    if args.k < 1:
        raise ValueError(f"--k must be at least 1, got {args.k}")
    return ScoringSettings(
        k=args.k,
        gain=args.gain,
        custom_gains=custom,
        ideal=args.ideal,
        order=args.order,
        consensus=args.consensus,
        annotator=args.annotator,
        runs=tuple(args.run) if args.run else None,
    )


# ----------------------------------------------------------------------------------- import


@command("import")
def import_command(args: argparse.Namespace) -> int:
    from ndcg_studio.io.grades import parse_grade_map
    from ndcg_studio.services.importing import ImportService

    path = Path(args.file)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    options: dict[str, Any] = {}
    grade_map = parse_grade_map(args.grade_map) if args.grade_map else None
    if args.kind == "run":
        options["name"] = args.name
    elif args.kind == "qrels":
        options.update(
            annotator=args.annotator, annotator_column=args.annotator_column, grade_map=grade_map
        )
    elif args.kind == "judgments":
        options["grade_map"] = grade_map
    elif args.kind == "smart":
        options.update(smart_kind=args.smart_kind, renumber=args.renumber)
    big = path.stat().st_size > 200_000  # a few thousand lines
    db = open_db(args)
    try:
        with terminal_progress(big and not args.quiet, f"importing {path.name}") as progress:
            summary = ImportService(db).import_file(args.kind, path, progress=progress, **options)
    finally:
        db.dispose()
    print(summary.message(), file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------------ score


@command("score")
def score_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.scoring import ScoringService, summarize

    settings = scoring_settings(args)
    db = open_db(args)
    try:
        report = ScoringService(db).score(settings)
    finally:
        db.dispose()
    comments = [f"ndcg-studio score: {settings.describe()}"] if args.output != "-" else []
    if args.summary:
        header = (
            "run",
            "k",
            "mean_ndcg",
            "ci_low",
            "ci_high",
            "n_queries",
            "n_without_judgments",
            "n_missing_from_run",
        )
        rows = [
            (
                s.run,
                settings.k,
                s.ndcg.mean,
                s.ndcg.low,
                s.ndcg.high,
                s.n_queries,
                s.n_without_judgments,
                s.n_missing_from_run,
            )
            for s in summarize(report)
        ]
        write_rows(args, header, rows, comments=comments)
        return 0
    if args.format == "csv":
        from ndcg_studio.io.writers import write_csv_columns

        write_csv_columns(
            args.output,
            report.columns(),
            report.column_values(),
            excel=args.excel,
            comments=comments,
        )
    else:
        write_rows(args, report.columns(), report.rows(), comments=comments)
    return 0


# ------------------------------------------------------------------------------------- demo


@command("demo")
def demo_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.demo import load_demo

    db = open_db(args)
    try:
        with terminal_progress(True, "loading the Cranfield demo") as progress:
            summary = load_demo(db, progress=progress)
    finally:
        db.dispose()
    print(summary, file=sys.stderr)
    print(f"database: {db.label}", file=sys.stderr)
    return 0


# -------------------------------------------------------------------------------- agreement


def agreement_settings(args: argparse.Namespace) -> Any:
    from ndcg_studio.services.agreement import AgreementSettings

    if args.disputed_range < 1:
        raise ValueError(f"--disputed-range must be at least 1, got {args.disputed_range}")
    return AgreementSettings(level=args.level, disputed_range=args.disputed_range)


@command("agreement")
def agreement_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting import ExportService

    db = open_db(args)
    try:
        table = ExportService(db).agreement(agreement_settings(args), args.by)
    finally:
        db.dispose()
    # on screen, only the notes (why a statistic is undefined); files get the provenance too
    comments = table.comments if args.output != "-" else table.comments[1:]
    write_rows(args, table.header, table.rows, comments=comments)
    return 0


# ----------------------------------------------------------------------------------- export


@command("export")
def export_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting import ExportService

    db = open_db(args)
    try:
        n = ExportService(db).write(
            args.kind,
            args.output,
            settings=scoring_settings(args),
            agreement=agreement_settings(args),
            by=args.by,
            wide=args.wide,
            runs=args.runs,
            excel=args.excel,
        )
    finally:
        db.dispose()
    if args.output != "-":
        print(f"{args.output}: {n:,} rows written", file=sys.stderr)
    return 0
