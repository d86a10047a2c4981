"""Benchmark of the TREC run and qrels readers of ndcg_studio.io against peers, in the same run.

Data (generated under a temporary directory, seed fixed): a run of 1,000 queries x 1,000
documents = 1,000,000 lines ``qid Q0 docno rank score tag`` (single spaces, scores with 6
decimals) and a qrels file of 1,000,000 lines ``qid 0 docno grade`` (grades 0..4).

Peers: a plain-Python loop (``line.split()`` per line, ``float``/``int``, a dict for duplicates —
what a careful reader without numpy does), ir-measures' ``read_trec_run``/``read_trec_qrels``
(generators of namedtuples, consumed into a list), ranx ``Run.from_file``/``Qrels.from_file``
(pandas-based, builds nested dicts) and pandas ``read_csv`` alone (only tokenizing, no checks).
The peers do less checking than ours (no duplicate or field-count errors) except the plain loop.

Run: python benchmarks/bench_io_parse.py [--lines 1000000] [--repeat 3]
Prints one table: best-of-N wall time and CPU time in seconds, million lines per second (wall).
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run
except ModuleNotFoundError:  # run as a plain script from a checkout
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run


def make_files(folder: Path, n_lines: int, seed: int = 0) -> tuple[Path, Path]:
    """Write a run and a qrels file of ``n_lines`` lines each; return their paths."""
    rng = np.random.default_rng(seed)
    per_query = 1000
    n_queries = max(1, n_lines // per_query)
    run_path = folder / "run.txt"
    qrels_path = folder / "qrels.txt"
    with (
        run_path.open("w", encoding="utf-8", newline="\n") as run,
        qrels_path.open("w", encoding="utf-8", newline="\n") as qrels,
    ):
        for q in range(n_queries):
            docs = rng.choice(10_000_000, size=per_query, replace=False)
            scores = np.sort(rng.random(per_query))[::-1]
            grades = rng.integers(0, 5, size=per_query)
            qid = str(100_000 + q)
            run.write(
                "".join(
                    f"{qid} Q0 D{d} {r + 1} {s:.6f} bench\n"
                    for r, (d, s) in enumerate(zip(docs.tolist(), scores.tolist(), strict=True))
                )
            )
            qrels.write(
                "".join(
                    f"{qid} 0 D{d} {g}\n"
                    for d, g in zip(docs.tolist(), grades.tolist(), strict=True)
                )
            )
    return run_path, qrels_path


def plain_python_run(path: Path) -> int:
    """Reference point: a straightforward strict reader in pure Python."""
    seen: dict[tuple[str, str], int] = {}
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            fields = text.split()
            if len(fields) != 6:
                raise ValueError(number)
            qid, _, doc, rank, score, tag = fields
            if seen.setdefault((qid, doc), number) != number:
                raise ValueError(number)
            rows.append((qid, doc, int(rank), float(score), tag))
    return len(rows)


def plain_python_qrels(path: Path) -> int:
    """Reference point: a straightforward strict qrels reader in pure Python."""
    seen: dict[tuple[str, str], int] = {}
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            fields = text.split()
            if len(fields) != 4:
                raise ValueError(number)
            qid, _, doc, grade = fields
            if seen.setdefault((qid, doc), number) != number:
                raise ValueError(number)
            rows.append((qid, doc, int(grade)))
    return len(rows)


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (this process) of ``repeat`` calls, in seconds.

    CPU time is shown too because the benchmark machine may be shared: wall time then
    includes waiting for a core, CPU time does not.
    """
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        gc.collect()
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        best_wall = min(best_wall, time.perf_counter() - start_wall)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        del result
    return best_wall, best_cpu


def peers(run_path: Path, qrels_path: Path) -> list[tuple[str, str, Callable[[], Any]]]:
    """(file kind, tool, callable) of every peer that is installed."""
    found: list[tuple[str, str, Callable[[], Any]]] = [
        ("run", "ndcg_studio read_trec_run", lambda: len(read_trec_run(run_path))),
        ("run", "plain Python loop", lambda: plain_python_run(run_path)),
        ("qrels", "ndcg_studio read_trec_qrels", lambda: len(read_trec_qrels(qrels_path))),
        ("qrels", "plain Python loop", lambda: plain_python_qrels(qrels_path)),
    ]
    try:
        import ir_measures

        def ir_measures_run() -> int:
            return len(list(ir_measures.read_trec_run(str(run_path))))

        def ir_measures_qrels() -> int:
            return len(list(ir_measures.read_trec_qrels(str(qrels_path))))

        found += [
            ("run", "ir-measures read_trec_run", ir_measures_run),
            ("qrels", "ir-measures read_trec_qrels", ir_measures_qrels),
        ]
    except ImportError:
        pass
    try:
        import ranx

        def ranx_run() -> object:
            return ranx.Run.from_file(str(run_path), kind="trec")

        def ranx_qrels() -> object:
            return ranx.Qrels.from_file(str(qrels_path), kind="trec")

        found += [
            ("run", "ranx Run.from_file", ranx_run),
            ("qrels", "ranx Qrels.from_file", ranx_qrels),
        ]
    except ImportError:
        pass
    try:
        import pandas as pd

        def pandas_run() -> int:
            frame = pd.read_csv(run_path, sep=r"\s+", header=None, dtype={0: str, 2: str})
            return len(frame)

        found.append(("run", "pandas read_csv (tokenize only)", pandas_run))
    except ImportError:
        pass
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ours-only", action="store_true", help="skip the peers")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory(prefix="bench_io_") as tmp:
        run_path, qrels_path = make_files(Path(tmp), args.lines)
        mb = run_path.stat().st_size / 1e6, qrels_path.stat().st_size / 1e6
        print(f"run file: {args.lines:,} lines, {mb[0]:.1f} MB; qrels: {mb[1]:.1f} MB")
        print(f"{'file':6} {'tool':36} {'wall s':>8} {'cpu s':>8} {'M lines/s':>10}")
        for kind, name, fn in peers(run_path, qrels_path):
            if args.ours_only and not name.startswith("ndcg_studio"):
                continue
            try:
                seconds, cpu = best_of(fn, args.repeat)
            except Exception as exc:  # a peer failing is reported, not fatal
                print(f"{kind:6} {name:36} failed: {type(exc).__name__}: {exc}")
                continue
            print(
                f"{kind:6} {name:36} {seconds:8.3f} {cpu:8.3f} {args.lines / seconds / 1e6:10.2f}"
            )


if __name__ == "__main__":
    main()
