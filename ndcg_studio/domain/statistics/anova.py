"""Two-way ANOVA without replication of an (n_runs, n_queries) score matrix (runs x queries,
randomized complete blocks), and the checked score matrix every N-run statistic of
:mod:`ndcg_studio.domain.statistics.multirun` takes.

SOURCE: Sakai (2014), "Statistical reform in information retrieval?", SIGIR Forum 48(1); any
textbook (e.g. Montgomery, "Design and Analysis of Experiments", randomized complete block
design).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["AnovaTable", "score_matrix", "two_way_anova"]


def score_matrix(scores: ArrayLike, min_runs: int = 2) -> NDArray[np.float64]:
    """The (n_runs, n_queries) float64 score matrix every N-run statistic takes, checked.

    Raises:
        ValueError: not 2-D, fewer than ``min_runs`` runs or 2 queries, or a NaN/inf value.
    """
    array = np.asarray(scores, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"scores must be 2-D (n_runs, n_queries), got shape {array.shape}")
    if array.shape[0] < min_runs:
        raise ValueError(f"scores must hold at least {min_runs} runs, got {array.shape[0]}")
    if array.shape[1] < 2:
        raise ValueError(f"scores must hold at least 2 queries, got {array.shape[1]}")
    if not np.isfinite(array).all():
        raise ValueError("scores must be finite (no NaN): keep only queries every run has")
    return array


@dataclass(frozen=True)
class AnovaTable:
    """Two-way ANOVA without replication, factors run and query (randomized complete blocks).

    Attributes:
        ss_run, ss_query, ss_residual, ss_total: sums of squares (ss_total = the other three).
        df_run, df_query, df_residual: degrees of freedom r-1, n-1, (r-1)(n-1).
        ms_run, ms_query, ms_residual: mean squares SS / df (ms_residual = V_E of Sakai 2014).
        f_run, f_query: F statistics MS / ms_residual (inf when ms_residual = 0 < MS; NaN
            when both are 0).
        p_run, p_query: upper-tail F probabilities (scipy.special.fdtrc); NaN with the F.
    """

    ss_run: float
    ss_query: float
    ss_residual: float
    ss_total: float
    df_run: int
    df_query: int
    df_residual: int
    ms_run: float
    ms_query: float
    ms_residual: float
    f_run: float
    f_query: float
    p_run: float
    p_query: float


def _f_test(ms: float, ms_residual: float, df: int, df_residual: int) -> tuple[float, float]:
    if ms_residual > 0:
        # imported here, not at module level: the GUI's start-up imports this module
        # (bench_startup.py, window shown)
        from scipy.special import fdtrc

        f = ms / ms_residual
        return f, float(fdtrc(df, df_residual, f))
    if ms > 0:
        return math.inf, 0.0
    return math.nan, math.nan


def two_way_anova(scores: ArrayLike) -> AnovaTable:
    """Two-way ANOVA without replication of an (n_runs, n_queries) score matrix.

    SOURCE: Sakai (2014), SIGIR Forum 48(1), "Statistical reform in information retrieval?";
    model x_ij = mu + run_i + query_j + e_ij. SS_run = n sum_i (mean_i. - mean)^2,
    SS_query = r sum_j (mean_.j - mean)^2, SS_residual = sum_ij (x_ij - mean_i. - mean_.j +
    mean)^2. Equal to statsmodels ``anova_lm(ols('y ~ C(run) + C(query)'))`` (tested).

    Args:
        scores: (n_runs >= 2, n_queries >= 2) float, finite.

    Returns:
        An :class:`AnovaTable`.

    Raises:
        ValueError: not 2-D, fewer than 2 runs or queries, or a NaN/inf value.
    """
    x = score_matrix(scores)
    r, n = x.shape
    grand = float(x.mean())
    run_means = x.mean(axis=1)
    query_means = x.mean(axis=0)
    ss_run = float(n * np.sum((run_means - grand) ** 2))
    ss_query = float(r * np.sum((query_means - grand) ** 2))
    residual = x - run_means[:, None] - query_means[None, :] + grand
    ss_residual = float(np.sum(residual**2))
    df_run, df_query, df_residual = r - 1, n - 1, (r - 1) * (n - 1)
    ms_run, ms_query = ss_run / df_run, ss_query / df_query
    ms_residual = ss_residual / df_residual
    f_run, p_run = _f_test(ms_run, ms_residual, df_run, df_residual)
    f_query, p_query = _f_test(ms_query, ms_residual, df_query, df_residual)
    return AnovaTable(
        ss_run=ss_run,
        ss_query=ss_query,
        ss_residual=ss_residual,
        ss_total=float(np.sum((x - grand) ** 2)),
        df_run=df_run,
        df_query=df_query,
        df_residual=df_residual,
        ms_run=ms_run,
        ms_query=ms_query,
        ms_residual=ms_residual,
        f_run=f_run,
        f_query=f_query,
        p_run=p_run,
        p_query=p_query,
    )
