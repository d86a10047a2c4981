"""Handlers of the headless subcommands (named in :data:`ndcg_studio.cli.handlers.HANDLERS`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from ndcg_studio.cli.common import (
    TREC_FIELDS,
    UsageError,
    cell_text,
    check_output,
    input_file,
    open_db,
    trec_kind,
)
from ndcg_studio.services.wording import count
from ndcg_studio.vocabulary import DEFAULT_DISPUTED_RANGE

# ----------------------------------------------------------------------------- output helpers


def print_table(header: Sequence[str], rows: Iterable[Sequence[Any]], out: TextIO) -> None:
    """An aligned plain-text table (4 decimals, like trec_eval); empty cells for no value."""
    body = [[cell_text(v) for v in row] for row in rows]
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
    about: Any,
) -> None:
    """Write ``rows`` to ``--output`` (stdout for ``-``; files atomically): as an aligned table
    under its notes as ``# `` lines, as CSV whose line 1 is the header (the notes then go to
    stderr on screen) or as an xlsx workbook (:func:`~ndcg_studio.io.writers.write_table`). A
    file gets ``about`` (an :class:`~ndcg_studio.services.exporting.service.About`) written beside
    it
    as ``F.csv.settings.json`` (the whole name kept)."""
    from ndcg_studio.io.atomic import atomic_text_writer
    from ndcg_studio.io.writers import write_table

    if args.format == "table":
        with atomic_text_writer(args.output) as out:
            for note in about.notes:
                out.write(f"# {note}\n")
            print_table(header, rows, out)
    else:
        write_table(
            args.output,
            header,
            rows,
            file_format=args.format,
            excel=args.excel,
            settings=about.as_dict(),
        )
        if args.output == "-":
            for note in about.notes:
                print(f"note: {note}", file=sys.stderr)
    about.write(args.output)


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
    from ndcg_studio.services.scoring.settings import ScoringSettings

    default = ScoringSettings()
    runs = getattr(args, "run", None)
    return ScoringSettings(
        k=getattr(args, "k", default.k),
        gain=getattr(args, "gain", default.gain),
        custom_gains=getattr(args, "gains", None) or None,
        ideal=getattr(args, "ideal", default.ideal),
        order=getattr(args, "order", default.order),
        consensus=getattr(args, "consensus", default.consensus),
        annotator=getattr(args, "annotator", None),
        runs=tuple(runs) if runs else None,
    )


# ----------------------------------------------------------------------------------- import


def import_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.importing.service import ImportService

    path = Path(args.file)
    if args.source is not None and args.kind not in ("qrels", "judgments"):
        raise UsageError(f"--source: only for qrels and judgments, not {args.kind}")
    input_file(path)
    other = trec_kind(path) if args.kind in TREC_FIELDS else None
    if other is not None and other != args.kind:
        raise UsageError(
            f"{path}: this looks like a {other} file ({TREC_FIELDS[other]} columns, a "
            f"{args.kind} has {TREC_FIELDS[args.kind]}): use `import {other}`; "
            "nothing was written"
        )
    options: dict[str, Any] = {}
    if args.replace and args.kind != "run":
        raise UsageError(f"--replace: only for runs, not {args.kind}")
    if args.kind == "run":
        options.update(name=args.name, replace=args.replace)
    elif args.kind == "qrels":
        options.update(
            annotator=args.annotator,
            annotator_column=args.annotator_column,
            grade_map=args.grade_map,
        )
    elif args.kind == "judgments":
        options["grade_map"] = args.grade_map
    if args.source is not None:
        options.update(source=args.source, source_kind=args.source_kind)
    elif args.kind == "smart":
        options.update(smart_kind=args.smart_kind, renumber=args.renumber)
    big = path.stat().st_size > 200_000  # a few thousand lines
    db = open_db(args, must_exist=False)
    try:
        with terminal_progress(big and not args.quiet, f"importing {path.name}") as progress:
            summary = ImportService(db).import_file(args.kind, path, progress=progress, **options)
    finally:
        db.dispose()
    print(summary.message(), file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------------ score


def score_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting.tables import About
    from ndcg_studio.services.scoring.report import describe_measures

    settings = scoring_settings(args)
    check_output(args)
    if args.by_annotator:
        return _score_by_annotator(args, settings)
    every = getattr(args, "measures", "ndcg") == "all"
    report = _score(args, settings, every)
    about = About(
        "score --summary" if args.summary else "score",
        settings.describe() + (" measures=all" if every else ""),
        [describe_measures(settings)] if every else [],
    )
    if args.source is not None:
        about.settings += f" source={args.source}"
    if args.summary:
        header, rows = _summary_rows(report, settings, every)
        write_rows(args, header, rows, about)
        return 0
    if args.format == "csv":
        from ndcg_studio.io.writers import write_csv_columns

        write_csv_columns(args.output, report.columns(), report.column_values(), excel=args.excel)
        about.write(args.output)
    else:
        write_rows(args, report.columns(), report.rows(), about)
    return 0


def _score(args: argparse.Namespace, settings: Any, every: bool) -> Any:
    """The score report of ``score`` (against one judgment source with ``--source``)."""
    from ndcg_studio.services.scoring.service import ScoringService

    db = open_db(args)
    try:
        if args.source is not None:
            if settings.annotator:
                raise UsageError("--source: not with --annotator")
            if every:
                raise UsageError("--source: not with --measures all")
            from ndcg_studio.services.stability.service import StabilityService

            return StabilityService(db).score_source(args.source, settings)
        return ScoringService(db).score(settings, measures=every)
    finally:
        db.dispose()


def _summary_rows(report: Any, settings: Any, every: bool) -> tuple[tuple[str, ...], list[Any]]:
    """Header and rows of ``score --summary``: one row per run."""
    from ndcg_studio.services.scoring.report import INCOMPLETE_COLUMNS, measure_means
    from ndcg_studio.services.scoring.service import summarize

    header = (
        "run",
        "k",
        "mean_ndcg",
        "ci_low",
        "ci_high",
        "n_queries",
        "n_without_judgments",
        "n_missing_from_run",
        *(f"mean_{c}" for c in INCOMPLETE_COLUMNS if every),
    )
    means = measure_means(report)
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
            *(means[s.run].values() if every else ()),
        )
        for s in summarize(report)
    ]
    return header, rows


def _score_by_annotator(args: argparse.Namespace, settings: Any) -> int:
    """``score --by-annotator``: long rows query_id,run,annotator,source,kind,k,ndcg."""
    from ndcg_studio.services.exporting.tables import About
    from ndcg_studio.services.stability.report import BY_ANNOTATOR_COLUMNS
    from ndcg_studio.services.stability.service import StabilityService

    if args.summary or settings.annotator:
        raise UsageError("--by-annotator: not with --summary or --annotator")
    db = open_db(args)
    try:
        service = StabilityService(db)
        spread = service.spread(settings)
        rows = list(service.by_annotator_rows(spread))
    finally:
        db.dispose()
    about = About("score --by-annotator", settings.describe())
    about.notes.append(
        "one row per (query, run, annotator) where the annotator graded a document of the "
        f"query's pool (every run's top {settings.k}); ndcg scored on that annotator's grades only"
    )
    write_rows(args, BY_ANNOTATOR_COLUMNS, rows, about)
    return 0


# -------------------------------------------------------------------------------- stability


def stability_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting.tables import About
    from ndcg_studio.services.stability.report import STABILITY_COLUMNS
    from ndcg_studio.services.stability.service import StabilityService

    settings = scoring_settings(args)
    if settings.annotator:
        raise UsageError("--annotator: stability compares every grade set; leave it out")
    check_output(args)
    db = open_db(args)
    try:
        report = StabilityService(db).stability(
            args.by,
            settings,
            min_coverage=args.min_coverage,
            alpha=args.alpha,
            n_resamples=args.resamples,
        )
    finally:
        db.dispose()
    about = About(f"stability --by {args.by}", report.describe(), report.notes())
    if len(report.result.sets) < 2:
        about.notes.append(
            f"{count(len(report.result.sets), 'grade sets', 'grade set')} by {args.by}: "
            "nothing to compare"
        )
    write_rows(args, STABILITY_COLUMNS, report.rows(), about)
    return 0


# ------------------------------------------------------------------------------------- demo


def demo_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.demo import load_demo, load_examples

    examples = getattr(args, "examples", False)
    db = open_db(args, must_exist=False)
    try:
        what = "the worked examples" if examples else "the Cranfield demo"
        with terminal_progress(True, f"loading {what}") as progress:
            summary = (load_examples if examples else load_demo)(db, progress=progress)
    finally:
        db.dispose()
    print(summary, file=sys.stderr)
    print(f"database: {db.label}", file=sys.stderr)
    return 0


# -------------------------------------------------------------------------------- agreement


def agreement_settings(args: argparse.Namespace) -> Any:
    from ndcg_studio.services.agreement import AgreementSettings

    return AgreementSettings(
        level=getattr(args, "level", "ordinal"),
        disputed_range=getattr(args, "disputed_range", DEFAULT_DISPUTED_RANGE),
    )


def agreement_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting.service import ExportService

    check_output(args)
    db = open_db(args)
    try:
        table = ExportService(db).agreement(agreement_settings(args), args.by)
    finally:
        db.dispose()
    write_rows(args, table.header, table.rows, table.about)
    return 0


# ----------------------------------------------------------------------------------- export


def export_command(args: argparse.Namespace) -> int:
    from ndcg_studio.services.exporting.service import ExportRequest, ExportService

    settings = scoring_settings(args)
    if getattr(args, "correction", None) == "holm" and not getattr(args, "baseline", None):
        raise UsageError("--correction holm needs --baseline RUN (Holm is against a baseline)")
    check_output(args)
    db = open_db(args)
    try:
        request = ExportRequest(
            args.kind,
            args.output,
            settings=settings,
            agreement=agreement_settings(args),
            by=getattr(args, "by", "all"),
            wide=getattr(args, "wide", False),
            runs=getattr(args, "runs", None),
            correction=getattr(args, "correction", None),
            baselines=getattr(args, "baseline", None) or (),
            excel=getattr(args, "excel", False),
            file_format=args.format,
        )
        n = ExportService(db).write(request)
    finally:
        db.dispose()
    if args.output != "-":
        print(f"{args.output}: {count(n, 'rows')} written", file=sys.stderr)
    return 0
