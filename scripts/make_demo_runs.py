"""Build the Cranfield demo: copy the collection, convert its qrels, make two BM25 runs.

Outputs (under ``resources/demo/``):

- ``cranfield/`` the raw collection (``cran.all.1400``, ``cran.qry``, ``cranqrel``,
  ``cranqrel.readme``, ``SOURCE.md``), copied only with ``--source``;
- ``cranfield/cranqrel.trec``: ``cranqrel`` (``query_no doc_no code``) in TREC qrels format
  ``qid 0 docno code``, codes unchanged (import it with ``CRANFIELD_GRADE_MAP``);
- ``cranfield.bm25-title.run``: BM25 over the ``.T`` titles;
- ``cranfield.bm25-fulltext.run``: BM25 over title + ``.W`` text.

Runs: the 225 queries of ``cran.qry`` numbered 1..225 by position (as ``cranqrel`` does), top
100 documents per query among those sharing at least one term with the query, scores rounded
to 6 decimals, ranks following trec_eval's order (score descending, then docno descending),
lines sorted by query number then rank, tag = run name. bm25s (a development dependency)
with fixed parameters: lower-casing, its regex tokenizer ``(?u)\\b\\w\\w+\\b``, its built-in
English stopword list, NO stemming (bm25s' stemmer needs PyStemmer), Lucene BM25 variant,
k1 = 1.2, b = 0.75, float64 scores. Deterministic: same inputs, same bytes.

Self-check: mean NDCG@10 of each run against the converted qrels with the Cranfield grade map,
trec_eval ``ndcg_cut.10`` semantics (linear gain, discount 1/log2(rank+1), ideal from all judged
documents with gain > 0), computed inline and, when installed, with ir-measures.

Run: python scripts/make_demo_runs.py [--source ../shared/data/cranfield]
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from collections import Counter
from pathlib import Path

import bm25s
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ndcg_studio.io.atomic import atomic_text_writer  # noqa: E402
from ndcg_studio.io.smart import (  # noqa: E402
    CRANFIELD_GRADE_MAP,
    read_smart_documents,
    read_smart_queries,
)
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run  # noqa: E402
from ndcg_studio.io.trec.writers import write_trec_run  # noqa: E402

DEMO = REPO / "resources" / "demo"
COLLECTION = DEMO / "cranfield"
RAW_FILES = ("cran.all.1400", "cran.qry", "cranqrel", "cranqrel.readme", "SOURCE.md")
K1, B, METHOD, TOP_K = 1.2, 0.75, "lucene", 100
RUNS = {"bm25-title": "title", "bm25-fulltext": "title+text"}

SOURCE_NOTE = """
## Derived here (NDCG Studio)

- `cranqrel.trec`: `cranqrel` in TREC qrels format `qid 0 docno code`, one line per input line,
  codes unchanged (1..4 and -1). Made by `scripts/make_demo_runs.py --source ...`. The raw file
  has {lines} lines, no duplicate (query, document) pair and no malformed line, so nothing was
  dropped. The demo imports it with the grade map `1:4,2:3,3:2,4:1,-1:0`
  (`ndcg_studio.io.smart.CRANFIELD_GRADE_MAP`).
- Known upstream quirks of `cran.all.1400`: documents 471 and 995 have empty title and text;
  documents 576 and 578 have a second `.W` line and document 240 stray `.A`/`.B` lines in its
  abstract (our SMART reader keeps those lines in the abstract, see `ndcg_studio/io/smart.py`).
"""


def copy_collection(source: Path) -> None:
    """Copy the raw files, convert cranqrel, and append the derivation note to SOURCE.md."""
    COLLECTION.mkdir(parents=True, exist_ok=True)
    for name in RAW_FILES:
        shutil.copyfile(source / name, COLLECTION / name)
        (COLLECTION / name).chmod(0o644)
    lines = convert_cranqrel(COLLECTION / "cranqrel", COLLECTION / "cranqrel.trec")
    with (COLLECTION / "SOURCE.md").open("a", encoding="utf-8", newline="\n") as handle:
        handle.write(SOURCE_NOTE.format(lines=f"{lines:,}"))


def convert_cranqrel(raw: Path, target: Path) -> int:
    """Write ``raw`` (``query_no doc_no code``) as TREC qrels; keep the first of duplicates.

    Returns the number of lines written; prints what was found (duplicates, bad lines).
    """
    seen: dict[tuple[str, str], int] = {}
    rows: list[tuple[str, str, str]] = []
    bad = 0
    text = raw.read_bytes().decode("utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3 or not all(f.lstrip("-").isdigit() for f in fields):
            print(f"{raw.name}:{number}: malformed line {line!r}, dropped")
            bad += 1
            continue
        first = seen.setdefault((fields[0], fields[1]), number)
        if first != number:
            print(f"{raw.name}:{number}: duplicate of line {first}, dropped")
            continue
        rows.append((fields[0], fields[1], fields[2]))
    codes = Counter(code for _, _, code in rows)
    print(
        f"cranqrel: {len(rows)} lines kept, {len(seen) - len(rows)} duplicates, {bad} malformed; "
        f"codes {dict(sorted(codes.items(), key=lambda kv: int(kv[0])))}"
    )
    with atomic_text_writer(target) as handle:
        handle.writelines(f"{q} 0 {d} {c}\n" for q, d, c in rows)
    return len(rows)


def tokenize(texts: list[str]) -> list[list[str]]:
    tokens: list[list[str]] = bm25s.tokenize(
        texts, lower=True, stopwords="en", stemmer=None, return_ids=False, show_progress=False
    )
    return tokens


def make_run(
    name: str, doc_ids: list[str], doc_texts: list[str], query_ids: list[str], queries: list[str]
) -> list[tuple[str, str, int, float, str]]:
    """Top-100 BM25 rows ``(qid, docno, rank, score, tag)`` in trec_eval order."""
    retriever = bm25s.BM25(k1=K1, b=B, method=METHOD, dtype="float64")
    retriever.index(tokenize(doc_texts), show_progress=False)
    indices, scores = retriever.retrieve(
        tokenize(queries), k=TOP_K, show_progress=False, n_threads=1
    )
    rows: list[tuple[str, str, int, float, str]] = []
    for qid, doc_index, score in zip(query_ids, indices, scores, strict=True):
        hits = [
            (round(float(s), 6), doc_ids[int(i)])
            for i, s in zip(doc_index, score, strict=True)
            if s > 0
        ]
        # trec_eval order: score descending, ties by docno descending (strcmp); this makes the
        # rank column agree with the order trec_eval and NDCG Studio evaluate in.
        hits.sort(key=lambda hit: (hit[0], hit[1].encode()), reverse=True)
        rows.extend(
            (qid, doc, rank, score_, name) for rank, (score_, doc) in enumerate(hits, start=1)
        )
    return rows


def ndcg_at(k: int, run_path: Path, qrels_path: Path) -> tuple[float, int]:
    """Mean NDCG@k over the qrels' queries (missing queries score 0), trec_eval semantics."""
    qrels = read_trec_qrels(qrels_path, grade_map=CRANFIELD_GRADE_MAP)
    run = read_trec_run(run_path)
    judged: dict[str, dict[str, int]] = {}
    for q, d, g in zip(qrels.query_id, qrels.doc_id, qrels.grade.tolist(), strict=True):
        judged.setdefault(q, {})[d] = g
    ranked: dict[str, list[tuple[float, str]]] = {}
    for q, d, s in zip(run.query_id, run.doc_id, run.score.tolist(), strict=True):
        ranked.setdefault(q, []).append((s, d))
    values = []
    for q, grades in judged.items():
        hits = sorted(ranked.get(q, []), key=lambda h: (h[0], h[1].encode()), reverse=True)
        dcg = sum(grades.get(d, 0) / math.log2(r + 2) for r, (_, d) in enumerate(hits[:k]))
        ideal = sorted((g for g in grades.values() if g > 0), reverse=True)[:k]
        idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal))
        values.append(dcg / idcg if idcg > 0 else 0.0)
    return float(np.mean(values)), len(values)


def ndcg_ir_measures(k: int, run_path: Path, qrels_path: Path) -> float | None:
    """The same with ir-measures (if installed), as an independent check."""
    try:
        import ir_measures
    except ImportError:
        return None
    qrels = read_trec_qrels(qrels_path, grade_map=CRANFIELD_GRADE_MAP)
    run = read_trec_run(run_path)
    measure = ir_measures.nDCG @ k
    result = ir_measures.calc_aggregate(
        [measure],
        [
            ir_measures.Qrel(q, d, g)
            for q, d, g in zip(qrels.query_id, qrels.doc_id, qrels.grade.tolist(), strict=True)
        ],
        [
            ir_measures.ScoredDoc(q, d, s)
            for q, d, s in zip(run.query_id, run.doc_id, run.score.tolist(), strict=True)
        ],
    )
    return float(result[measure])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--source", type=Path, help="folder with the raw Cranfield files to copy first"
    )
    args = parser.parse_args()
    if args.source is not None:
        copy_collection(args.source)
    documents = read_smart_documents(COLLECTION / "cran.all.1400")
    queries = read_smart_queries(COLLECTION / "cran.qry", renumber=True)
    texts = {
        "title": [title or "" for title in documents.title],
        "title+text": [
            f"{title or ''} {text or ''}".strip()
            for title, text in zip(documents.title, documents.text, strict=True)
        ],
    }
    print(f"bm25s {bm25s.__version__}: k1={K1} b={B} method={METHOD} top {TOP_K}")
    print(f"{len(documents)} documents, {len(queries)} queries")
    print(f"{'run':16} {'lines':>6} {'queries':>7} {'NDCG@10':>8} {'ir-measures':>11}")
    for name, field in RUNS.items():
        rows = make_run(name, documents.doc_id, texts[field], queries.query_id, queries.text)
        path = DEMO / f"cranfield.{name}.run"
        write_trec_run(path, rows)
        mean, n_queries = ndcg_at(10, path, COLLECTION / "cranqrel.trec")
        check = ndcg_ir_measures(10, path, COLLECTION / "cranqrel.trec")
        shown = "-" if check is None else f"{check:.4f}"
        print(f"{name:16} {len(rows):6} {n_queries:7} {mean:8.4f} {shown:>11}")


if __name__ == "__main__":
    main()
