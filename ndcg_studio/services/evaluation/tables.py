"""The score tables behind trec_eval's measures in :func:`ndcg_studio.services.evaluation.evaluate`.

Each table (:func:`ndcg_studio.domain.metrics.measures.score` or
:func:`ndcg_studio.domain.metrics.incomplete.incomplete_measures`) is computed once per (cutoff,
gains)
and shared by every measure that reads it; :meth:`MeasureTables.columns` names the per-query
columns as trec_eval 10 prints them (``m_*.c``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.metrics.cutoffs import CutoffMeasures, cutoff_measures
from ndcg_studio.domain.metrics.incomplete import (
    RECALL_LEVELS,
    IncompleteTable,
    RunRows,
    incomplete_measures,
    inferred_ap,
    ndcg_rel,
    recall_precision,
    run_rows,
)
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoreTable, ScoringParams, score
from ndcg_studio.services.evaluation.measures import MeasureError, MeasureSpec

__all__ = ["MeasureTables"]


class MeasureTables:
    """The score tables of one evaluation, each computed once per (cutoff, gains) and shared by
    every measure that reads it."""

    def __init__(self, lists: RankedLists, judgments: Qrels, threshold: float) -> None:
        self.lists, self.judgments, self.threshold = lists, judgments, threshold
        self._scores: dict[object, ScoreTable] = {}
        self._extras: dict[object, IncompleteTable] = {}
        self._curve: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
        self._cutoffs: CutoffMeasures | None = None
        self._rows: RunRows | None = None

    def rows(self) -> RunRows:
        """The results in run order with their grades, found once for every measure that
        reads them (``bench_eval.py --set shared``)."""
        if self._rows is None:
            params = ScoringParams(k=None, relevance_threshold=self.threshold)
            self._rows = run_rows(self.lists, self.judgments, params)
        return self._rows

    def scored(self, k: int | None, gains: Mapping[int, float] | None = None) -> ScoreTable:
        key = (k, tuple(sorted(gains.items())) if gains else None)
        if key not in self._scores:
            params = ScoringParams(  # no measure of eval reads ERR: not computed
                k=k,
                gain=gains if gains else "linear",
                relevance_threshold=self.threshold,
                err=False,
            )
            self._scores[key] = score(self.lists, self.judgments, params)
        return self._scores[key]

    def incomplete(self, k: int | None, graded_rbp: bool = False) -> IncompleteTable:
        key = (k, graded_rbp)
        if key not in self._extras:
            params = ScoringParams(k=k, relevance_threshold=self.threshold)
            self._extras[key] = incomplete_measures(
                self.lists,
                self.judgments,
                params,
                persistence=0.9 if graded_rbp else 0.8,
                rbp_gain="graded" if graded_rbp else "binary",
                condensed=False,
                rows=self.rows(),
            )
        return self._extras[key]

    def _set_measure(self, name: str) -> NDArray[np.float64]:
        """The measures of the retrieved set as a whole (trec_eval ``m_set_*.c``,
        ``m_num_nonrel_judged_ret.c``; F with beta 1)."""
        whole = self.incomplete(None)
        relevant = np.asarray(whole.n_relevant, dtype=np.float64)
        retrieved = self.whole().n_returned.astype(np.float64)
        rel_ret = np.rint(whole.recall * relevant)
        if name == "num_nonrel_judged_ret":
            judged = retrieved - np.asarray(whole.n_unjudged, dtype=np.float64)
            return np.asarray(judged - rel_ret, dtype=np.float64)
        precision, recall = _ratio(rel_ret, retrieved), _ratio(rel_ret, relevant)
        if name == "set_P":
            return precision
        if name == "set_recall":
            return recall
        if name == "set_map":  # trec_eval's m_set_map.c order: rel_ret² / (ret · rel)
            return _ratio(rel_ret * rel_ret, retrieved * relevant)
        if name == "set_relative_P":
            return _ratio(rel_ret, np.minimum(retrieved, relevant))
        return _ratio(2 * precision * recall, precision + recall)  # set_F

    def prepare_cutoffs(self, cutoffs: set[int]) -> None:
        """Compute P, recall, nDCG and AP at every cutoff any measure asks for, in one pass
        (``bench_eval.py``: a pass per cutoff and family cost several times the whole)."""
        params = ScoringParams(k=None, relevance_threshold=self.threshold)
        self._cutoffs = cutoff_measures(
            self.lists, self.judgments, params, sorted(cutoffs), rows=self.rows()
        )

    def whole(self) -> CutoffMeasures:
        """The one-pass table (the list lengths, RR and nDCG of the whole lists among it)."""
        if self._cutoffs is None:
            self.prepare_cutoffs(set())
        assert self._cutoffs is not None
        return self._cutoffs

    def _at_cutoffs(self, field: str, stem: str, cutoffs: tuple[int, ...]) -> dict[str, object]:
        if self._cutoffs is None or not set(cutoffs) <= set(self._cutoffs.cutoffs):
            self.prepare_cutoffs(set(cutoffs) | set(self._cutoffs.cutoffs if self._cutoffs else ()))
        assert self._cutoffs is not None
        table: NDArray[np.float64] = getattr(self._cutoffs, field)
        index = {k: j for j, k in enumerate(self._cutoffs.cutoffs)}
        return {f"{stem}_{k}": table[:, index[k]] for k in cutoffs}

    def recall_precision(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """R-precision and the 11-point interpolated precision, computed once."""
        if self._curve is None:
            params = ScoringParams(k=None, relevance_threshold=self.threshold)
            self._curve = recall_precision(self.lists, self.judgments, params, rows=self.rows())
        return self._curve

    def columns(self, spec: MeasureSpec, any_k: int) -> dict[str, object]:
        """``{printed name: per-query values}`` of one measure family (trec_eval's names)."""
        name = spec.name
        if name == "num_ret":
            return {name: self.whole().n_returned.astype(np.float64)}
        if name == "num_rel":
            return {name: self.incomplete(None).n_relevant.astype(np.float64)}
        if name == "num_rel_ret":
            table = self.incomplete(None)
            return {name: np.rint(table.recall * table.n_relevant)}
        if name in ("map", "gm_map"):  # gm_map: its summary is the geometric mean (evaluate)
            # from the one-pass table, which P, nDCG and RR need too; the incomplete table
            # (bpref, RBP ...) only when a measure reads it (bench_eval.py: map with three of
            # those)
            return {name: self.whole().ap_whole}
        if name in ("infAP", "ndcg_rel"):
            whole = ScoringParams(k=None, relevance_threshold=self.threshold)
            compute = inferred_ap if name == "infAP" else ndcg_rel
            return {name: compute(self.lists, self.judgments, whole, rows=self.rows())}
        if name == "Rprec":
            return {name: self.recall_precision()[0]}
        if name == "iprec_at_recall":
            iprec = self.recall_precision()[1]
            return {f"iprec_at_recall_{x:.2f}": iprec[:, j] for j, x in enumerate(RECALL_LEVELS)}
        if name == "bpref":
            return {name: self.incomplete(None).bpref}
        if name == "recip_rank":
            return {name: self.whole().rr}
        if name == "P":
            return self._at_cutoffs("precision", "P", spec.cutoffs)
        if name == "recall":
            return self._at_cutoffs("recall", "recall", spec.cutoffs)
        if name == "ndcg":
            if spec.gains is None:
                return {name: self.whole().ndcg_whole}
            return {spec.names()[0]: self.scored(None, spec.gains).ndcg}
        if name == "ndcg_cut":
            return self._at_cutoffs("ndcg", "ndcg_cut", spec.cutoffs)
        if name == "map_cut":
            return self._at_cutoffs("ap", "map_cut", spec.cutoffs)
        if name == "rbp":
            return {name: self.incomplete(None, graded_rbp=True).rbp}
        if name == "success":  # a relevant document in the top K (m_success.c): P@K > 0
            precisions = self._at_cutoffs("precision", "success", spec.cutoffs)
            return {label: np.where(np.asarray(p) > 0, 1.0, 0.0) for label, p in precisions.items()}
        if name.startswith("set_") or name == "num_nonrel_judged_ret":
            return {name: self._set_measure(name)}
        # parse_measures only lets MEASURES through
        raise MeasureError(f"measure {name!r} is not implemented")  # pragma: no cover


def _ratio(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """``a / b``, 0 where ``b`` is 0 (trec_eval's convention for empty sets)."""
    out = np.zeros(np.shape(a), dtype=np.float64)
    np.divide(a, b, out=out, where=b > 0)
    return out
