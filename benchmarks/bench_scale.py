"""Imports at scale (#20 points 2 and 3): time and peak memory of ``import qrels`` then
``import run`` then ``score``, each a fresh ``ndcg-studio`` process, at one or more sizes, on
SQLite or PostgreSQL.

Data: ``lines / 100`` queries × 100 lines (the generator of ``bench_end_to_end.py``, written
line by line so a 10M-line file needs no 10M-element lists), one run and one qrels file.
Reported per step: wall seconds, CPU seconds of the process (user + system: the fairer
measure on a shared machine), peak RSS of the process (``wait4``'s ``ru_maxrss``), and the
1-minute load average when the step ended (the machine is shared: read times beside it).

Run::

    python benchmarks/bench_scale.py --lines 1M 3M            # SQLite file in a temp folder
    python benchmarks/bench_scale.py --lines 1M --db-url postgresql+psycopg://...  # empty DB
    python benchmarks/bench_scale.py --lines 1M --postgres    # starts a throw-away server
                                                              # (tests/pg.py; initdb on PATH
                                                              # or /usr/lib/postgresql/*/bin)
    python benchmarks/bench_scale.py --lines 1M --no-history  # SQLite: the judgment-history
                                                              # triggers dropped, to measure them

``--no-history`` is for measuring only: the triggers are a safety rule (#14) of every real
database.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

_BLOCK = 1_000_000


def parse_lines(text: str) -> int:
    """``1M`` → 1,000,000; ``300k`` → 300,000; plain integers as they are."""
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def make_files(folder: Path, n_queries: int, depth: int, seed: int = 0) -> tuple[Path, Path]:
    """A qrels and a run file of ``n_queries × depth`` lines, as ``bench_end_to_end.make_files``
    (same distributions), generated block by block."""
    rng = np.random.default_rng(seed)
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    per_block = max(1, _BLOCK // depth)
    with qrels.open("w") as fq, run.open("w") as fr:
        for first in range(0, n_queries, per_block):
            nq = min(per_block, n_queries - first)
            q = np.repeat(np.arange(first, first + nq), depth)
            d = rng.integers(0, 5_000_000 * max(1, n_queries // 10_000), size=nq * depth)
            d = (d // depth) * depth + np.tile(np.arange(depth), nq)  # distinct per query
            grades = rng.integers(0, 5, size=len(q))
            scores = np.round(rng.random(len(q)) * 100, 4)
            ranks = np.tile(np.arange(1, depth + 1), nq)
            order = np.lexsort((-scores, q))
            ranks_sorted = np.empty_like(ranks)
            ranks_sorted[order] = ranks
            fq.writelines(
                f"q{a} 0 D{b} {g}\n"
                for a, b, g in zip(q.tolist(), d.tolist(), grades.tolist(), strict=True)
            )
            fr.writelines(
                f"q{a} Q0 D{b} {r} {s} bench\n"
                for a, b, r, s in zip(
                    q.tolist(), d.tolist(), ranks_sorted.tolist(), scores.tolist(), strict=True
                )
            )
    return qrels, run


def measured(cmd: list[str]) -> tuple[float, float, float, float]:
    """``(seconds, CPU seconds, peak RSS in MB, 1-minute load average)`` of one process run
    to its end."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {process.returncode}")
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, usage.ru_maxrss / 1024, os.getloadavg()[0]


def drop_history_triggers(db: Path) -> None:
    """SQLite: create the schema, then drop the judgment-history triggers (measuring only)."""
    from ndcg_studio.storage.database import open_database

    open_database(str(db)).dispose()
    with sqlite3.connect(db) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='trigger' AND name LIKE "
                "'trg_judgments_history_%'"
            )
        ]
        for name in names:
            conn.execute(f'DROP TRIGGER "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", nargs="+", default=["1M"], help="sizes, e.g. 1M 3M 10M")
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--db-url", help="an EMPTY PostgreSQL database (else SQLite)")
    parser.add_argument("--postgres", action="store_true", help="start a throw-away server")
    parser.add_argument("--no-history", action="store_true", help="SQLite: drop the triggers")
    parser.add_argument("--steps", default="qrels,run,score", help="which steps, in order")
    parser.add_argument("--keep", help="folder for the generated files (reused when present)")
    args = parser.parse_args()
    server = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pg import PostgresServer, find_bin_dir  # type: ignore[import-not-found]

        bin_dir = find_bin_dir()
        if bin_dir is None:
            raise SystemExit("no PostgreSQL binaries (apt-get install postgresql)")
        server = PostgresServer.start(bin_dir)
    steps = args.steps.split(",")
    print("lines  step   seconds  CPU s  peak RSS MB  load(1 min)")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for size in args.lines:
                n = parse_lines(size)
                folder = Path(args.keep or tmp) / f"{n}"
                folder.mkdir(parents=True, exist_ok=True)
                qrels, run = folder / "qrels.txt", folder / "run.txt"
                if not (qrels.exists() and run.exists()):
                    make_files(folder, n // args.depth, args.depth)
                if args.db_url:
                    url = args.db_url
                elif server is not None:
                    url = server.url(server.create_database())
                else:
                    db = Path(tmp) / f"bench-{n}.sqlite"
                    if args.no_history:
                        drop_history_triggers(db)
                    url = str(db)
                base = [sys.executable, "-m", "ndcg_studio", "--db", url]
                commands = {
                    "qrels": [*base, "import", "qrels", str(qrels), "-q"],
                    "run": [*base, "import", "run", str(run), "-q"],
                    "score": [*base, "score", "--format", "csv", "--output", str(folder / "s")],
                }
                for step in steps:
                    seconds, cpu, rss, load = measured(commands[step])
                    numbers = f"{seconds:7.2f}  {cpu:5.1f}  {rss:11.0f}  {load:6.2f}"
                    print(f"{size:>5}  {step:<5}  {numbers}")
                    sys.stdout.flush()
    finally:
        if server is not None:
            server.remove()


if __name__ == "__main__":
    main()
