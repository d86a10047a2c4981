"""Export use cases: reports, judgments (long and wide), qrels, agreement and run comparisons.

Each export is built as a :class:`Table` (header, rows, :class:`About`) and written by the
writers of :mod:`ndcg_studio.io.writers` — atomically, spreadsheet-safe (cells that a
spreadsheet would run as a formula are written as text, in a form the readers undo exactly),
optionally with a BOM for Excel. A CSV's first line is its header; the settings it was computed
with travel beside it, in ``F.settings.json`` (:func:`ndcg_studio.io.writers.write_settings`),
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
from sqlalchemy import select

from ndcg_studio import __version__
from ndcg_studio.services._cells import nan_to_none
from ndcg_studio.services.agreement import (
    AGREEMENT_COLUMNS,
    AgreementService,
    AgreementSettings,
)
from ndcg_studio.services.multirun import Correction
from ndcg_studio.services.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.scoring import (
    ScoringService,
    ScoringSettings,
    compare,
)
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import column_by_id
from ndcg_studio.storage.database import Database
from ndcg_studio.vocabulary import EXPORT_KINDS, Scope

REPORT_EXTRA = ("query_text", "query_alpha")


@dataclass
class About:
    """What produced an export: its kind, the settings (one line that reproduces it) and notes
    (why a value is empty, a test's result), written beside the file as JSON."""

    kind: str
    settings: str = ""
    notes: list[str] = field(default_factory=list)
    #: further JSON-serialisable sections (e.g. a comparison's ANOVA table), after ``notes``
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The settings file's content (tool, version, time in UTC, settings, notes, then any
        ``details``)."""
        return {
            "what": self.kind,
            "written_by": f"ndcg-studio {__version__}",
            "written_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "settings": self.settings,
            "notes": list(self.notes),
            **self.details,
        }

    def write(self, path: str | Path) -> None:
        """Write the settings file beside ``path`` (nothing for ``-``, standard output)."""
        from ndcg_studio.io.writers import write_settings

        write_settings(path, self.as_dict())


@dataclass
class Table:
    """Rows to write: ``header``, ``rows`` (sequences in header order) and ``about``."""

    header: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    about: About

    def write_csv(
        self,
        path: str | Path,
        *,
        excel: bool,
        cancelled: Cancelled | None,
        file_format: str = "csv",
    ) -> int:
        """:func:`ndcg_studio.io.writers.write_table` of this table (CSV or xlsx), then its
        settings file; the rows written."""
        from ndcg_studio.io.writers import write_table

        n = write_table(
            path,
            self.header,
            self.rows,
            file_format=file_format,
            excel=excel,
            settings=self.about.as_dict(),
            cancelled=cancelled,
        )
        self.about.write(path)
        return n


@dataclass
class ColumnTable:
    """Like :class:`Table`, held column by column (lists or arrays of one length), which the
    column writer formats a column at a time (:func:`ndcg_studio.io.writers.write_csv_columns`)."""

    header: tuple[str, ...]
    columns: list[Sequence[Any] | NDArray[Any]]
    about: About

    def write_csv(
        self,
        path: str | Path,
        *,
        excel: bool,
        cancelled: Cancelled | None,
        file_format: str = "csv",
    ) -> int:
        """:func:`ndcg_studio.io.writers.write_table` of this table (CSV a column at a time,
        or xlsx), then its settings file; the rows written."""
        from ndcg_studio.io.writers import write_table

        n = write_table(
            path,
            self.header,
            columns=self.columns,
            file_format=file_format,
            excel=excel,
            settings=self.about.as_dict(),
            cancelled=cancelled,
        )
        self.about.write(path)
        return n


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
            q = models.queries
            texts = dict(
                conn.execute(
                    select(q.c.external_id, q.c.text).where(
                        q.c.id.in_([int(i) for i in report.query_ids])
                    )
                ).all()
            )
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
        j, q, d, a = models.judgments, models.queries, models.documents, models.annotators
        src, member = models.sources, models.annotator_sources
        stmt = (
            select(
                q.c.external_id,
                d.c.external_id,
                a.c.name,
                j.c.grade,
                j.c.note,
                j.c.updated_at,
                src.c.name,
                src.c.kind,
            )
            .select_from(j.join(q, q.c.id == j.c.query_id).join(d, d.c.id == j.c.document_id))
            .join(a, a.c.id == j.c.annotator_id)
            .outerjoin(member, member.c.annotator_id == a.c.id)
            .outerjoin(src, src.c.id == member.c.source_id)
            .order_by(q.c.external_id, d.c.external_id, a.c.name)
        )
        with self.db.engine.connect() as conn:
            # the driver's own rows: no Row object and no timestamp parsed per row (imports give
            # all their rows one timestamp, so each distinct value is converted once below)
            result = conn.execute(stmt)
            try:
                data = result.cursor.fetchall()
            finally:
                result.close()
            parse = j.c.updated_at.type.dialect_impl(conn.dialect).result_processor(
                conn.dialect, None
            )
        if not wide:
            iso: dict[Any, str] = {}
            for raw in {r[5] for r in data}:
                iso[raw] = _iso(parse(raw) if parse is not None and raw is not None else raw)
            q_ext, d_ext, names, grades, notes, stamps, sources, kinds = (
                zip(*data, strict=True) if data else ((),) * 8
            )
            return ColumnTable(
                header=(
                    "query_id",
                    "doc_id",
                    "annotator",
                    "grade",
                    "note",
                    "updated_at",
                    "source",
                    "source_kind",
                ),
                columns=[
                    list(q_ext),
                    list(d_ext),
                    list(names),
                    [int(g) for g in grades],
                    list(notes),
                    [iso[raw] for raw in stamps],
                    list(sources),
                    list(kinds),
                ],
                about=About("judgments", "long"),
            )
        annotators = sorted({r[2] for r in data})
        col = {name: i for i, name in enumerate(annotators)}
        items: dict[tuple[str, str], list[Any]] = {}
        for r in data:
            items.setdefault((r[0], r[1]), [None] * len(annotators))[col[r[2]]] = int(r[3])
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
        data = ScoringService(self.db).load(settings)
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
            names = column_by_id(conn, models.documents, data.doc_ids, "external_id")
        # external ids by index, picked for every row by numpy (object arrays): no Python
        # work per row but the final zip
        query_names = np.array(data.query_external, dtype=object)[qrels.query]
        doc_names = np.array([names[int(d)] for d in data.doc_ids.tolist()], dtype=object)
        return list(
            zip(
                query_names.tolist(),
                doc_names[qrels.doc].tolist(),
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
        """Per-query nDCG of two runs and their delta; the test result in the settings notes.

        Columns ``query_id, ndcg_<run_a>, ndcg_<run_b>, delta``; a run compared with itself
        gives ``ndcg_<run>_a, ndcg_<run>_b`` (its own nDCG twice, delta 0, p = 1).
        """
        # a run named twice is scored once (twice would make two copies of its groups)
        runs = tuple(dict.fromkeys((run_a, run_b)))
        report = ScoringService(self.db).score(replace(settings, runs=runs))
        result = compare(report, run_a, run_b)
        ia, ib = report.for_run(run_a), report.for_run(run_b)
        a, b = report.table.ndcg[ia], report.table.ndcg[ib]
        rows = []
        for qi, va, vb in zip(report.group_query[ia].tolist(), a.tolist(), b.tolist(), strict=True):
            delta = va - vb
            rows.append(
                (
                    report.query_external[qi],
                    nan_to_none(va),
                    nan_to_none(vb),
                    nan_to_none(delta),
                )
            )
        names = (run_a, run_b) if run_a != run_b else (f"{run_a}_a", f"{run_b}_b")
        return Table(
            header=("query_id", f"ndcg_{names[0]}", f"ndcg_{names[1]}", "delta"),
            rows=rows,
            about=About(
                "compare",
                replace(settings, runs=(run_a, run_b)).describe(),
                [
                    f"paired queries {result.n}: mean {run_a} {result.mean_a:.4f}, "
                    f"mean {run_b} {result.mean_b:.4f}, mean delta {result.mean_delta:+.4f}; "
                    f"wins {result.wins}, losses {result.losses}, ties {result.ties}; "
                    f"paired randomization test p = {result.p_value:.4g}"
                ],
            ),
        )

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
        """One row per pair of runs (:data:`ndcg_studio.services.multirun.PAIR_COLUMNS`).

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
        from ndcg_studio.services.multirun import PAIR_COLUMNS, compare_report_runs

        names = list(dict.fromkeys(runs))
        if len(names) != len(runs):
            raise ValueError(f"compare: a run is named twice in {', '.join(runs)}")
        correction = correction or ("holm" if baselines else "tukey")
        if correction == "holm" and not baselines:
            raise ValueError("Holm's correction is against a baseline: give --baseline RUN")
        report = ScoringService(self.db).score(replace(settings, runs=tuple(names)))
        multi = compare_report_runs(
            report, names, baselines=baselines, n_permutations=n_permutations, seed=seed
        )
        rows = list(multi.rows(correction))
        anova = multi.comparison.anova
        power_line = multi.power_sentence()
        adjusted = (
            f"randomised Tukey HSD over all {len(names) * (len(names) - 1) // 2} pairs "
            f"(Carterette 2012; run labels permuted within each query, {n_permutations} "
            "permutations)"
            if correction == "tukey"
            else f"Holm-Bonferroni over the {len(rows)} pairs with the baseline(s)"
        )
        notes = [
            f"{multi.n_queries} queries that every run has a value for"
            + (f" ({multi.n_dropped} left out)" if multi.n_dropped else "")
            + "; delta = mean_a - mean_b; ci = 95% paired bootstrap percentile interval; "
            "effect_size = delta / sqrt(ANOVA residual mean square) (Sakai 2014); "
            f"p = paired randomization test (two-sided); p_adjusted = {adjusted}",
            f"two-way ANOVA (run x query): F(run) = {anova.f_run:.4g} on "
            f"{anova.df_run}, {anova.df_residual} df, p = {anova.p_run:.4g}; residual mean "
            f"square {anova.ms_residual:.4g}",
            power_line,
        ]
        return Table(
            header=PAIR_COLUMNS,
            rows=rows,
            about=About(
                "compare",
                f"{replace(settings, runs=tuple(names)).describe()} correction={correction} "
                f"baselines={','.join(baselines) or 'none'} permutations={n_permutations} "
                f"seed={seed}",
                notes,
                details={
                    "anova": _anova_dict(anova),
                    "topic_set_size": {
                        "n_queries": multi.n_queries,
                        "alpha": 0.05,
                        "power": 0.8,
                        "residual_variance": _json_number(anova.ms_residual),
                        "min_detectable_delta": _json_number(multi.min_detectable_delta),
                        "sentence": power_line,
                        "source": "Sakai (2016), IRJ 19(3), Topic set size design; paired "
                        "t-test with the ANOVA residual variance",
                    },
                    "queries_left_out": multi.n_dropped,
                },
            ),
        )

    def _the_two_runs(self) -> list[str]:
        """The database's runs when there are exactly two (a comparison needs no names then).

        Raises:
            ValueError: another number of runs (the message lists them).
        """
        with self.db.engine.connect() as conn:
            names = list(
                conn.execute(select(models.runs.c.name).order_by(models.runs.c.name)).scalars()
            )
        if len(names) != 2:
            known = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "") or "none"
            raise ValueError(
                f"compare needs two runs: give them with --runs RUN_A RUN_B "
                f"(the database has {len(names)}: {known})"
            )
        return names

    # --------------------------------------------------------------- writing
    def write(
        self,
        kind: str,
        path: str | Path,
        *,
        settings: ScoringSettings | None = None,
        agreement: AgreementSettings | None = None,
        by: Scope = "all",
        wide: bool = False,
        runs: Sequence[str] | None = None,
        correction: Correction | None = None,
        baselines: Sequence[str] = (),
        excel: bool = False,
        file_format: str | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> int:
        """Write one export to ``path`` (``-`` = stdout) and its settings beside it
        (``F.settings.json``, :func:`ndcg_studio.io.writers.write_settings`; none for stdout).

        ``runs`` (compare) may be None when the database holds exactly two runs. Compare
        writes the per-query deltas of two runs (:meth:`compare`), or, for more than two runs
        or with a ``correction`` or ``baselines``, one row per pair (:meth:`compare_many`).

        Returns:
            The number of rows written.

        Raises:
            ValueError: unknown kind; compare without two runs; fractional consensus qrels.
            LookupError: an unknown run or annotator.
            OSError: writing failed (an existing file is left intact).
        """
        from ndcg_studio.io.writers import table_format, write_trec_qrels

        settings = settings or ScoringSettings()
        agreement = agreement or AgreementSettings()
        chosen = table_format(path, "csv" if file_format == "trec" else file_format)
        if kind == "qrels":
            rows = self.qrels(settings)
            checkpoint(1, 2, progress, cancelled)
            if chosen == "xlsx":
                about = About("qrels", settings.describe())
                qrels = Table(("query_id", "doc_id", "grade"), list(rows), about)
                return qrels.write_csv(path, excel=False, cancelled=cancelled, file_format=chosen)
            n = write_trec_qrels(path, rows, cancelled=cancelled)
            About("qrels", settings.describe()).write(path)
            return n
        table: Table | ColumnTable
        if kind == "report":
            table = self.report(settings, agreement.level, progress=progress, cancelled=cancelled)
        elif kind == "judgments":
            table = self.judgments(wide=wide)
        elif kind == "agreement":
            table = self.agreement(agreement, by)
        elif kind == "compare":
            runs = runs or self._the_two_runs()
            if len(runs) < 2:
                raise ValueError(
                    f"compare needs two or more runs, got {len(runs)}: --runs RUN_A RUN_B [...]"
                )
            if len(runs) == 2 and correction is None and not baselines:
                table = self.compare(settings, runs[0], runs[1])
            else:
                table = self.compare_many(
                    settings, runs, correction=correction, baselines=baselines
                )
        else:
            raise ValueError(f"unknown export kind {kind!r}; one of {', '.join(EXPORT_KINDS)}")
        checkpoint(2, 3, progress, cancelled)
        n = table.write_csv(path, excel=excel, cancelled=cancelled, file_format=chosen)
        checkpoint(3, 3, progress, cancelled)
        return n


def _json_number(value: float) -> float | None:
    """JSON has no NaN or infinity: None (null) for them."""
    return float(value) if math.isfinite(value) else None


def _anova_dict(anova: Any) -> dict[str, Any]:
    """The ANOVA table as JSON: one entry per source (run, query, residual, total)."""
    out: dict[str, Any] = {}
    for source in ("run", "query", "residual", "total"):
        row: dict[str, Any] = {"ss": _json_number(getattr(anova, f"ss_{source}"))}
        if source != "total":
            row["df"] = getattr(anova, f"df_{source}")
            row["ms"] = _json_number(getattr(anova, f"ms_{source}"))
        if source in ("run", "query"):
            row["f"] = _json_number(getattr(anova, f"f_{source}"))
            row["p"] = _json_number(getattr(anova, f"p_{source}"))
        out[source] = row
    out["df_total"] = anova.df_run + anova.df_query + anova.df_residual
    out["source"] = "two-way ANOVA without replication (Sakai 2014); equals statsmodels anova_lm"
    return out


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return str(value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    return "" if value is None else str(value)
