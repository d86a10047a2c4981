"""Benchmark of ndcg_studio.domain.agreement.summary against the reference packages, in the same
run.

Data: 10,000 queries x 10 documents x 10 annotators = 100,000 items, 30% of the judgments missing
(~700,000 grades), grades 0..4 = clip(round(true grade + annotator bias + noise)).

Run: python benchmarks/bench_agreement.py [--queries 10000] [--seed 0]
Prints one table: best-of-3 wall time of ours and of the peer, their ratio, and the largest absolute
difference of the values (the check that both compute the same thing).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    from ndcg_studio.domain.agreement.alpha import alpha, alpha_by_group
    from ndcg_studio.domain.agreement.alpha_intervals import alpha_bootstrap, alpha_leave_one_out
    from ndcg_studio.domain.agreement.kappa import pairwise_cohen_kappa
    from ndcg_studio.domain.agreement.ratings import Ratings
    from ndcg_studio.domain.agreement.spread import item_spread
except ModuleNotFoundError:  # run as a plain script from a checkout
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ndcg_studio.domain.agreement.alpha import alpha, alpha_by_group
    from ndcg_studio.domain.agreement.alpha_intervals import alpha_bootstrap, alpha_leave_one_out
    from ndcg_studio.domain.agreement.kappa import pairwise_cohen_kappa
    from ndcg_studio.domain.agreement.ratings import Ratings
    from ndcg_studio.domain.agreement.spread import item_spread

import krippendorff
from sklearn.metrics import cohen_kappa_score

DOMAIN = [0, 1, 2, 3, 4]


def best_of(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Best wall time of ``repeat`` calls, in seconds, and the last result."""
    best = np.inf
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def make_data(
    n_queries: int, n_docs: int, n_annotators: int, missing: float, seed: int
) -> tuple[Ratings, np.ndarray]:
    rng = np.random.default_rng(seed)
    n_items = n_queries * n_docs
    truth = rng.choice(5, size=n_items, p=[0.35, 0.25, 0.2, 0.12, 0.08])
    bias = rng.normal(0.0, 0.3, size=n_annotators)
    noisy = truth[None, :] + bias[:, None] + rng.normal(0.0, 0.8, size=(n_annotators, n_items))
    grades = np.clip(np.rint(noisy), 0, 4)
    present = rng.random((n_annotators, n_items)) >= missing
    annotator, item = np.nonzero(present)
    ratings = Ratings(item, annotator, grades[annotator, item], n_items, n_annotators)
    return ratings, np.arange(n_items) // n_docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--loop-sample", type=int, default=1_000, help="queries timed in loops")
    args = parser.parse_args()
    n_docs, n_annotators = 10, 10
    build_time, (ratings, item_query) = best_of(
        lambda: make_data(args.queries, n_docs, n_annotators, 0.3, args.seed), repeat=1
    )
    n_queries = args.queries
    print(
        f"data: {n_queries} queries x {n_docs} docs x {n_annotators} annotators, "
        f"{ratings.n_ratings:,} grades ({build_time:.2f} s to generate)"
    )
    rows: list[tuple[str, float, str, float, float]] = []

    def add(name: str, ours_t: float, peer_name: str, peer_t: float, diff: float) -> None:
        rows.append((name, ours_t, peer_name, peer_t, diff))

    t_validate, _ = best_of(
        lambda: Ratings(
            ratings.item, ratings.annotator, ratings.grade, ratings.n_items, n_annotators
        )
    )
    matrix = ratings.to_matrix()
    t_matrix, _ = best_of(ratings.to_matrix)

    # 1. overall ordinal alpha
    t_ours, ours = best_of(lambda: alpha(ratings, "ordinal", values=DOMAIN))
    t_peer, peer = best_of(
        lambda: krippendorff.alpha(
            reliability_data=matrix, level_of_measurement="ordinal", value_domain=DOMAIN
        )
    )
    add("overall alpha, ordinal", t_ours, "krippendorff.alpha", t_peer, abs(ours.value - peer))
    for level in ("nominal", "interval"):
        t_o, o = best_of(lambda level=level: alpha(ratings, level, values=DOMAIN))
        t_p, p = best_of(
            lambda level=level: krippendorff.alpha(
                reliability_data=matrix, level_of_measurement=level, value_domain=DOMAIN
            )
        )
        add(f"overall alpha, {level}", t_o, "krippendorff.alpha", t_p, abs(o.value - p))

    # 2. per-query alpha
    t_group, groups = best_of(
        lambda: alpha_by_group(ratings, item_query, n_queries, "ordinal", values=DOMAIN)
    )
    sample = min(args.loop_sample, n_queries)

    def package_loop(n: int) -> np.ndarray:
        out = np.full(n, np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 for one-grade queries
            for q in range(n):
                block = matrix[:, q * n_docs : (q + 1) * n_docs]
                out[q] = krippendorff.alpha(
                    reliability_data=block, level_of_measurement="ordinal", value_domain=DOMAIN
                )
        return out

    t_loop_sample, _ = best_of(lambda: package_loop(sample))
    t_loop_all = t_loop_sample * n_queries / sample
    start = time.perf_counter()
    loop_values = package_loop(n_queries)
    t_loop_once = time.perf_counter() - start
    both = ~np.isnan(loop_values)
    same_nan = bool(np.array_equal(np.isnan(loop_values), np.isnan(groups.value)))
    add(
        f"per-query alpha x{n_queries}",
        t_group,
        f"loop of krippendorff.alpha (x{n_queries // sample} of {sample}q)",
        t_loop_all,
        float(np.max(np.abs(groups.value[both] - loop_values[both]))),
    )

    # 3. leave-one-annotator-out
    t_loo, loo = best_of(lambda: alpha_leave_one_out(ratings, "ordinal", values=DOMAIN))

    def loo_package() -> np.ndarray:
        return np.array(
            [
                krippendorff.alpha(
                    reliability_data=np.delete(matrix, a, axis=0),
                    level_of_measurement="ordinal",
                    value_domain=DOMAIN,
                )
                for a in range(n_annotators)
            ]
        )

    t_loo_peer, loo_peer = best_of(loo_package, repeat=1)
    add(
        "leave-one-annotator-out alpha",
        t_loo,
        "krippendorff.alpha per annotator",
        t_loo_peer,
        float(np.max(np.abs(loo.value - loo_peer))),
    )

    # 4. pairwise Cohen's kappa (quadratic shown; all three are computed by ours)
    t_pairs, pairs = best_of(lambda: pairwise_cohen_kappa(ratings, values=DOMAIN))

    def sklearn_pairs() -> np.ndarray:
        out = []
        for a, b in zip(pairs.annotator_a, pairs.annotator_b, strict=True):
            shared = ~np.isnan(matrix[a]) & ~np.isnan(matrix[b])
            out.append(
                cohen_kappa_score(
                    matrix[a, shared], matrix[b, shared], labels=DOMAIN, weights="quadratic"
                )
            )
        return np.array(out)

    t_pairs_peer, pairs_peer = best_of(sklearn_pairs, repeat=1)
    add(
        "pairwise Cohen kappa (45 pairs)",
        t_pairs,
        "sklearn cohen_kappa_score loop",
        t_pairs_peer,
        float(np.max(np.abs(pairs.kappa_quadratic - pairs_peer))),
    )

    # 5. per-item spread vs a numpy masked-matrix computation
    t_spread, spread = best_of(lambda: item_spread(ratings))

    def spread_peer() -> np.ndarray:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.nanmedian(matrix, axis=0)

    t_spread_peer, median_peer = best_of(spread_peer)
    add(
        "per-item spread (7 stats)",
        t_spread,
        "np.nanmedian on the matrix (1 stat)",
        t_spread_peer,
        float(np.max(np.abs(spread.median - median_peer))),
    )

    # 6. bootstrap (no peer: krippendorff has none)
    t_boot, boot = best_of(
        lambda: alpha_bootstrap(ratings, "ordinal", values=DOMAIN, n_resamples=1000, seed=0),
        repeat=1,
    )

    name_width, peer_width = 34, 44
    header = (
        f"{'computation':{name_width}} {'ours s':>9}  {'peer':{peer_width}} {'peer s':>9} "
        f"{'peer/ours':>9} {'max |diff|':>10}"
    )
    print()
    print(header)
    print("-" * len(header))
    for name, ours_t, peer_name, peer_t, diff in rows:
        print(
            f"{name:{name_width}} {ours_t:9.4f}  {peer_name:{peer_width}} {peer_t:9.4f} "
            f"{peer_t / ours_t:9.1f} {diff:10.1e}"
        )
    print(f"{'bootstrap CI, 1000 resamples':{name_width}} {t_boot:9.4f}  (no peer)")
    print(
        f"{'Ratings(...) validation':{name_width}} {t_validate:9.4f}  "
        f"{'Ratings.to_matrix() for the peers':{peer_width}} {t_matrix:9.4f}"
    )
    print()
    print(
        f"overall ordinal alpha = {ours.value:.6f}; 95% CI [{boot.low:.4f}, {boot.high:.4f}] "
        f"({boot.n_defined} defined resamples)"
    )
    n_nan = int(np.isnan(groups.value).sum())
    print(
        f"per-query loop of the package, all {n_queries} queries run once: {t_loop_once:.2f} s; "
        f"NaN positions identical: {same_nan} ({n_nan} NaN)"
    )
    target_overall = "met" if t_ours <= t_peer else "MISSED"
    target_group = "met" if t_group < 0.1 else "MISSED"
    print(
        f"targets: overall at least as fast as the package: {target_overall}; "
        f"per-query < 0.1 s: {target_group} ({t_group:.4f} s)"
    )


if __name__ == "__main__":
    main()
