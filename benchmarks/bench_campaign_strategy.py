"""Benchmark of a campaign's queue under each pool strategy (issue #16.1 with #17.1).

Data: ``bench_annotation.build`` (SQLite under a temporary directory): ``--queries`` queries,
two runs of 10 results per query sharing 5 (15 pooled documents per query), one annotator who
judged 10 documents of every query (those grades count: 2/3 of the items start with one grade).
A campaign over every query (depth 10, overlap 2) per strategy; measured (``time.perf_counter``):
creating it, the first ``queue(limit=1)``, and the campaign keystroke, ``grade`` +
``queue(limit=1)``, p50/p95/max over ``--grades``.

``depth`` reads the next item level by level from an index and stops early; ``mtf``, ``bandit``
and ``ab`` build the campaign's strategy state on the first call (its items, ranks and grades:
the "first" column) and keep it between calls (services/campaign_order.py), reading only the
grades written since; the 1-minute load average is printed beside each row.

Run: python benchmarks/bench_campaign_strategy.py [--queries 10000] [--grades 30]
[--strategies depth mtf bandit ab]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_annotation import build, percentiles

from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.campaigns.types import CampaignSpec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--grades", type=int, default=30)
    parser.add_argument("--strategies", nargs="+", default=["depth", "mtf", "bandit", "ab"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = build(Path(tmp) / "bench.sqlite", args.queries)
        svc = CampaignService(db)
        me = svc.annotation.ensure_annotator("bench-campaign").id
        rnd = random.Random(2)
        print(f"{'strategy':<8}  {'items':>8}  {'create s':>8}  {'first ms':>9}  keystroke ms")
        for strategy in args.strategies:
            extra = {"pair": ("run-a", "run-b"), "k": 10} if strategy == "ab" else {}
            t0 = time.perf_counter()
            info = svc.create(
                CampaignSpec(
                    name=strategy,
                    runs=["run-a", "run-b"],
                    depth=10,
                    overlap=2,
                    annotators=["bench", "bench-campaign"],
                    seed=3,
                    gold_rate=0.0,
                    strategy=strategy,  # type: ignore[arg-type]
                    **extra,  # type: ignore[arg-type]
                )
            )
            create = time.perf_counter() - t0
            t0 = time.perf_counter()
            shown = svc.queue(strategy, me, 1)
            first = time.perf_counter() - t0
            samples = []
            for _ in range(args.grades):
                item = shown[0]
                t0 = time.perf_counter()
                svc.grade(strategy, me, item.query_id, item.document_id, rnd.randrange(5))
                shown = svc.queue(strategy, me, 1)
                samples.append(time.perf_counter() - t0)
            print(
                f"{strategy:<8}  {info.items:>8,}  {create:8.2f}  {first * 1000:9.1f}  "
                f"{percentiles(samples)}   load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        db.dispose()


if __name__ == "__main__":
    main()
