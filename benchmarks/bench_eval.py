"""``ndcg-studio eval QRELS RUN`` against trec_eval and pytrec_eval on the same files, same run.

Data (generated under a temporary folder, seed fixed, as ``bench_end_to_end.py``): a run of
``--lines`` lines (queries x 100 results, lines not in score order) and a qrels file of as many
lines (every result judged, grades 0-4). Each tool is a fresh process, timed from start to
exit, with its CPU time and peak RSS (``getrusage(RUSAGE_CHILDREN)`` of a wrapper process
around it):

* ``ndcg-studio eval -m ndcg_cut.10 -m P.5 -m recip_rank -m map QRELS RUN``;
* ``trec_eval`` with the same arguments, when ``--trec-eval PATH`` names a binary (build it
  from github.com/usnistgov/trec_eval; nothing of it is part of this project);
* pytrec_eval: ``parse_qrel`` + ``parse_run`` of the files, ``RelevanceEvaluator`` with the
  same four measures, means computed.

The ``all`` values of the three must agree to 4 decimals (checked, printed).

Run: ``python benchmarks/bench_eval.py [--lines 1000000] [--repeat 3] [--trec-eval PATH]``.
Keep 10M-line runs to one or two repeats on a shared machine; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_end_to_end import make_files  # noqa: E402

MEASURES = ["-m", "ndcg_cut.10", "-m", "P.5", "-m", "recip_rank", "-m", "map"]

# Runs one command; prints "wall_seconds peak_rss_kib cpu_seconds" on stderr's last line.
_WRAPPER = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:]).returncode
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}", file=sys.stderr)
sys.exit(code)
"""

_PYTREC = """
import sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(sys.argv[2]) as f:
    run = pytrec_eval.parse_run(f)
names = {"ndcg_cut_10": "ndcg_cut.10", "P_5": "P.5", "recip_rank": "recip_rank", "map": "map"}
result = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
for name in ("map", "recip_rank", "P_5", "ndcg_cut_10"):
    mean = sum(v[name] for v in result.values()) / len(result)
    print(f"{name:<22}\\tall\\t{mean:6.4f}")
"""


def measure(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, float, str]:
    """(wall seconds, peak RSS in MiB, CPU seconds, stdout) of one fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *cmd],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall, rss, cpu = done.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss) // 1024, float(cpu), done.stdout


def summary(stdout: str) -> list[str]:
    return sorted(line for line in stdout.splitlines() if "\tall\t" in line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trec-eval", metavar="PATH", help="a trec_eval binary (else skipped)")
    parser.add_argument("--keep", metavar="FOLDER", help="write the files here and keep them")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench_eval_"))
    folder.mkdir(parents=True, exist_ok=True)
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    if not (qrels.is_file() and run.is_file()):
        make_files(folder, max(1, args.lines // 100), 100)
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    tools: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "ndcg-studio eval": (
            [sys.executable, "-m", "ndcg_studio", "eval", *MEASURES, str(qrels), str(run)],
            env,
        ),
        "pytrec_eval": ([sys.executable, "-c", _PYTREC, str(qrels), str(run)], None),
    }
    trec_eval = args.trec_eval and shutil.which(args.trec_eval)
    if trec_eval:
        tools["trec_eval"] = ([trec_eval, *MEASURES, str(qrels), str(run)], None)
    else:
        print("trec_eval: skipped (no --trec-eval PATH)")
    results: dict[str, list[tuple[float, int, float]]] = {name: [] for name in tools}
    outputs: dict[str, list[str]] = {}
    for _ in range(args.repeat):
        for name, (cmd, tool_env) in tools.items():
            wall, rss, cpu, out = measure(cmd, tool_env)
            results[name].append((wall, rss, cpu))
            outputs[name] = summary(out)
    load = os.getloadavg()
    print(f"{args.lines:,} lines per file; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'tool':<18} {'best s':>8} {'median s':>9} {'best CPU s':>11} {'peak RSS MiB':>13}")
    for name, rows in results.items():
        walls = sorted(w for w, _, _ in rows)
        print(
            f"{name:<18} {walls[0]:>8.2f} {walls[len(walls) // 2]:>9.2f} "
            f"{min(c for _, _, c in rows):>11.2f} {max(r for _, r, _ in rows):>13}"
        )
    reference = outputs["ndcg-studio eval"]
    for name, lines in outputs.items():
        print(f"{name}: same 'all' values as ndcg-studio eval: {lines == reference}")
    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
