"""End-to-end speed of the command line on 1,000,000 lines (issues: import < 5 s per file,
score < 1 s end to end), with ranx loading the same files for comparison.

Data: 10,000 queries × 100 results (one run) and 10,000 × 100 judgments (one annotator, grades
0-4, every result judged), written as TREC files under a temporary folder. Each step is a fresh
``ndcg-studio`` process, timed from process start to exit (what a user waits for):

1. ``ndcg-studio import run`` (1,000,000 lines) alone into an empty SQLite file;
2. ``ndcg-studio import qrels`` (1,000,000 lines) into another empty file, then
   ``ndcg-studio import run`` into that one (most of its documents known by then);
   steps 1-2 are repeated ``--import-repeat`` times with fresh files (best, median, worst);
3. ``ndcg-studio score --format csv --output scores.csv`` (NDCG@10 for 10,000 queries);
4. ranx ``Qrels.from_file`` + ``Run.from_file`` of the same two files (peer, same run).

Run: ``python benchmarks/bench_end_to_end.py [--queries 10000] [--depth 100]``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def make_files(folder: Path, n_queries: int, depth: int, seed: int = 0) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    q = np.repeat(np.arange(n_queries), depth)
    d = rng.integers(0, 5_000_000, size=n_queries * depth)
    # distinct documents within a query
    d = (d // depth) * depth + np.tile(np.arange(depth), n_queries)
    grades = rng.integers(0, 5, size=len(q))
    scores = np.round(rng.random(len(q)) * 100, 4)
    ranks = np.tile(np.arange(1, depth + 1), n_queries)
    order = np.lexsort((-scores, q))
    ranks_sorted = np.empty_like(ranks)
    ranks_sorted[order] = ranks
    with qrels.open("w") as f:
        f.writelines(
            f"q{a} 0 D{b} {g}\n"
            for a, b, g in zip(q.tolist(), d.tolist(), grades.tolist(), strict=True)
        )
    with run.open("w") as f:
        f.writelines(
            f"q{a} Q0 D{b} {r} {s} bench\n"
            for a, b, r, s in zip(
                q.tolist(), d.tolist(), ranks_sorted.tolist(), scores.tolist(), strict=True
            )
        )
    return qrels, run


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument(
        "--repeat", type=int, default=7, help="score runs (best and median are reported)"
    )
    parser.add_argument(
        "--import-repeat",
        type=int,
        default=3,
        help="rounds of the three imports, each into fresh databases (best, median, worst)",
    )
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("ndcg-studio"))
    # Byte-code as an installed wheel has it (pip compiles on install). An editable install run
    # with PYTHONDONTWRITEBYTECODE=1 would otherwise compile every edited module on each start.
    import ndcg_studio

    compileall.compile_dir(str(Path(ndcg_studio.__file__).parent), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        qrels, run = make_files(folder, args.queries, args.depth)
        n = args.queries * args.depth
        db = str(folder / "bench.sqlite")
        env = {**os.environ, "NDCG_STUDIO_DB": db}
        os.environ.update(env)
        results: list[tuple[str, float]] = []
        steps: dict[str, list[float]] = {}
        for _ in range(args.import_repeat):
            for name in ("alone.sqlite", "bench.sqlite"):
                for suffix in ("", "-wal", "-shm"):
                    (folder / f"{name}{suffix}").unlink(missing_ok=True)
            # Each file alone into an empty database (all its documents new)...
            alone = str(folder / "alone.sqlite")
            steps.setdefault(f"import run ({n:,} lines) into an empty database", []).append(
                timed([exe, "--db", alone, "import", "run", str(run), "-q"])
            )
            # ... and the usual order: qrels first, then the run (its documents mostly known).
            steps.setdefault(f"import qrels ({n:,} lines) into an empty database", []).append(
                timed([exe, "import", "qrels", str(qrels), "-q"])
            )
            steps.setdefault(f"import run ({n:,} lines) after the qrels", []).append(
                timed([exe, "import", "run", str(run), "-q"])
            )
        for label, seconds in steps.items():
            seconds.sort()
            results.append((f"{label}, best of {len(seconds)}", seconds[0]))
            results.append((f"{label}, median", statistics.median(seconds)))
            results.append((f"{label}, worst", seconds[-1]))
        out = folder / "scores.csv"
        times = sorted(
            timed([exe, "score", "--format", "csv", "--output", str(out)])
            for _ in range(args.repeat)
        )
        label = f"score NDCG@10 end to end ({args.queries:,} queries)"
        results.append((f"{label}, best of {args.repeat}", times[0]))
        results.append((f"{label}, median of {args.repeat}", statistics.median(times)))
        rows = sum(1 for line in out.open() if not line.startswith("#")) - 1
        assert rows == args.queries, rows
        try:
            from ranx import Qrels, Run

            start = time.perf_counter()
            Qrels.from_file(str(qrels), kind="trec")
            Run.from_file(str(run), kind="trec")
            results.append(("ranx: load the same qrels + run files", time.perf_counter() - start))
        except ImportError:
            results.append(("ranx not installed (pip install -e '.[dev]')", float("nan")))
    width = max(len(name) for name, _ in results)
    print(f"{'step':<{width}}  seconds")
    for name, seconds in results:
        print(f"{name:<{width}}  {seconds:7.2f}")


if __name__ == "__main__":
    main()
