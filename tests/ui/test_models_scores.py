"""The Review table model: numpy sorting (NaN last), filters, roles; qtmodeltester."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from PySide6.QtCore import QPersistentModelIndex, Qt

from ndcg_studio.domain.bands import NO_BAND, band_of
from ndcg_studio.services.screens.review import ReviewRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.ui.bands import BAND_CODE_ROLE
from ndcg_studio.ui.collation import fold
from ndcg_studio.ui.models import scores as M
from ndcg_studio.ui.models.run_summary import RunSummaryModel
from ndcg_studio.ui.models.scores import ReviewFilter, ScoresTableModel
from ndcg_studio.ui.models.table import SORT_ROLE, sort_order

NAN = math.nan


def rows() -> ReviewRows:
    """6 rows: two runs × queries 2, 10, 1 (natural order 1 < 2 < 10); query 10 has no
    judgments (NaN) in both runs."""
    ndcg = np.array([0.75, NAN, 0.95, 0.5, NAN, 0.65])
    return ReviewRows(
        k=10,
        query=np.array(["2", "10", "1", "2", "10", "1"]),
        query_id=np.array([2, 10, 1, 2, 10, 1]),
        run=np.array(["bm25", "bm25", "bm25", "dense", "dense", "dense"]),
        ndcg=ndcg,
        dcg=np.array([1.5, NAN, 1.9, 1.0, NAN, 1.3]),
        idcg=np.array([2.0, NAN, 2.0, 2.0, NAN, 2.0]),
        band=band_of(ndcg),
        judged_at_k=np.array([1.0, 0.3, 0.9, 0.5, NAN, 0.7]),
        n_annotators=np.array([2, 0, 1, 2, 0, 1]),
        alpha=np.array([0.4, NAN, NAN, 0.4, NAN, NAN]),
        n_disputed=np.array([3, 0, 0, 3, 0, 0]),
        text=np.array(["Lift of Wings", "heat transfer", "boundary layer"] * 2),
    )


@pytest.fixture
def model(qapp: Any) -> ScoresTableModel:
    m = ScoresTableModel()
    m.set_rows(rows())
    return m


def column(model: ScoresTableModel, col: int, role: int = SORT_ROLE) -> list[Any]:
    return [model.index(r, col).data(role) for r in range(model.rowCount())]


def test_passes_qtmodeltester(qtmodeltester: Any, model: ScoresTableModel) -> None:
    qtmodeltester.check(model, force_py=False)
    model.sort(M.COL_NDCG, Qt.SortOrder.DescendingOrder)
    model.set_filter(ReviewFilter(run="bm25"))
    qtmodeltester.check(model, force_py=False)


def test_empty_model_passes_qtmodeltester(qtmodeltester: Any, qapp: Any) -> None:
    qtmodeltester.check(ScoresTableModel(), force_py=False)


@pytest.mark.parametrize("order", [Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder])
def test_nan_ndcg_sorts_last_in_both_orders(model: ScoresTableModel, order: Qt.SortOrder) -> None:
    model.sort(M.COL_NDCG, order)
    values = column(model, M.COL_NDCG)
    finite = [v for v in values if not math.isnan(v)]
    assert all(math.isnan(v) for v in values[len(finite) :])
    expected = sorted(finite, reverse=order == Qt.SortOrder.DescendingOrder)
    assert finite == expected and len(finite) == 4
    # NaN shows as an empty cell with no band
    last = model.rowCount() - 1
    assert model.index(last, M.COL_NDCG).data() == ""
    assert model.index(last, M.COL_BAND).data(BAND_CODE_ROLE) == NO_BAND
    assert model.index(last, M.COL_BAND).data() == ""


def test_band_column_sorts_by_code_with_no_band_last(model: ScoresTableModel) -> None:
    model.sort(M.COL_BAND, Qt.SortOrder.DescendingOrder)
    assert column(model, M.COL_BAND, Qt.ItemDataRole.DisplayRole) == [
        "Excellent",
        "Fair",
        "Poor",
        "Bad",
        "",
        "",
    ]


def test_query_ids_sort_naturally(model: ScoresTableModel) -> None:
    model.sort(M.COL_QUERY, Qt.SortOrder.AscendingOrder)
    assert column(model, M.COL_QUERY) == ["1", "1", "2", "2", "10", "10"]
    # stable: ties keep the source order (bm25 before dense)
    assert column(model, M.COL_RUN) == ["bm25", "dense"] * 3


def test_sort_moves_persistent_indexes(model: ScoresTableModel) -> None:
    idx = QPersistentModelIndex(model.index(2, M.COL_QUERY))  # query 1 of bm25 (0.95)
    assert idx.data() == "1"
    model.sort(M.COL_NDCG, Qt.SortOrder.DescendingOrder)
    assert idx.row() == 0 and idx.data() == "1"
    assert model.index(0, M.COL_NDCG).data() == "0.9500"


def test_filters(model: ScoresTableModel) -> None:
    model.set_filter(ReviewFilter(run="dense"))
    assert set(column(model, M.COL_RUN)) == {"dense"} and model.rowCount() == 3
    model.set_filter(ReviewFilter(band=int(band_of([0.75])[0])))
    assert column(model, M.COL_NDCG) == [0.75]
    model.set_filter(ReviewFilter(band=NO_BAND))
    assert column(model, M.COL_QUERY) == ["10", "10"]
    model.set_filter(ReviewFilter(text="WINGS"))  # case-insensitive, in the text
    assert column(model, M.COL_QUERY) == ["2", "2"]
    model.set_filter(ReviewFilter(text="10"))  # matches the query id
    assert column(model, M.COL_QUERY) == ["10", "10"]
    model.set_filter(ReviewFilter(disputed_only=True))
    assert column(model, M.COL_DISPUTED) == [3, 3]
    model.set_filter(ReviewFilter(coverage_below=0.8))  # NaN coverage is not "below"
    assert column(model, M.COL_JUDGED) == [0.3, 0.5, 0.7]
    model.set_filter(ReviewFilter(run="bm25", coverage_below=0.95, text="layer"))
    assert column(model, M.COL_NDCG) == [0.95]
    model.set_filter(ReviewFilter())
    assert model.rowCount() == 6 and model.source_count() == 6


def test_filter_and_sort_combine(model: ScoresTableModel) -> None:
    model.set_filter(ReviewFilter(run="dense"))
    model.sort(M.COL_NDCG, Qt.SortOrder.AscendingOrder)
    assert column(model, M.COL_NDCG)[:2] == [0.5, 0.65]
    assert math.isnan(column(model, M.COL_NDCG)[2])


def test_display_formats_and_tooltips(model: ScoresTableModel) -> None:
    assert model.headerData(M.COL_NDCG, Qt.Orientation.Horizontal) == "nDCG@10"
    assert model.index(0, M.COL_NDCG).data() == "0.7500"
    assert model.index(0, M.COL_JUDGED).data() == "100%"
    assert model.index(0, M.COL_ALPHA).data() == "0.40"
    assert model.index(2, M.COL_ALPHA).data() == ""
    assert "DCG 1.5000 / IDCG 2.0000 = 0.7500" in model.index(0, M.COL_NDCG).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert "no judgments" in model.index(1, M.COL_NDCG).data(Qt.ItemDataRole.ToolTipRole).lower()
    assert model.index(0, M.COL_BAND).data(Qt.ItemDataRole.ToolTipRole).startswith("fair")


def test_sort_order_matches_python_sorted() -> None:
    rng = np.random.default_rng(3)
    values = rng.random(500)
    values[rng.integers(0, 500, 40)] = np.nan
    for descending in (False, True):
        order = sort_order(values, descending)
        got = values[order]
        n = int((~np.isnan(values)).sum())
        assert np.isnan(got[n:]).all()
        expected = sorted(values[~np.isnan(values)].tolist(), reverse=descending)
        assert got[:n].tolist() == expected
    strings = np.array(["b", "a", "c", "a"])
    assert sort_order(strings, False).tolist() == [1, 3, 0, 2]
    assert sort_order(strings, True).tolist() == [2, 0, 1, 3]  # stable in both directions
    assert natural_key(np.array(["10", "9"])).tolist() == [10, 9]
    assert natural_key(np.array(["q10", "q9"])).tolist() == [1, 0]  # natural: q9 < q10


def test_run_summary_model(qtmodeltester: Any, qapp: Any) -> None:
    from ndcg_studio.domain.statistics.resampling import MeanCI
    from ndcg_studio.services.scoring.report import RunSummary

    summaries = [
        RunSummary("bm25", MeanCI(0.5, 0.4, 0.6, 10), 10, 2, 1, 0, {"bad": 10}),
        RunSummary("empty", MeanCI(NAN, NAN, NAN, 0), 0, 3, 0, 0, {}),
    ]
    model = RunSummaryModel()
    model.set_summaries(summaries, 5)
    qtmodeltester.check(model, force_py=False)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Mean nDCG@5"
    assert [model.index(0, c).data() for c in range(6)] == [
        "bm25",
        "0.5000",
        "0.4000 – 0.6000",
        "10",
        "2",
        "1",
    ]
    assert model.index(1, 1).data() == "" and model.index(1, 2).data() == ""


@hypothesis_settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=30),
    st.text(alphabet="aBcÄäß1 ", max_size=3),
)
def test_search_matches_each_rows_query_and_text(
    qapp: Any, queries: list[int], needle: str
) -> None:
    """The search haystack is kept once per distinct query (each row points at its query's
    entry); the rows shown are those whose folded query id + text contains the folded needle,
    as a haystack per row would give."""
    texts = {q: ["Lift of Wings", "ÄPFEL straße", "boundary 1", ""][q % 4] for q in queries}
    n = len(queries)
    base = rows()
    data = ReviewRows(
        **{
            **{f: getattr(base, f)[np.arange(n) % 6] for f in ("ndcg", "dcg", "idcg", "band")},
            **{f: getattr(base, f)[np.arange(n) % 6] for f in ("judged_at_k", "alpha")},
            **{f: getattr(base, f)[np.arange(n) % 6] for f in ("n_annotators", "n_disputed")},
        },
        k=10,
        query=np.array([f"q{q}" for q in queries]),
        query_id=np.array(queries, dtype=np.int64),
        run=np.array(["r"] * n),
        text=np.array([texts[q] for q in queries]),
    )
    keyed = M.with_text_keys(data)
    assert keyed.haystack is not None and keyed.haystack_index is not None
    assert len(keyed.haystack) == len(set(queries)) and len(keyed.haystack_index) == n
    model = ScoresTableModel()
    model.set_rows(keyed)
    model.set_filter(ReviewFilter(text=needle))
    folded = fold(needle.strip())
    expected = (
        [i for i, q in enumerate(queries) if folded in fold(f"q{q}\x1f{texts[q]}")]
        if folded
        else list(range(n))
    )
    assert sorted(model.source_rows().tolist()) == expected
