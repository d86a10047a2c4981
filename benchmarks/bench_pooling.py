"""How many judgments each pooling strategy needs before every run pair's verdict is right for good.

Datasets (both have judgments for every query; the depth-D pool is the whole universe, pooled
documents nobody judged count as grade 0, see ndcg_studio/services/simulation.py):

* Cranfield demo (``python -m ndcg_studio --db X demo``: 1,400 documents, 225 queries, the demo's
  two BM25 runs) plus four runs built here with bm25s (same tokenizer as
  scripts/make_demo_runs.py: lower-case, English stopwords, no stemming; top 100 per query,
  scores rounded to 6 decimals, trec_eval order) over title + text:
  ``bm25-k1-0.5-b-0.3`` (Lucene BM25, k1 0.5, b 0.3), ``bm25l`` (BM25L, k1 1.2, b 0.75,
  delta 0.5), ``bm25plus`` (BM25+, k1 1.2, b 0.75, delta 1), ``tfidf-like`` (Robertson BM25
  with k1 = 100, b = 0: tf almost linear, no length normalisation).
* TREC DL 2019 passage (/work/shared/data/trec_dl19_passage, 43 queries, NIST grades 0-3) with
  runs derived from the one BM25 run (Anserini k1 0.9, b 0.4, top 1000):
  ``bm25`` (as is); ``bm25-noise-0.5`` and ``bm25-noise-1`` (each score plus Gaussian noise of
  0.5 / 1 standard deviation of that query's top-100 scores, numpy seeds 1 and 2, re-sorted);
  ``bm25-reverse10`` (the top 10 in reverse order, the rest unchanged); ``rrf`` (reciprocal
  rank fusion, k = 60, of bm25 and bm25-noise-1); ``bm25-skip3`` (every third document of the
  top 30 dropped, the rest moves up).

For each dataset and strategy the simulator (ndcg_studio.services.simulation) reveals the pool
in the strategy's order; printed per strategy: pool size, the budget from which every pair's
current verdict (expected-gain estimate) stays equal to the final one (``correct_from``), the
budget from which Kendall's tau stays 1, and from which every pair is decided by the SOUND
interval; then the same for one pair of runs alone (the A/B case ``ab`` is made for:
Cranfield bm25-title vs bm25-fulltext, DL 2019 bm25 vs rrf). "median pair" columns: the
median over the pairs of the budget from which that pair stays correct / decided.
``depth`` is random: it is run with several seeds (mean, min-max shown); ``ab`` uses
the seed only for ties; ``mtf`` and ``bandit`` are deterministic. Budgets are resolved to
``--step`` judgments.

Run: python benchmarks/bench_pooling.py [--depth 10] [--k 10] [--step 10] [--seeds 3]
     [--markdown]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ndcg_studio.domain.pooling.strategies import STRATEGIES  # noqa: E402
from ndcg_studio.domain.verdict.estimates import ndcg_matrix  # noqa: E402
from ndcg_studio.io.smart import read_smart_documents, read_smart_queries  # noqa: E402
from ndcg_studio.io.trec.readers import read_trec_run  # noqa: E402
from ndcg_studio.io.trec.writers import write_trec_run  # noqa: E402
from ndcg_studio.services.demo import load_demo  # noqa: E402
from ndcg_studio.services.importing.service import ImportService  # noqa: E402
from ndcg_studio.services.simulation import load_problem, simulate  # noqa: E402
from ndcg_studio.storage.database import open_database  # noqa: E402

CRANFIELD = REPO / "resources" / "demo" / "cranfield"
DL19 = Path("/work/shared/data/trec_dl19_passage")

Row = tuple[str, int, int, int, float, float]


def _tokenize(texts: list[str]) -> Any:
    import bm25s

    return bm25s.tokenize(
        texts, lower=True, stopwords="en", stemmer=None, return_ids=False, show_progress=False
    )


def _bm25_rows(
    name: str,
    method: str,
    k1: float,
    b: float,
    delta: float,
    doc_ids: list[str],
    texts: list[str],
    query_ids: list[str],
    queries: list[str],
) -> list[tuple[str, str, int, float, str]]:
    import bm25s

    retriever = bm25s.BM25(k1=k1, b=b, delta=delta, method=method, dtype="float64")
    retriever.index(_tokenize(texts), show_progress=False)
    indices, scores = retriever.retrieve(
        _tokenize(queries), k=100, show_progress=False, n_threads=1
    )
    rows = []
    for qid, idx, sc in zip(query_ids, indices, scores, strict=True):
        hits = [
            (round(float(s), 6), doc_ids[int(i)]) for i, s in zip(idx, sc, strict=True) if s > 0
        ]
        hits.sort(key=lambda h: (h[0], h[1].encode()), reverse=True)
        rows += [(qid, d, r, s, name) for r, (s, d) in enumerate(hits, start=1)]
    return rows


def cranfield_db(folder: Path) -> tuple[Any, list[str]]:
    db = open_database(f"sqlite:///{folder / 'cranfield.sqlite'}")
    load_demo(db)
    documents = read_smart_documents(CRANFIELD / "cran.all.1400")
    queries = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    full = [
        f"{t or ''} {x or ''}".strip() for t, x in zip(documents.title, documents.text, strict=True)
    ]
    extra = {
        "bm25-k1-0.5-b-0.3": ("lucene", 0.5, 0.3, 0.0),
        "bm25l": ("bm25l", 1.2, 0.75, 0.5),
        "bm25plus": ("bm25+", 1.2, 0.75, 1.0),
        "tfidf-like": ("robertson", 100.0, 0.0, 0.0),
    }
    imp = ImportService(db)
    for name, (method, k1, b, delta) in extra.items():
        rows = _bm25_rows(
            name, method, k1, b, delta, documents.doc_id, full, queries.query_id, queries.text
        )
        path = folder / f"{name}.run"
        write_trec_run(path, rows)
        imp.import_run(path, name=name)
    return db, ["bm25-title", "bm25-fulltext", *extra]


def _sorted_rows(qid: str, docs: list[str], scores: np.ndarray, name: str) -> list[Any]:
    hits = sorted(
        zip(np.round(scores, 6).tolist(), docs, strict=True),
        key=lambda h: (h[0], h[1].encode()),
        reverse=True,
    )
    return [(qid, d, r, s, name) for r, (s, d) in enumerate(hits, start=1)]


def dl19_db(folder: Path) -> tuple[Any, list[str]]:
    db = open_database(f"sqlite:///{folder / 'dl19.sqlite'}")
    run = read_trec_run(DL19 / "run.bm25-default.dl19.txt")
    by_query: dict[str, list[tuple[float, str]]] = {}
    for q, d, s in zip(run.query_id, run.doc_id, run.score.tolist(), strict=True):
        by_query.setdefault(q, []).append((s, d))
    out: dict[str, list[Any]] = {
        n: []
        for n in ("bm25", "bm25-noise-0.5", "bm25-noise-1", "bm25-reverse10", "rrf", "bm25-skip3")
    }
    rng = {0.5: np.random.default_rng(1), 1.0: np.random.default_rng(2)}
    for q in sorted(by_query):
        hits = sorted(by_query[q], key=lambda h: (h[0], h[1].encode()), reverse=True)
        docs = [d for _, d in hits]
        scores = np.array([s for s, _ in hits])
        out["bm25"] += _sorted_rows(q, docs, scores, "bm25")
        spread = float(scores[:100].std())
        noisy = {}
        for sigma, name in ((0.5, "bm25-noise-0.5"), (1.0, "bm25-noise-1")):
            noisy[sigma] = scores + rng[sigma].normal(0.0, sigma * spread, size=len(scores))
            out[name] += _sorted_rows(q, docs, noisy[sigma], name)
        rev = [*docs[:10][::-1], *docs[10:]]
        out["bm25-reverse10"] += _sorted_rows(
            q, rev, -np.arange(len(rev), dtype=float), "bm25-reverse10"
        )
        rank_noisy = {
            d: r
            for r, d in enumerate(
                [docs[i] for i in np.argsort(-noisy[1.0], kind="stable")], start=1
            )
        }
        fused = np.array(
            [1 / (60 + r) + 1 / (60 + rank_noisy[d]) for r, d in enumerate(docs, start=1)]
        )
        out["rrf"] += _sorted_rows(q, docs, fused * 1e4, "rrf")
        skip = [d for i, d in enumerate(docs) if not (i < 30 and i % 3 == 2)]
        out["bm25-skip3"] += _sorted_rows(q, skip, -np.arange(len(skip), dtype=float), "bm25-skip3")
    imp = ImportService(db)
    for name, rows in out.items():
        path = folder / f"{name}.run"
        write_trec_run(path, rows)
        imp.import_run(path, name=name)
    imp.import_qrels(DL19 / "qrels.dl19-passage.txt", annotator="nist")
    return db, list(out)


def stays_from(rows: list[Row], ok: Any) -> int:
    """The smallest budget from which ``ok(row)`` holds on every later row."""
    budget = rows[-1][1]
    for r in reversed(rows):
        if not ok(r):
            break
        budget = r[1]
    return budget


def _stays(budgets: list[int], ok: np.ndarray) -> int:
    """The smallest budget from which ``ok`` holds on every later row."""
    bad = np.flatnonzero(~ok)
    if len(bad) == 0:
        return budgets[0]
    return budgets[min(int(bad[-1]) + 1, len(budgets) - 1)]


def bench(name: str, db: Any, runs: list[str], args: argparse.Namespace) -> list[list[str]]:
    problem = load_problem(db, runs, depth=args.depth, k=args.k)
    n_pairs = len(runs) * (len(runs) - 1) // 2
    size = problem.pool.size
    full = ndcg_matrix(problem.pool, problem.truth, args.k)[:, problem.evaluated].mean(axis=1)
    means = dict(zip(problem.run_names, full.tolist(), strict=True))
    print(
        f"\n{name}: {len(runs)} runs, {n_pairs} pairs, {int(problem.evaluated.sum())} queries, "
        f"depth-{args.depth} pool of {size:,} documents, nDCG@{args.k} with every judgment: "
        + ", ".join(f"{r} {m:.4f}" for r, m in sorted(means.items(), key=lambda kv: -kv[1]))
    )
    table = []
    for strategy in STRATEGIES:
        seeds = range(args.seeds) if strategy == "depth" else range(1)
        found: dict[str, list[int]] = {
            "correct": [],
            "tau": [],
            "decided": [],
            "pair_correct": [],
            "pair_decided": [],
        }
        wrong = 0
        t0 = time.perf_counter()
        for seed in seeds:
            result = simulate(problem, strategy, step=args.step, seed=seed)
            rows = result.rows
            wrong += result.decided_wrong
            found["correct"].append(stays_from(rows, lambda r: r[3] == n_pairs))
            found["tau"].append(stays_from(rows, lambda r: r[4] >= 1.0 - 1e-9))
            found["decided"].append(stays_from(rows, lambda r: r[2] == n_pairs))
            budgets = [row[1] for row in rows]
            for key, matrix in (
                ("pair_correct", result.pair_correct),
                ("pair_decided", result.pair_decided),
            ):
                per_pair = [_stays(budgets, matrix[:, i]) for i in range(n_pairs)]
                found[key].append(int(np.median(per_pair)))
        seconds = (time.perf_counter() - t0) / len(seeds)

        def show(values: list[int]) -> str:
            mean = sum(values) / len(values)
            pct = f" ({100 * mean / size:.0f}%)"
            if len(values) == 1:
                return f"{values[0]:,}{pct}"
            return f"{mean:,.0f}{pct} [{min(values):,}-{max(values):,}]"

        table.append(
            [
                name,
                strategy,
                f"{size:,}",
                show(found["correct"]),
                show(found["tau"]),
                show(found["pair_correct"]),
                show(found["decided"]),
                show(found["pair_decided"]),
                str(wrong),
                f"{seconds:.1f}",
            ]
        )
        print("  " + " | ".join(table[-1][1:]), flush=True)
    return table


HEADER = [
    "dataset",
    "strategy",
    "pool",
    "every pair correct from",
    "tau = 1 from",
    "median pair correct from",
    "every pair decided (sound) from",
    "median pair decided from",
    "decided but wrong",
    "s per simulation",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=3, help="seeds of the depth baseline")
    parser.add_argument("--only", choices=("cranfield", "dl19"))
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    table: list[list[str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "cranfield"):
            db, runs = cranfield_db(folder)
            table += bench("Cranfield", db, runs, args)
            table += bench("Cranfield A/B", db, ["bm25-title", "bm25-fulltext"], args)
            db.dispose()
        if args.only in (None, "dl19"):
            if not DL19.exists():
                print(f"skipped TREC DL 2019: {DL19} not found")
            else:
                db, runs = dl19_db(folder)
                table += bench("TREC DL 2019", db, runs, args)
                table += bench("TREC DL 2019 A/B", db, ["bm25", "rrf"], args)
                db.dispose()
    if args.markdown:
        print()
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "---|" * len(HEADER))
        for row in table:
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
