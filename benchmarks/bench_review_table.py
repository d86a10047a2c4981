"""Review table model at scale: 100,000 queries × 1 run (synthetic arrays).

Measures, for :class:`ndcg_studio.ui.models.scores.ScoresTableModel` (numpy sort and filter):
setting the rows, sorting by nDCG (ascending and descending, NaN last), sorting by query id
(natural order), filtering by text and by band, and formatting one screen of cells. Peers in the
same run: the same sort through a ``QSortFilterProxyModel`` (one ``lessThan`` per comparison, each
calling the model's ``data()``), and Python's ``sorted`` over the values.

Run: ``QT_QPA_PLATFORM=offscreen python benchmarks/bench_review_table.py [n_queries]``.
Target: sort by nDCG < 200 ms at 100,000 rows.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QApplication

from ndcg_studio.domain.bands import Band, band_of
from ndcg_studio.services.screens.review import ReviewRows
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.models.scores import ReviewFilter, ScoresTableModel
from ndcg_studio.ui.models.table import SORT_ROLE

WORDS = np.array(
    [
        "wing",
        "lift",
        "drag",
        "boundary",
        "layer",
        "flow",
        "heat",
        "transfer",
        "shock",
        "wave",
        "flutter",
        "panel",
        "buckling",
        "supersonic",
        "hypersonic",
        "laminar",
        "turbulent",
        "nozzle",
        "pressure",
        "cylinder",
        "plate",
    ]
)


def synthetic_rows(n: int, seed: int = 0) -> ReviewRows:
    """n queries of one run: nDCG ~ Beta(2, 3) with 2% NaN (no judgments), random texts."""
    rng = np.random.default_rng(seed)
    ndcg = rng.beta(2, 3, n)
    ndcg[rng.random(n) < 0.02] = np.nan
    idcg = rng.uniform(1, 20, n)
    words = WORDS[rng.integers(0, len(WORDS), (n, 5))]
    text = np.array([" ".join(w) for w in words.tolist()])
    return ReviewRows(
        k=10,
        query=rng.permutation(n).astype(str),  # external ids in no particular order
        query_id=np.arange(1, n + 1, dtype=np.int64),
        run=np.full(n, "bm25"),
        ndcg=ndcg,
        dcg=ndcg * idcg,
        idcg=np.where(np.isnan(ndcg), np.nan, idcg),
        band=band_of(ndcg),
        judged_at_k=rng.integers(0, 11, n) / 10,
        n_annotators=rng.integers(1, 4, n),
        alpha=rng.uniform(-0.2, 1, n),
        n_disputed=rng.poisson(0.3, n),
        text=text,
    )


def timed(fn: Callable[[], object], repeat: int = 5) -> tuple[float, float, float]:
    """(first, median, min) wall time in milliseconds over ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times[0], statistics.median(times), min(times)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    proxy_n = min(n, 20_000)
    app = QApplication.instance() or QApplication([])
    rows = synthetic_rows(n)
    model = ScoresTableModel()
    results: list[tuple[str, int, float, float, float]] = []

    def record(name: str, size: int, fn: Callable[[], object], repeat: int = 5) -> None:
        results.append((name, size, *timed(fn, repeat)))

    record("set_rows", n, lambda: model.set_rows(rows))
    record("sort nDCG ascending", n, lambda: model.sort(M.COL_NDCG, Qt.SortOrder.AscendingOrder))
    record("sort nDCG descending", n, lambda: model.sort(M.COL_NDCG, Qt.SortOrder.DescendingOrder))
    # the first sort of a column builds its key (string keys: integer ranks); later ones reuse it
    record("sort query (natural)", n, lambda: model.sort(M.COL_QUERY, Qt.SortOrder.AscendingOrder))
    record("sort query text", n, lambda: model.sort(M.COL_TEXT, Qt.SortOrder.AscendingOrder))
    record("filter text 'shock wave'", n, lambda: model.set_filter(ReviewFilter(text="shock wave")))
    shown_text = model.rowCount()
    record("filter band = fair", n, lambda: model.set_filter(ReviewFilter(band=int(Band.FAIR))))
    model.set_filter(ReviewFilter())
    model.sort(M.COL_NDCG, Qt.SortOrder.AscendingOrder)

    def one_screen() -> None:
        for r in range(40):
            for c in range(model.columnCount()):
                model.index(r, c).data()

    record("data() of one screen (40×11)", 440, one_screen)

    # check: NaN last, values ascending
    values = np.array([model.index(r, M.COL_NDCG).data(SORT_ROLE) for r in range(n)])
    finite = int((~np.isnan(rows.ndcg)).sum())
    assert np.all(np.diff(values[:finite]) >= 0) and np.isnan(values[finite:]).all()

    # peers: QSortFilterProxyModel (lessThan through data()) on a smaller table, Python sorted
    small = ScoresTableModel()
    small.set_rows(synthetic_rows(proxy_n))
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(small)
    proxy.setSortRole(SORT_ROLE)
    record(
        "peer: QSortFilterProxyModel sort nDCG",
        proxy_n,
        lambda: (proxy.sort(-1), proxy.sort(M.COL_NDCG, Qt.SortOrder.AscendingOrder)),
        repeat=3,
    )
    numpy_small = ScoresTableModel()
    numpy_small.set_rows(synthetic_rows(proxy_n))
    record(
        "numpy model sort nDCG (same size)",
        proxy_n,
        lambda: numpy_small.sort(M.COL_NDCG, Qt.SortOrder.AscendingOrder),
    )
    py_values = rows.ndcg.tolist()
    record(
        "peer: Python sorted() of the floats",
        n,
        lambda: sorted(range(n), key=lambda i: (py_values[i] != py_values[i], py_values[i])),
    )

    print(f"Review table model, {n:,} rows (text filter shows {shown_text:,})")
    print(f"{'operation':40s} {'rows':>8s} {'first ms':>9s} {'median ms':>10s} {'min ms':>8s}")
    for name, size, first, med, best in results:
        print(f"{name:40s} {size:8,d} {first:9.1f} {med:10.1f} {best:8.1f}")
    del app


if __name__ == "__main__":
    main()
