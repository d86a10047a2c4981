"""Compare N runs of a score report: ANOVA, pairwise deltas, effect sizes, corrected p-values.

Takes the per-query nDCG@K of a :class:`ndcg_studio.services.scoring.service.ScoreReport`, keeps the
queries where every chosen run has a value (queries without judgments have none), and runs
:func:`ndcg_studio.domain.statistics.multirun.compare_many` on the (runs x queries) matrix. The
rows of
:meth:`MultiRunReport.rows` are those of ``export compare`` for N runs (columns
:data:`PAIR_COLUMNS`), with ``delta = mean_a - mean_b``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.statistics.multirun import PairwiseComparison, compare_many
from ndcg_studio.domain.statistics.topic_set_size import (
    TopicSetSize,
    min_detectable_delta,
    topic_set_size,
)
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.services.scoring.service import bootstrap_resamples
from ndcg_studio.services.wording import count

__all__ = ["PAIR_COLUMNS", "Correction", "MultiRunReport", "compare_report_runs"]

#: Columns of one pair, in this order.
PAIR_COLUMNS = (
    "run_a",
    "run_b",
    "mean_a",
    "mean_b",
    "delta",
    "ci_low",
    "ci_high",
    "effect_size",
    "p",
    "p_adjusted",
)

Correction = Literal["tukey", "holm"]


@dataclass(frozen=True, eq=False)
class MultiRunReport:
    """N runs compared on the queries they all have a value for.

    Attributes:
        runs: run names, in the order given; the domain's run index i is ``runs[i]``.
        query_external: external ids of the queries used (n_queries of them).
        n_dropped: queries of the report left out (some chosen run has no value there).
        comparison: the domain result (ANOVA table, pair arrays).
        baselines: baseline run names (Holm's family: the pairs with a baseline).
        min_detectable_delta: the smallest delta the paired t-test detects with these queries
            at alpha = 0.05 and 80% power, from the ANOVA residual variance (Sakai 2016); NaN
            when the residual variance is 0.
    """

    runs: list[str]
    query_external: list[str]
    n_dropped: int
    comparison: PairwiseComparison
    baselines: list[str]
    min_detectable_delta: float

    @property
    def n_queries(self) -> int:
        return len(self.query_external)

    def power_sentence(self) -> str:
        """The smallest detectable delta in words: "with 225 queries you can detect Δ ≥ 0.031
        at 80% power" (paired t-test, alpha = 0.05, Sakai 2016)."""
        n = self.n_queries
        if not np.isfinite(self.min_detectable_delta):
            return (
                f"with {n} queries: the residual variance is 0 (every query moves the runs "
                "alike), so no smallest detectable Δ can be stated"
            )
        return f"with {n} queries you can detect Δ ≥ {self.min_detectable_delta:.3f} at 80% power"

    def queries_needed(
        self, delta: float, *, target_power: float = 0.8, alpha: float = 0.05
    ) -> TopicSetSize:
        """Queries the paired t-test needs to detect ``delta`` with this comparison's residual
        variance (Sakai 2016; :func:`ndcg_studio.domain.statistics.topic_set_size.topic_set_size`).

        Raises:
            ValueError: delta <= 0, a bad alpha/power, or a residual variance of 0.
        """
        return topic_set_size(
            delta, self.comparison.anova.ms_residual, alpha=alpha, target_power=target_power
        )

    def pairs(self) -> NDArray[np.intp]:
        """Indices of the pairs to report: all pairs, or those with a baseline."""
        c = self.comparison
        if not self.baselines:
            return np.arange(c.run_a.shape[0], dtype=np.intp)
        chosen = [self.runs.index(b) for b in self.baselines]
        return np.flatnonzero(np.isin(c.run_a, chosen) | np.isin(c.run_b, chosen))

    def rows(self, correction: Correction = "tukey") -> Iterator[tuple[Any, ...]]:
        """One row per pair in :data:`PAIR_COLUMNS` order.

        Without baselines: every pair (a, b) with a before b in ``runs``. With baselines: the
        pairs with a baseline, the baseline as run_a (the earlier one when both are
        baselines), so delta = baseline - other. ``p_adjusted`` is the randomised Tukey HSD
        (all pairs) or Holm over the baseline pairs.

        Raises:
            ValueError: ``correction="holm"`` without a baseline, or an unknown correction.
        """
        if correction not in ("tukey", "holm"):
            raise ValueError(f"correction must be 'tukey' or 'holm', got {correction!r}")
        if correction == "holm" and not self.baselines:
            raise ValueError("Holm's correction needs a baseline run")
        c = self.comparison
        adjusted = c.p_tukey if correction == "tukey" else c.p_holm
        baseline_index = {self.runs.index(b) for b in self.baselines}
        for i in self.pairs().tolist():
            a, b = int(c.run_a[i]), int(c.run_b[i])
            mean_a, mean_b = float(c.mean_a[i]), float(c.mean_b[i])
            delta, low, high = float(c.delta[i]), float(c.ci_low[i]), float(c.ci_high[i])
            effect = float(c.effect_size[i])
            if baseline_index and a not in baseline_index:  # b is the baseline: swap
                a, b, mean_a, mean_b = b, a, mean_b, mean_a
                delta, low, high, effect = -delta, -high, -low, -effect
            yield (
                self.runs[a],
                self.runs[b],
                mean_a,
                mean_b,
                delta,
                low,
                high,
                effect,
                float(c.p[i]),
                float(adjusted[i]),
            )


class TooFewQueries(ValueError):
    """Fewer than two queries have a value under every run compared: no test is possible."""


def compare_report_runs(
    report: ScoreReport,
    runs: Sequence[str],
    *,
    baselines: Sequence[str] = (),
    n_resamples: int | None = None,
    n_permutations: int = 1000,
    seed: int = 0,
) -> MultiRunReport:
    """ANOVA, pairwise bootstrap intervals, effect sizes and corrected p-values of ``runs``.

    Args:
        report: a score report holding the runs.
        runs: two or more distinct run names.
        baselines: run names among ``runs`` for Holm's correction.
        n_resamples: bootstrap resamples and randomization sign patterns (default
            :func:`ndcg_studio.services.scoring.service.bootstrap_resamples` of the query count).
        n_permutations: permutations of the randomised Tukey HSD.
        seed: seed of every random draw.

    Returns:
        A :class:`MultiRunReport`.

    Raises:
        LookupError: a run or baseline not in the report / not among ``runs``.
        ValueError: fewer than two distinct runs, or fewer than two queries that every run
            has a value for.
    """
    names = list(runs)
    _check_runs(report, names, baselines)
    matrix = np.vstack([report.table.ndcg[report.for_run(run)] for run in names])
    complete = ~np.isnan(matrix).any(axis=0)
    query_index = report.group_query[report.for_run(names[0])]
    n = int(complete.sum())
    if n < 2:
        raise TooFewQueries(
            f"only {count(n, 'queries')} {'has' if n == 1 else 'have'} a value for every run; "
            "at least 2 are needed"
        )
    scores = matrix[:, complete]
    comparison = compare_many(
        scores,
        baselines=[names.index(b) for b in baselines],
        n_resamples=n_resamples if n_resamples is not None else bootstrap_resamples(n),
        n_permutations=n_permutations,
        seed=seed,
    )
    variance = comparison.anova.ms_residual
    detectable = min_detectable_delta(n, variance) if variance > 0 else float("nan")
    return MultiRunReport(
        runs=names,
        query_external=[report.query_external[int(q)] for q in query_index[complete].tolist()],
        n_dropped=int((~complete).sum()),
        comparison=comparison,
        baselines=list(dict.fromkeys(baselines)),
        min_detectable_delta=detectable,
    )


def _check_runs(report: ScoreReport, names: list[str], baselines: Sequence[str]) -> None:
    """Raises the errors of :func:`compare_report_runs` for its runs and baselines."""
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError("compare needs two or more distinct runs")
    for run in names:
        if run not in report.run_names:
            raise LookupError(f"unknown run {run!r}; known: {', '.join(report.run_names)}")
    for base in baselines:
        if base not in names:
            raise LookupError(f"baseline {base!r} is not among the compared runs")
