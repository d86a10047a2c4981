"""Where an import's CPU goes, per phase (#20 point 2): one ``ndcg-studio import`` in this
process with the import's functions wrapped to sum their thread CPU (``time.thread_time``) and
wall time, then the process's CPU (user + system) and peak RSS.

CPU rather than wall: the machine is shared, and wall time moves by 3x with the load. The
documents' functions run in the import's helper thread; ``DocumentsMeanwhile.result`` is the
importing thread's wait for it. Files: those of ``bench_scale.py`` (``--keep FOLDER``).

Run::

    python benchmarks/bench_import_phases.py /tmp/db.sqlite qrels FOLDER/3000000/qrels.txt

The database should be new (or hold what the comparison needs, e.g. the qrels before a run).
"""

from __future__ import annotations

import functools
import resource
import sys
import time
from collections import defaultdict
from typing import Any

from ndcg_studio.services.importing import pieces
from ndcg_studio.services.importing import steps as import_steps
from ndcg_studio.storage.bulk import external_ids, imports, staged_ids
from ndcg_studio.storage.judgments import sets

_TOTALS: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])


def wrap(owner: Any, name: str, label: str | None = None) -> None:
    """Replace ``owner.name`` by a wrapper that adds its thread CPU and wall time to the
    totals under ``label`` (default: the name)."""
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            total = _TOTALS[label or name]
            total[0] += time.thread_time() - cpu
            total[1] += time.perf_counter() - wall
            total[2] += 1

    setattr(owner, name, timed)


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    db, kind, path = sys.argv[1:]
    for name in ("document_ids", "factorize"):
        wrap(imports, name)
    wrap(imports.DocumentsMeanwhile, "result", "DocumentsMeanwhile.result (wait)")
    wrap(external_ids, "_look_up", "_look_up (any table)")
    # SQLite: the documents after the pieces
    wrap(staged_ids.StagedIds, "add_json", "StagedIds.add_json (helper)")
    wrap(staged_ids.StagedIds, "settle", "StagedIds.settle")
    wrap(sets, "bulk_insert_columns", "bulk_insert_columns (judgments)")
    for name in ("apply_judgments", "plan_judgments", "insert_results"):
        wrap(import_steps, name)
    for name in ("refuse_repeats", "concatenate", "query_ids", "annotator_ids"):
        wrap(pieces, name)
    for name in ("add_qrels", "add_run", "run_columns", "qrels_columns"):
        wrap(pieces.Pieces, name)
    from ndcg_studio.io.trec import readers as trec

    for name in ("_run_from_text", "_qrels_from_text"):
        wrap(trec, name)
    from ndcg_studio.app import console_main

    start = time.perf_counter()
    sys.argv = ["ndcg-studio", "--db", db, "import", kind, path, "-q"]
    try:
        code: object = console_main()
    except SystemExit as exit_:  # console_main ends the process with the command's code
        code = exit_.code
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"exit {code}  wall {time.perf_counter() - start:.1f} s  "
        f"CPU {usage.ru_utime + usage.ru_stime:.1f} s (user {usage.ru_utime:.1f})  "
        f"peak RSS {usage.ru_maxrss // 1024} MB"
    )
    for name, (cpu, wall, calls) in sorted(_TOTALS.items(), key=lambda kv: -kv[1][0]):
        print(f"  {name:36} CPU {cpu:7.2f}  wall {wall:7.2f}  calls {calls:.0f}")


if __name__ == "__main__":
    main()
