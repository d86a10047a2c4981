"""Benchmark of ndcg_studio.domain.metrics.measures.score() against ranx and ir-measures, in the
same run.

Data: 10,000 queries x 100 retrieved documents (1,000,000 results) from a 2,000,000-document
collection, continuous random scores (ties are rare), every retrieved document judged 0..4 plus
10 extra judged documents per query that no run retrieved (1,100,000 judgments). Result and
judgment rows are shuffled, so the sort is measured (an already ranked input is timed too).

Run: python benchmarks/bench_scoring_arrays.py [--queries 10000] [--depth 100] [--seed 0]
Prints one table: best-of-N warm wall time of score() (all measures, NDCG@10 + companions) and of
the peers' NDCG@10 on the same data, the ratio to ours, and the largest per-query difference.
Peers get their native inputs (dicts of dicts) prepared outside the timing; ranx is called once
before timing so its numba JIT compilation is excluded.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoringParams, score
    from ndcg_studio.domain.metrics.ordering import doc_order_key
except ModuleNotFoundError:  # run as a plain script from a checkout
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoringParams, score
    from ndcg_studio.domain.metrics.ordering import doc_order_key


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Best wall time and best process CPU time (all threads) of ``repeat`` calls, in
    seconds, and the last result."""
    best = best_cpu = np.inf
    result = None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    return best, best_cpu, result


def make_data(n_queries: int, depth: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    n_collection = 2_000_000
    extra = 10
    # distinct documents per query: retrieved ones first, then judged-only ones
    per_query = depth + extra
    docs = np.empty((n_queries, per_query), dtype=np.int64)
    for q in range(n_queries):
        docs[q] = rng.choice(n_collection, size=per_query, replace=False)
    scores = np.round(rng.random((n_queries, depth)) * 100.0, 6)
    grades = rng.choice(5, size=(n_queries, per_query), p=[0.5, 0.2, 0.15, 0.1, 0.05])

    used, doc_index = np.unique(docs, return_inverse=True)
    doc_index = doc_index.reshape(n_queries, per_query)
    doc_ids = [f"D{d:07d}" for d in used]
    query_ids = [f"{q + 1}" for q in range(n_queries)]

    row_perm = rng.permutation(n_queries * depth)
    group = np.repeat(np.arange(n_queries, dtype=np.int64), depth)[row_perm]
    doc = doc_index[:, :depth].reshape(-1)[row_perm]
    score_flat = scores.reshape(-1)[row_perm]
    judg_perm = rng.permutation(n_queries * per_query)
    q_query = np.repeat(np.arange(n_queries, dtype=np.int64), per_query)[judg_perm]
    q_doc = doc_index.reshape(-1)[judg_perm]
    q_grade = grades.reshape(-1).astype(np.float64)[judg_perm]

    start = time.perf_counter()
    doc_key = doc_order_key(doc_ids)
    key_seconds = time.perf_counter() - start
    lists = RankedLists(
        group=group,
        doc=doc,
        score=score_flat,
        rank=np.zeros(group.size, dtype=np.int64),
        group_query=np.arange(n_queries, dtype=np.int64),
        doc_key=doc_key,
    )
    qrels = Qrels(query=q_query, doc=q_doc, grade=q_grade)

    # the same data, already in run order (score desc, then docno desc) and qrels sorted
    order = np.lexsort((-doc_key[doc], -score_flat, group))
    lists_sorted = RankedLists(
        group=group[order],
        doc=doc[order],
        score=score_flat[order],
        rank=np.zeros(group.size, dtype=np.int64),
        group_query=lists.group_query,
        doc_key=doc_key,
    )
    q_order = np.lexsort((q_doc, q_query))
    qrels_sorted = Qrels(query=q_query[q_order], doc=q_doc[q_order], grade=q_grade[q_order])

    run_dict: dict[str, dict[str, float]] = {q: {} for q in query_ids}
    for g, d, s in zip(group.tolist(), doc.tolist(), score_flat.tolist(), strict=True):
        run_dict[query_ids[g]][doc_ids[d]] = s
    qrels_dict: dict[str, dict[str, int]] = {q: {} for q in query_ids}
    for q, d, r in zip(q_query.tolist(), q_doc.tolist(), q_grade.tolist(), strict=True):
        qrels_dict[query_ids[q]][doc_ids[d]] = int(r)
    return {
        "lists": lists,
        "qrels": qrels,
        "lists_sorted": lists_sorted,
        "qrels_sorted": qrels_sorted,
        "run_dict": run_dict,
        "qrels_dict": qrels_dict,
        "query_ids": query_ids,
        "doc_key_seconds": key_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    start = time.perf_counter()
    data = make_data(args.queries, args.depth, args.seed)
    n_rows = args.queries * args.depth
    print(
        f"data: {args.queries:,} queries x {args.depth} results = {n_rows:,} results, "
        f"{data['qrels'].query.size:,} judgments (built in {time.perf_counter() - start:.1f} s; "
        f"doc_order_key of {data['lists'].doc_key.size:,} ids: {data['doc_key_seconds']:.2f} s)"
    )
    params = ScoringParams(k=10)
    lists, qrels = data["lists"], data["qrels"]
    query_ids = data["query_ids"]

    score(lists, qrels, params)  # warm
    ours_s, ours_cpu, table = best_of(lambda: score(lists, qrels, params), args.repeat)
    ours = table.ndcg
    sorted_s, sorted_cpu, table_sorted = best_of(
        lambda: score(data["lists_sorted"], data["qrels_sorted"], params), args.repeat
    )
    assert np.array_equal(table_sorted.ndcg, ours)

    rows: list[tuple[str, float, float, str]] = [
        ("ndcg_studio score() (shuffled rows)", ours_s, ours_cpu, "-"),
        ("ndcg_studio score() (rows already ranked)", sorted_s, sorted_cpu, "0 (same function)"),
    ]

    try:
        import ranx

        ranx_qrels = ranx.Qrels.from_dict(data["qrels_dict"])
        ranx_run = ranx.Run.from_dict(data["run_dict"])
        ranx.evaluate(ranx_qrels, ranx_run, "ndcg@10")  # numba JIT warm-up
        ranx_s, ranx_cpu, _ = best_of(
            lambda: ranx.evaluate(ranx_qrels, ranx_run, "ndcg@10"), args.repeat
        )
        per_query = ranx.evaluate(ranx_qrels, ranx_run, "ndcg@10", return_mean=False)
        theirs = dict(zip(ranx_run.keys(), np.asarray(per_query).tolist(), strict=True))
        diff = max(abs(theirs[q] - ours[i]) for i, q in enumerate(query_ids))
        rows.append(("ranx.evaluate ndcg@10", ranx_s, ranx_cpu, f"{diff:.1e}"))
    except ImportError:
        rows.append(("ranx (not installed)", float("nan"), float("nan"), "-"))

    try:
        import ir_measures
        from ir_measures import nDCG

        measure = nDCG @ 10
        run_dict, qrels_dict = data["run_dict"], data["qrels_dict"]
        ir_measures.calc_aggregate([measure], qrels_dict, run_dict)  # warm
        irm_s, irm_cpu, _ = best_of(
            lambda: ir_measures.calc_aggregate([measure], qrels_dict, run_dict), args.repeat
        )
        theirs = {
            m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels_dict, run_dict)
        }
        diff = max(abs(theirs[q] - ours[i]) for i, q in enumerate(query_ids))
        assert diff <= 1e-6, f"ir-measures disagrees by {diff}"
        rows.append(("ir_measures.calc_aggregate nDCG@10", irm_s, irm_cpu, f"{diff:.1e}"))
    except ImportError:
        rows.append(("ir-measures (not installed)", float("nan"), float("nan"), "-"))

    print(
        f"best of {args.repeat}, warm; ratio = tool wall seconds / ours (shuffled rows); "
        "cpu = process CPU seconds, all threads"
    )
    print(f"{'tool':45s} {'seconds':>9s} {'ratio':>7s} {'cpu':>7s}  max |diff| per query")
    for name, seconds, cpu, diff in rows:
        print(f"{name:45s} {seconds:9.3f} {seconds / ours_s:7.2f} {cpu:7.3f}  {diff}")
    print(f"mean NDCG@10 = {np.nanmean(ours):.6f}")


if __name__ == "__main__":
    main()
