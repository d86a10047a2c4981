"""The Review table: one row per (query, run) with nDCG@K, its band, DCG, IDCG, judged@K,
annotators, per-query alpha and disputed items; numpy sorting and filtering.

Data arrive as a :class:`ReviewRows` (built from a :class:`~ndcg_studio.services.scoring.service.
ScoreReport`, the query texts and a :class:`~ndcg_studio.services.agreement.QueryAgreement`, in
a worker); the model only formats what is visible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QFont

from ndcg_studio.domain.bands import NO_BAND
from ndcg_studio.services.screens.review import ReviewRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.bands import BAND_CODE_ROLE, band_name, band_range_text
from ndcg_studio.ui.collation import collation_ranks, fold
from ndcg_studio.ui.language import arg
from ndcg_studio.ui.models.run_summary import RunSummaryModel  # noqa: F401  (its old home)
from ndcg_studio.ui.models.table import SORT_ROLE, NumpyTableModel, fixed

COL_QUERY = 0
COL_RUN = 1
COL_NDCG = 2
COL_BAND = 3
COL_DCG = 4
COL_IDCG = 5
COL_JUDGED = 6
COL_ANNOTATORS = 7
COL_ALPHA = 8
COL_DISPUTED = 9
COL_TEXT = 10
COL_SPREAD = 11

#: judged@K below this counts as low coverage by default
DEFAULT_COVERAGE_THRESHOLD = 0.8


def with_text_keys(rows: ReviewRows) -> ReviewRows:
    """``rows`` with :attr:`ReviewRows.text_key` (the locale's collation of the case-folded
    text), :attr:`ReviewRows.haystack` (what the search box matches, one entry per distinct
    query) and :attr:`ReviewRows.haystack_index` (each row's entry) filled in, computed once
    per distinct query: call it in the worker that loaded the rows, so the GUI thread does
    not (``bench_gui_scale.py``, Review)."""
    if len(rows) == 0:
        return rows
    # one query id, one (query, text): distinct by the integer id, not by sorting strings
    _, first, inverse = np.unique(rows.query_id, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse, dtype=np.int64).reshape(-1)
    queries, texts = rows.query[first].tolist(), rows.text[first].tolist()
    text_key = collation_ranks([str(t).casefold() for t in texts])
    haystack = np.array(
        [fold(f"{q}\x1f{t}") for q, t in zip(queries, texts, strict=True)], dtype=str
    )
    return replace(
        rows,
        text_key=np.asarray(text_key, dtype=np.int64)[inverse],
        haystack=haystack,
        haystack_index=inverse,
    )


def _has_text_keys(rows: ReviewRows) -> bool:
    return not (rows.text_key is None or rows.haystack is None or rows.haystack_index is None)


def _text_keys_of(rows: ReviewRows, keyed: ReviewRows) -> ReviewRows:
    """``rows`` with the text keys of ``keyed`` (the same rows)."""
    return replace(
        rows, text_key=keyed.text_key, haystack=keyed.haystack, haystack_index=keyed.haystack_index
    )


@dataclass(frozen=True)
class ReviewFilter:
    """Which rows the Review table shows.

    Attributes:
        band: a band code, :data:`NO_BAND` for "no band" rows, None for all.
        run: a run name, None for all.
        text: case-insensitive substring of the query id or text ('' for all).
        disputed_only: only queries with at least one disputed document.
        coverage_below: only rows with judged@K below this fraction (None: no condition).
    """

    band: int | None = None
    run: str | None = None
    text: str = ""
    disputed_only: bool = False
    coverage_below: float | None = None


class ScoresTableModel(NumpyTableModel):
    """Rows of a :class:`ReviewRows`; :data:`~ndcg_studio.ui.models.table.SORT_ROLE` gives raw
    values (NaN for no value), :data:`~ndcg_studio.ui.bands.BAND_CODE_ROLE` the band code."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ScoresTableModel", "Query"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "Run"),
        "nDCG@K",
        QT_TRANSLATE_NOOP("ScoresTableModel", "Band"),
        "DCG@K",
        "IDCG@K",
        QT_TRANSLATE_NOOP("ScoresTableModel", "Judged@%1"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "Annotators"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "α (query)"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "Disputed"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "Query text"),
        QT_TRANSLATE_NOOP("ScoresTableModel", "Spread"),
    )
    _NUMERIC = frozenset(
        {
            COL_NDCG,
            COL_DCG,
            COL_IDCG,
            COL_JUDGED,
            COL_ANNOTATORS,
            COL_ALPHA,
            COL_DISPUTED,
            COL_SPREAD,
        }
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._data = ReviewRows.empty()
        self._filter = ReviewFilter()
        self._coverage_threshold = DEFAULT_COVERAGE_THRESHOLD
        self._italic = QFont()
        self._italic.setItalic(True)

    # ------------------------------------------------------------------ data
    @property
    def rows(self) -> ReviewRows:
        return self._data

    @property
    def current_filter(self) -> ReviewFilter:
        return self._filter

    def set_rows(self, rows: ReviewRows) -> None:
        """Replace every row (resets the model; keeps the sort column and the filter).

        Rows without their text keys (:func:`with_text_keys`) get them from
        :meth:`set_text_keys` when a worker has made them, or here, on first need (a sort by
        text or a search before they arrive)."""
        self.beginResetModel()
        self._data = rows
        self._reset_rows(self._filter_mask(self._filter))
        self.endResetModel()

    def set_text_keys(self, rows: ReviewRows) -> None:
        """The text sort key and search haystack of the rows shown, made in a worker
        (``rows`` from :func:`with_text_keys`, the same rows): no reset, nothing moves."""
        if len(rows) != len(self._data) or not _has_text_keys(rows):
            return
        if not _has_text_keys(self._data):
            self._data = _text_keys_of(self._data, rows)

    def _text_keys(self) -> ReviewRows:
        """The rows with their text keys, made now if no worker has delivered them yet."""
        if not _has_text_keys(self._data):
            self._data = with_text_keys(self._data)
        return self._data

    def set_agreement_columns(self, rows: ReviewRows) -> None:
        """The same rows with their alpha, disputed and spread columns filled in
        (:meth:`ReviewRows.with_agreement`): no reset, the selection stays; the rows move only
        when sorted or filtered by those columns."""
        if len(rows) != len(self._data):
            self.set_rows(rows)
            return
        self._data = _text_keys_of(rows, self._data)
        late = (COL_ALPHA, COL_DISPUTED, COL_SPREAD)
        for column in late:
            self._key_cache.pop(column, None)
        if self._sort_column in late or self._filter.disputed_only:
            self._mask = self._filter_mask(self._filter)
            self.sort(self._sort_column, self._sort_order)
        elif self.rowCount():
            last = self.rowCount() - 1
            self.dataChanged.emit(self.index(0, min(late)), self.index(last, max(late)))

    def set_filter(self, spec: ReviewFilter) -> None:
        """Show the rows matching ``spec``."""
        self._filter = spec
        self.set_mask(self._filter_mask(spec))

    def set_coverage_threshold(self, threshold: float) -> None:
        """Judged@K below ``threshold`` is shown in italics (the filter has its own value)."""
        self._coverage_threshold = threshold
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, COL_JUDGED), self.index(self.rowCount() - 1, COL_JUDGED)
            )

    def _filter_mask(self, spec: ReviewFilter) -> NDArray[np.bool_] | None:
        d = self._data
        if spec == ReviewFilter():
            return None
        mask = np.ones(len(d), dtype=bool)
        if spec.band is not None:
            mask &= d.band == spec.band
        if spec.run is not None:
            mask &= d.run == spec.run
        if spec.disputed_only:
            mask &= d.n_disputed > 0
        if spec.coverage_below is not None:
            mask &= d.judged_at_k < spec.coverage_below  # NaN compares False: excluded
        needle = fold(spec.text.strip())
        if needle:
            keyed = self._text_keys()
            assert keyed.haystack is not None and keyed.haystack_index is not None
            # each distinct query searched once, its rows take its answer
            mask &= (np.char.find(keyed.haystack, needle) >= 0)[keyed.haystack_index]
        return mask

    # ------------------------------------------------------------------ NumpyTableModel
    def _header(self, section: int) -> str:
        k = self._data.k
        if section == COL_NDCG:
            return f"nDCG@{k}"
        if section == COL_DCG:
            return f"DCG@{k}"
        if section == COL_IDCG:
            return f"IDCG@{k}"
        if section == COL_JUDGED:
            return arg(self.translated(self.HEADERS[section]), k)
        return self.translated(self.HEADERS[section])

    def _header_tooltip(self, section: int) -> str | None:
        tips = {
            COL_NDCG: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "DCG@K / IDCG@K; empty when the query has no judgments"
            ),
            COL_BAND: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "Quality band of nDCG (thresholds in Scoring settings)"
            ),
            COL_DCG: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "Discounted cumulative gain of the run's top K (gain units)"
            ),
            COL_IDCG: QT_TRANSLATE_NOOP(
                "ScoresTableModel",
                "DCG of the ideal ordering of the judged documents, top K (gain units)",
            ),
            COL_JUDGED: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "Share of the run's top K documents that have a judgment"
            ),
            COL_ANNOTATORS: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "Annotators who judged this query"
            ),
            COL_ALPHA: QT_TRANSLATE_NOOP(
                "ScoresTableModel",
                "Krippendorff's alpha over this query's documents; empty when undefined",
            ),
            COL_DISPUTED: QT_TRANSLATE_NOOP(
                "ScoresTableModel", "Documents whose annotators' grades differ by 2 or more"
            ),
            COL_SPREAD: QT_TRANSLATE_NOOP(
                "ScoresTableModel",
                "Max − min of nDCG@K under each annotator's own grades and each "
                "source's: the queries whose score depends most on who judged",
            ),
        }
        tip = tips.get(section)
        return None if tip is None else self.translated(tip)

    def _source_count(self) -> int:
        return len(self._data)

    def _sort_key(self, column: int) -> NDArray[Any]:
        d = self._data
        if column == COL_QUERY:
            return natural_key(d.query)
        if column == COL_BAND:
            return np.where(d.band == NO_BAND, np.nan, d.band.astype(np.float64))
        if column == COL_TEXT:
            return np.asarray(self._text_keys().text_key)
        return self._column(column)

    def _column(self, column: int) -> NDArray[Any]:
        """The values of ``column``, one a row (str, int or float64)."""
        d = self._data
        if column == COL_SPREAD:
            return d.spread_values()
        return {
            COL_QUERY: d.query,
            COL_RUN: d.run,
            COL_NDCG: d.ndcg,
            COL_BAND: d.band,
            COL_DCG: d.dcg,
            COL_IDCG: d.idcg,
            COL_JUDGED: d.judged_at_k,
            COL_ANNOTATORS: d.n_annotators,
            COL_ALPHA: d.alpha,
            COL_DISPUTED: d.n_disputed,
            COL_TEXT: d.text,
        }[column]

    def _raw(self, row: int, column: int) -> Any:
        value = self._column(column)[row]
        if column in (COL_QUERY, COL_RUN, COL_TEXT):
            return str(value)
        return int(value) if column in (COL_BAND, COL_ANNOTATORS, COL_DISPUTED) else float(value)

    def _cell(self, row: int, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == SORT_ROLE:
            return self._raw(row, column)
        if role == BAND_CODE_ROLE and column == COL_BAND:
            return int(self._data.band[row])
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self._NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.FontRole and column == COL_JUDGED:
            value = float(self._data.judged_at_k[row])
            return self._italic if value < self._coverage_threshold else None
        return None

    def _display(self, row: int, column: int) -> str:
        d = self._data
        if column == COL_QUERY:
            return str(d.query[row])
        if column == COL_RUN:
            return str(d.run[row])
        if column == COL_NDCG:
            return fixed(float(d.ndcg[row]), 4)
        if column == COL_BAND:
            return band_name(int(d.band[row]))
        if column == COL_DCG:
            return fixed(float(d.dcg[row]), 3)
        if column == COL_IDCG:
            return fixed(float(d.idcg[row]), 3)
        if column == COL_JUDGED:
            value = float(d.judged_at_k[row])
            return "" if math.isnan(value) else f"{value:.0%}"
        if column == COL_ANNOTATORS:
            return str(int(d.n_annotators[row]))
        if column == COL_ALPHA:
            return fixed(float(d.alpha[row]), 2)
        if column == COL_DISPUTED:
            n = int(d.n_disputed[row])
            return str(n) if n else ""
        if column == COL_SPREAD:
            return fixed(float(d.spread_values()[row]), 4)
        return str(d.text[row])

    def _tooltip(self, row: int, column: int) -> str | None:
        d = self._data
        if column in (COL_NDCG, COL_DCG, COL_IDCG):
            ndcg = float(d.ndcg[row])
            if math.isnan(ndcg):
                return self.tr(
                    "No judgments for this query: nDCG is undefined and left out of means."
                )
            idcg = float(d.idcg[row])
            if idcg == 0:
                return self.tr("IDCG = 0 (no judged document has a gain): nDCG reported as 0.")
            text = self.tr(
                "nDCG@%1 = DCG %2 / IDCG %3 = %4\nDouble-click for the per-rank breakdown."
            )
            return arg(text, d.k, f"{float(d.dcg[row]):.4f}", f"{idcg:.4f}", f"{ndcg:.4f}")
        if column == COL_BAND:
            return band_range_text(int(d.band[row]), d.thresholds)
        if column == COL_JUDGED:
            value = float(d.judged_at_k[row])
            if math.isnan(value):
                return self.tr("The run returned no document for this query.")
            return arg(self.tr("%1 of the top %2 documents are judged"), f"{value:.0%}", d.k)
        if column == COL_ALPHA and math.isnan(float(d.alpha[row])):
            return self.tr(
                "Undefined: fewer than two annotators graded the same documents of this query."
            )
        if column == COL_TEXT:
            return str(d.text[row]) or None
        return None
