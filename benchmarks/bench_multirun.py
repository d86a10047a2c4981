"""Benchmark of ndcg_studio.domain.statistics.multirun (N runs x many queries); peer: scipy
tukey_hsd.

Data: 10 runs x 10,000 queries, score = query difficulty (beta(2, 2)) + a run effect of 0 to
0.01 + noise N(0, 0.05), clipped to [0, 1]: strong query effect, small run differences (the
usual IR situation).

Peer: ``scipy.stats.tukey_hsd`` (what ranx's "Tukey" calls) is timed on the same matrix, but it
is the WRONG test for IR runs: a one-way test of independent groups, it ignores that every run
is scored on the same queries, so the query variance swamps the run differences. The table
shows its p-values next to the topic-blocked randomised Tukey HSD (Carterette 2012) for the
pair with the largest difference.

Run: python benchmarks/bench_multirun.py [--runs 10] [--queries 10000] [--permutations 1000]
Prints best-of-3 wall and CPU times (numpy here runs on one core).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    from ndcg_studio.domain.statistics import multirun
    from ndcg_studio.domain.statistics.anova import two_way_anova
except ModuleNotFoundError:  # run as a plain script from a checkout
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ndcg_studio.domain.statistics import multirun
    from ndcg_studio.domain.statistics.anova import two_way_anova

from scipy.stats import tukey_hsd


def best_of(fn: Callable[[], Any], repeat: int = 3) -> tuple[tuple[float, float], Any]:
    """Best wall and CPU (process) time of ``repeat`` calls, in seconds, and the last result.

    On a shared machine the CPU time is the fairer number: other processes inflate wall time.
    """
    wall = cpu = np.inf
    result = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return (wall, cpu), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--permutations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    r, n, b = args.runs, args.queries, args.permutations
    difficulty = rng.beta(2, 2, size=n)
    effect = np.linspace(0.0, 0.01, r)[:, None]
    scores = np.clip(difficulty + effect + rng.normal(0, 0.05, size=(r, n)), 0.0, 1.0)

    rows: list[tuple[str, tuple[float, float]]] = []
    t, anova = best_of(lambda: two_way_anova(scores))
    rows.append(("two-way ANOVA (run x query)", t))
    t, tukey = best_of(lambda: multirun.randomised_tukey_hsd(scores, b, seed=0))
    rows.append((f"randomised Tukey HSD, B={b} (all {r * (r - 1) // 2} pairs)", t))
    t, _ = best_of(lambda: multirun.randomization_p_values(scores, b, seed=0))
    rows.append((f"paired randomization p, B={b} (all pairs)", t))
    t, _ = best_of(lambda: multirun.bootstrap_pair_intervals(scores, b, seed=0))
    rows.append((f"paired bootstrap 95% CI, B={b} (all pairs)", t))
    t, _ = best_of(
        lambda: multirun.compare_many(scores, baselines=[0], n_resamples=b, n_permutations=b)
    )
    rows.append(("compare_many (all of the above + Holm)", t))
    t, peer = best_of(lambda: tukey_hsd(*scores))
    rows.append(("peer: scipy.stats.tukey_hsd (one-way, unpaired)", t))

    print(f"{r} runs x {n:,} queries")
    print(f"  {'':<55} {'wall':>8}   {'CPU':>8}")
    for name, (wall, cpu) in rows:
        print(f"  {name:<55} {wall:8.3f} s {cpu:8.3f} s")
    a, z = 0, r - 1
    pair = int(
        np.flatnonzero((multirun.pair_indices(r)[0] == a) & (multirun.pair_indices(r)[1] == z))[0]
    )
    print(
        f"pair run {a} vs run {z}: delta = {scores[a].mean() - scores[z].mean():+.4f}; "
        f"randomised Tukey HSD p = {tukey[pair]:.4f}; scipy tukey_hsd p = {peer.pvalue[a, z]:.4f}"
    )
    print(
        f"ANOVA: F(run) = {anova.f_run:.2f}, p = {anova.p_run:.3g}; V_E = {anova.ms_residual:.5f}"
    )


if __name__ == "__main__":
    main()
