"""``ndcg-studio eval QRELS RUN`` against trec_eval and pytrec_eval on the same files, same run.

Data (generated under a temporary folder, seed fixed, as ``bench_end_to_end.py``): a run of
``--lines`` lines (queries x 100 results, lines not in score order) and a qrels file of as many
lines (every result judged, grades 0-4). Each tool is a fresh process, timed from start to
exit, with its CPU time and peak RSS (``getrusage(RUSAGE_CHILDREN)`` of a wrapper process
around it):

* ``ndcg-studio eval -m ndcg_cut.10 -m P.5 -m recip_rank -m map QRELS RUN``;
* ``trec_eval`` with the same arguments, when ``--trec-eval PATH`` names a binary (build it
  from github.com/usnistgov/trec_eval with ``-O2``; nothing of it is part of this project);
* pytrec_eval: ``parse_qrel`` + ``parse_run`` of the files, ``RelevanceEvaluator`` with the
  same four measures, means computed.

``--set shared``: instead of the four, every measure the three share (:data:`SHARED`: the 30
default lines of trec_eval and success, set_*, infAP, ndcg, ndcg_rel, map_cut,
num_nonrel_judged_ret, each at trec_eval's default cutoffs) — the work of a user who asks for
everything. The ``all`` lines of trec_eval must be identical to ours, pytrec_eval's within one
unit of the 4th decimal (its means are Python sums in its own order; its iprec_at_recall embeds
trec_eval 9's cutoffs) — checked, printed; runid, num_q and gm_map are left out (pytrec_eval
gives per-query values only).

Run: ``python benchmarks/bench_eval.py [--lines 1000000] [--repeat 3] [--trec-eval PATH]
[--set four|shared]``.
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

from ndcg_studio.services.evaluation.measures import DEFAULT_MEASURES  # noqa: E402

MEASURES = ["-m", "ndcg_cut.10", "-m", "P.5", "-m", "recip_rank", "-m", "map"]
#: every measure ``ndcg-studio eval``, trec_eval and pytrec_eval all compute: trec_eval's
#: default set and these
SHARED = [m for m in DEFAULT_MEASURES if m != "runid"] + [
    "recall",
    "infAP",
    "ndcg",
    "ndcg_rel",
    "ndcg_cut",
    "map_cut",
    "success",
    "set_P",
    "set_relative_P",
    "set_recall",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
]

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
result = pytrec_eval.RelevanceEvaluator(qrels, set(sys.argv[3:])).evaluate(run)
counts = ("num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")
for name in sorted(next(iter(result.values()))):
    if name == "gm_map" or name == "runid":
        continue
    total = sum(v[name] for v in result.values())
    if name.startswith(counts):
        print(f"{name:<22}\\tall\\t{int(total)}")
    else:
        print(f"{name:<22}\\tall\\t{total / len(result):6.4f}")
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
    """The ``all`` lines but runid, num_q and gm_map (pytrec_eval gives none of them), sorted,
    with the names' padding dropped."""
    lines = (line.split() for line in stdout.splitlines() if "\tall\t" in line)
    return sorted(
        " ".join(parts) for parts in lines if parts[0] not in ("runid", "num_q", "gm_map")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trec-eval", metavar="PATH", help="a trec_eval binary (else skipped)")
    parser.add_argument("--keep", metavar="FOLDER", help="write the files here and keep them")
    parser.add_argument("--set", choices=("four", "shared"), default="four")
    args = parser.parse_args()
    measures = MEASURES if args.set == "four" else [w for m in SHARED for w in ("-m", m)]
    peer_names = ["ndcg_cut.10", "P.5", "recip_rank", "map"] if args.set == "four" else SHARED
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bench_eval_"))
    folder.mkdir(parents=True, exist_ok=True)
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    if not (qrels.is_file() and run.is_file()):
        make_files(folder, max(1, args.lines // 100), 100)
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    tools: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "ndcg-studio eval": (
            [sys.executable, "-m", "ndcg_studio", "eval", *measures, str(qrels), str(run)],
            env,
        ),
        "pytrec_eval": (
            [sys.executable, "-c", _PYTREC, str(qrels), str(run), *peer_names],
            None,
        ),
    }
    trec_eval = args.trec_eval and shutil.which(args.trec_eval)
    if trec_eval:
        tools["trec_eval"] = ([trec_eval, *measures, str(qrels), str(run)], None)
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
    print(f"measures: {args.set}")
    print(f"{args.lines:,} lines per file; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'tool':<18} {'best s':>8} {'median s':>9} {'best CPU s':>11} {'peak RSS MiB':>13}")
    for name, rows in results.items():
        walls = sorted(w for w, _, _ in rows)
        print(
            f"{name:<18} {walls[0]:>8.2f} {walls[len(walls) // 2]:>9.2f} "
            f"{min(c for _, _, c in rows):>11.2f} {max(r for _, r, _ in rows):>13}"
        )
    reference = outputs["ndcg-studio eval"]
    ours = dict(line.rsplit(" ", 1) for line in reference)
    for name, lines in outputs.items():
        if name == "ndcg-studio eval":
            continue
        theirs = dict(line.rsplit(" ", 1) for line in lines)
        off = sorted(
            k for k in ours if k in theirs and abs(float(ours[k]) - float(theirs[k])) > 1.5e-4
        )
        print(
            f"{name}: 'all' lines identical to ndcg-studio eval's: {lines == reference}; "
            f"further apart than the 4th decimal: {off or 'none'}"
        )
    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
