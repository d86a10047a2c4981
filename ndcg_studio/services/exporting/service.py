"""Export use cases: reports, judgments (long and wide), qrels, agreement and run comparisons.

Each export is built as a :class:`Table` (header, rows, :class:`About`) and written by the
writers of :mod:`ndcg_studio.io.writers` — atomically, spreadsheet-safe (cells that a
spreadsheet would run as a formula are written as text, in a form the readers undo exactly),
optionally with a BOM for Excel. A CSV's first line is its header; the settings it was computed
with travel beside it, in ``F.csv.settings.json`` (:func:`ndcg_studio.io.writers.write_settings`),
so it can be reproduced. :meth:`ExportService.write` with ``file_format="xlsx"`` (or None and
a ``.xlsx`` path; :func:`ndcg_studio.io.writers.table_format`) writes any kind, qrels too, as
an Excel workbook instead, the settings also on its second sheet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.agreement import (
    AGREEMENT_COLUMNS,
    AgreementService,
    AgreementSettings,
)
from ndcg_studio.services.exporting.compare import compare_many_table, compare_table
from ndcg_studio.services.exporting.tables import About, ColumnTable, Table
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.multirun import Correction
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries import judgments, names
from ndcg_studio.vocabulary import EXPORT_KINDS, Scope

__all__ = ["REPORT_EXTRA", "ExportService"]

REPORT_EXTRA = ("query_text", "query_alpha")
#: Columns of the long judgments export.
JUDGMENT_COLUMNS = (
    "query_id",
    "doc_id",
    "annotator",
    "grade",
    "note",
    "updated_at",
    "source",
    "source_kind",
)


@dataclass(frozen=True)
class ExportRequest:
    """One export: what (``kind``, one of :data:`~ndcg_studio.vocabulary.EXPORT_KINDS`) goes where
    (``path``, ``-`` = stdout), with the options of its kind.

    ``settings``: what the scores are (report, compare, qrels); ``agreement``, ``by``: the
    agreement export; ``wide``: the judgments export with one column per annotator; ``runs``,
    ``correction``, ``baselines``: compare (``runs`` None when the database holds exactly two);
    ``excel``: a CSV for spreadsheets (a BOM); ``file_format``: ``csv``, ``xlsx`` or ``trec``
    (None: from the path's suffix)."""

    kind: str
    path: str | Path
    settings: ScoringSettings = field(default_factory=ScoringSettings)
    agreement: AgreementSettings = field(default_factory=AgreementSettings)
    by: Scope = "all"
    wide: bool = False
    runs: Sequence[str] | None = None
    correction: Correction | None = None
    baselines: Sequence[str] = ()
    excel: bool = False
    file_format: str | None = None


class ExportService:
    """Builds and writes exports of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --------------------------------------------------------------- tables
    def report(
        self,
        settings: ScoringSettings,
        level: str = "ordinal",
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ColumnTable:
        """One row per (query, run): the score columns, the query text and per-query alpha
        (empty where undefined)."""
        report = ScoringService(self.db).score(settings, cancelled=cancelled)
        checkpoint(1, 3, progress, cancelled)
        alpha_of = AgreementService(self.db).per_query_alpha(level)  # type: ignore[arg-type]
        checkpoint(2, 3, progress, cancelled)
        with self.db.engine.connect() as conn:
            texts = names.query_texts_by_external(conn, report.query_ids.tolist())
        values = report.column_values()
        query_ids: list[str] = values[0]  # type: ignore[assignment]
        return ColumnTable(
            header=(*report.columns(), *REPORT_EXTRA),
            columns=[
                *values,
                [texts.get(q, "") for q in query_ids],
                np.array([alpha_of.get(q, math.nan) for q in query_ids], dtype=np.float64),
            ],
            about=About(
                "report",
                f"{settings.describe()} agreement_level={level}",
                [
                    "ndcg empty = the query has no judgment (left out of means); query_alpha "
                    "empty = undefined (fewer than two grades per item or one grade value)"
                ],
            ),
        )

    def judgments(self, *, wide: bool = False) -> Table | ColumnTable:
        """Every judgment: long ``query_id,doc_id,annotator,grade,note,updated_at,source,
        source_kind`` (the annotator's judgment source, empty for none; ``import judgments``
        ignores the two) or wide (one grade column per annotator, empty where that annotator
        did not judge)."""
        with self.db.engine.connect() as conn:
            data = judgments.judgment_rows(conn)
        if not wide:
            iso = {raw: _iso(raw) for raw in set(data.updated_at)}
            columns: list[Sequence[Any] | NDArray[Any]] = [
                data.query,
                data.doc,
                data.annotator,
                data.grade,
                data.note,
                [iso[raw] for raw in data.updated_at],
                data.source,
                data.source_kind,
            ]
            return ColumnTable(JUDGMENT_COLUMNS, columns, About("judgments", "long"))
        annotators = sorted(set(data.annotator))
        col = {name: i for i, name in enumerate(annotators)}
        items: dict[tuple[str, str], list[Any]] = {}
        for q, d, a, g in zip(data.query, data.doc, data.annotator, data.grade, strict=True):
            items.setdefault((q, d), [None] * len(annotators))[col[a]] = g
        return Table(
            header=("query_id", "doc_id", *annotators),
            rows=[(qid, did, *grades) for (qid, did), grades in items.items()],
            about=About("judgments", "wide"),
        )

    def qrels(self, settings: ScoringSettings) -> list[tuple[str, str, int]]:
        """Consensus grades (or one annotator's, ``settings.annotator``) as qrels rows.

        Raises:
            ValueError: a consensus grade is fractional (qrels hold integers): choose
                ``majority``, ``max`` or ``min`` consensus, or one annotator.
        """
        data = ScoringService(self.db).load(ScoringRead(settings))
        qrels = data.qrels
        grades = qrels.grade
        fractional = grades != np.round(grades)
        if fractional.any():
            raise ValueError(
                f"{int(fractional.sum())} consensus grades are fractional "
                f"({settings.consensus} of several annotators) and qrels hold integer grades: "
                "export with --consensus majority, max or min, or with --annotator NAME"
            )
        with self.db.engine.connect() as conn:
            doc_names = names.document_external_ids(conn, data.doc_ids)
        # external ids by index, picked for every row by numpy (object arrays): no Python
        # work per row but the final zip
        query_names = np.array(data.query_external, dtype=object)[qrels.query]
        docs = np.array([doc_names[int(d)] for d in data.doc_ids.tolist()], dtype=object)
        return list(
            zip(
                query_names.tolist(),
                docs[qrels.doc].tolist(),
                grades.astype(np.int64).tolist(),
                strict=True,
            )
        )

    def agreement(self, settings: AgreementSettings, by: Scope) -> Table:
        report = AgreementService(self.db).report(settings)
        about = About(
            "agreement",
            f"level={settings.level} by={by} disputed_range={settings.disputed_range} "
            f"bootstrap={settings.n_resamples} items resampled, seed={settings.seed}",
        )
        s = report.summary
        if s.alpha.undefined_reason:
            about.notes.append(f"{report.statistic} undefined: {s.alpha.undefined_reason}")
        if s.fleiss.undefined_reason:
            about.notes.append(f"fleiss_kappa undefined: {s.fleiss.undefined_reason}")
        return Table(header=AGREEMENT_COLUMNS, rows=list(report.rows(by)), about=about)

    def compare(self, settings: ScoringSettings, run_a: str, run_b: str) -> Table:
        """Per-query nDCG of two runs and their delta; the test result in the settings notes
        (:func:`~ndcg_studio.services.exporting.compare.compare_table`)."""
        # a run named twice is scored once (twice would make two copies of its groups)
        runs = tuple(dict.fromkeys((run_a, run_b)))
        report = ScoringService(self.db).score(replace(settings, runs=runs))
        return compare_table(report, settings, run_a, run_b)

    def compare_many(
        self,
        settings: ScoringSettings,
        runs: Sequence[str],
        *,
        correction: Correction | None = None,
        baselines: Sequence[str] = (),
        n_permutations: int = 1000,
        seed: int = 0,
    ) -> Table:
        """One row per pair of runs (:data:`ndcg_studio.services.scoring.multirun.PAIR_COLUMNS`).

        All pairs, or with ``baselines`` the pairs with a baseline (the baseline as run_a);
        ``delta = mean_a - mean_b`` over the queries every run has a value for. ``p`` is the
        paired randomization test, ``p_adjusted`` the topic-blocked randomised Tukey HSD
        (``correction="tukey"``, default without baselines) or Holm over the baseline pairs
        (``"holm"``, default with baselines). The two-way ANOVA table and the topic-set-size
        line go to the settings file (``about.details``: ``anova``, ``topic_set_size``).

        Raises:
            ValueError: fewer than two runs or queries; Holm without a baseline.
            LookupError: an unknown run, or a baseline not among ``runs``.
        """
        from ndcg_studio.services.scoring.multirun import compare_report_runs

        chosen = list(dict.fromkeys(runs))
        if len(chosen) != len(runs):
            raise ValueError(f"compare: a run is named twice in {', '.join(runs)}")
        correction = correction or ("holm" if baselines else "tukey")
        if correction == "holm" and not baselines:
            raise ValueError("Holm's correction is against a baseline: give --baseline RUN")
        report = ScoringService(self.db).score(replace(settings, runs=tuple(chosen)))
        multi = compare_report_runs(
            report, chosen, baselines=baselines, n_permutations=n_permutations, seed=seed
        )
        return compare_many_table(
            multi,
            settings,
            correction=correction,
            baselines=baselines,
            n_permutations=n_permutations,
            seed=seed,
        )

    def run_names(self) -> list[str]:
        """Every run's name, ascending (the choices of a comparison)."""
        with self.db.engine.connect() as conn:
            return names.sorted_run_names(conn)

    def _the_two_runs(self) -> list[str]:
        """The database's runs when there are exactly two (a comparison needs no names then).

        Raises:
            ValueError: another number of runs (the message lists them).
        """
        run_names = self.run_names()
        if len(run_names) != 2:
            known = ", ".join(run_names[:10]) + (", ..." if len(run_names) > 10 else "") or "none"
            raise ValueError(
                f"compare needs two runs: give them with --runs RUN_A RUN_B "
                f"(the database has {len(run_names)}: {known})"
            )
        return run_names

    # --------------------------------------------------------------- writing
    def write(
        self,
        request: ExportRequest,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> int:
        """Write the export ``request`` asks for to its path (``-`` = stdout) and its settings
        beside it (``F.csv.settings.json``, :func:`ndcg_studio.io.writers.write_settings`; none for
        stdout).

        Compare writes the per-query deltas of two runs (:meth:`compare`), or, for more than two
        runs or with a ``correction`` or ``baselines``, one row per pair (:meth:`compare_many`).

        Returns:
            The number of rows written.

        Raises:
            ValueError: unknown kind; compare without two runs; fractional consensus qrels.
            LookupError: an unknown run or annotator.
            OSError: writing failed (an existing file is left intact).
        """
        from ndcg_studio.io.writers import table_format

        r = request
        file_format = "csv" if r.file_format == "trec" else r.file_format
        chosen = table_format(r.path, file_format)
        if r.kind == "qrels":
            return self._write_qrels(r.settings, r.path, chosen, progress, cancelled)
        table: Table | ColumnTable
        if r.kind == "report":
            table = self.report(
                r.settings, r.agreement.level, progress=progress, cancelled=cancelled
            )
        elif r.kind == "judgments":
            table = self.judgments(wide=r.wide)
        elif r.kind == "agreement":
            table = self.agreement(r.agreement, r.by)
        elif r.kind == "compare":
            table = self._compare_table(r.settings, r.runs, r.correction, r.baselines)
        else:
            kinds = ", ".join(EXPORT_KINDS)
            raise ValueError(f"unknown export kind {r.kind!r}; one of {kinds}")
        checkpoint(2, 3, progress, cancelled)
        n = table.write_csv(r.path, excel=r.excel, cancelled=cancelled, file_format=chosen)
        checkpoint(3, 3, progress, cancelled)
        return n

    def _write_qrels(
        self,
        settings: ScoringSettings,
        path: str | Path,
        chosen: str,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> int:
        """The qrels export: TREC qrels, or an xlsx workbook of the same rows."""
        from ndcg_studio.io.trec.writers import write_trec_qrels

        rows = self.qrels(settings)
        checkpoint(1, 2, progress, cancelled)
        if chosen == "xlsx":
            about = About("qrels", settings.describe())
            qrels = Table(("query_id", "doc_id", "grade"), list(rows), about)
            return qrels.write_csv(path, excel=False, cancelled=cancelled, file_format=chosen)
        n = write_trec_qrels(path, rows, cancelled=cancelled)
        About("qrels", settings.describe()).write(path)
        return n

    def _compare_table(
        self,
        settings: ScoringSettings,
        runs: Sequence[str] | None,
        correction: Correction | None,
        baselines: Sequence[str],
    ) -> Table:
        """Two runs' deltas, or N runs pair by pair (see :meth:`write`)."""
        runs = runs or self._the_two_runs()
        if len(runs) < 2:
            raise ValueError(
                f"compare needs two or more runs, got {len(runs)}: --runs RUN_A RUN_B [...]"
            )
        if len(runs) == 2 and correction is None and not baselines:
            return self.compare(settings, runs[0], runs[1])
        return self.compare_many(settings, runs, correction=correction, baselines=baselines)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return str(value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    return "" if value is None else str(value)
