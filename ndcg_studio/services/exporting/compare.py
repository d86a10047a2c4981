"""Run comparisons as export tables: two runs' per-query deltas with the paired randomization
test (:func:`compare_table`), or N runs pair by pair with ANOVA, intervals, effect sizes and
corrected p-values (:func:`compare_many_table`, :mod:`ndcg_studio.services.scoring.multirun`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ndcg_studio.services.exporting.tables import About, Table
from ndcg_studio.services.scoring.multirun import PAIR_COLUMNS, Correction, MultiRunReport
from ndcg_studio.services.scoring.report import ScoreReport, compare
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens.cells import nan_to_none

__all__ = ["compare_many_table", "compare_table"]


def compare_table(report: ScoreReport, settings: ScoringSettings, run_a: str, run_b: str) -> Table:
    """Per-query nDCG of two runs of ``report`` and their delta; the test result in the
    settings notes.

    Columns ``query_id, ndcg_<run_a>, ndcg_<run_b>, delta``; a run compared with itself
    gives ``ndcg_<run>_a, ndcg_<run>_b`` (its own nDCG twice, delta 0, p = 1).

    Raises:
        LookupError: a run that is not in the report.
    """
    result = compare(report, run_a, run_b)
    ia, ib = report.for_run(run_a), report.for_run(run_b)
    a, b = report.table.ndcg[ia], report.table.ndcg[ib]
    rows = []
    for qi, va, vb in zip(report.group_query[ia].tolist(), a.tolist(), b.tolist(), strict=True):
        delta = va - vb
        rows.append(
            (report.query_external[qi], nan_to_none(va), nan_to_none(vb), nan_to_none(delta))
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


def compare_many_table(
    multi: MultiRunReport,
    settings: ScoringSettings,
    *,
    correction: Correction,
    baselines: Sequence[str],
    n_permutations: int,
    seed: int,
) -> Table:
    """One row per pair of runs (:data:`~ndcg_studio.services.scoring.multirun.PAIR_COLUMNS`) of a
    comparison already computed; the notes say how, and the two-way ANOVA table and the
    topic-set-size line go to the settings file (``about.details``: ``anova``,
    ``topic_set_size``)."""
    names = multi.runs
    rows = list(multi.rows(correction))
    anova = multi.comparison.anova
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
        multi.power_sentence(),
    ]
    described = (
        f"{replace(settings, runs=tuple(names)).describe()} correction={correction} "
        f"baselines={','.join(baselines) or 'none'} permutations={n_permutations} seed={seed}"
    )
    details = {
        "anova": _anova_dict(anova),
        "topic_set_size": _topic_set_size(multi),
        "queries_left_out": multi.n_dropped,
    }
    return Table(PAIR_COLUMNS, rows, About("compare", described, notes, details=details))


def _topic_set_size(multi: MultiRunReport) -> dict[str, Any]:
    """The smallest detectable delta of the comparison, for the settings file."""
    return {
        "n_queries": multi.n_queries,
        "alpha": 0.05,
        "power": 0.8,
        "residual_variance": _json_number(multi.comparison.anova.ms_residual),
        "min_detectable_delta": _json_number(multi.min_detectable_delta),
        "sentence": multi.power_sentence(),
        "source": "Sakai (2016), IRJ 19(3), Topic set size design; paired "
        "t-test with the ANOVA residual variance",
    }


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
