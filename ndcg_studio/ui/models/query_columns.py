"""The Annotate view's query list as numpy columns, with the keys its model sorts and filters by.

Built off the GUI thread (in the worker that reads the list), so the GUI thread only indexes
arrays when 100,000 queries arrive (``bench_gui_scale.py``, Annotate).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.services.annotation.types import QueryProgress, QueryProgressList, QueryRows
from ndcg_studio.services.screens.sort_keys import natural_key
from ndcg_studio.ui.collation import collation_ranks, fold


@dataclass(frozen=True, eq=False)
class QueryColumns(QueryRows):
    """The query list as columns, all of shape (n,), with the keys sorting and filtering need.

    Attributes:
        query_id: int64 database ids; pool_size, judged: int64 (0 <= judged <= pool_size).
        external_id, text: object arrays of ``str``.
        id_rank: int64 rank of ``external_id`` in natural order (q1, q2, q10).
        text_rank: int64 rank of ``text`` in the locale's collation, computed when first read
            (a property: the list need not wait for it, ``bench_gui_scale.py`` Annotate;
            :meth:`warm_text_rank` computes it in a worker once the rows are shown).
        folded: ``str`` array, ``fold(external_id + "\n" + text)`` (what the filter searches).
        counted: False while the pools are not counted yet (``pool_size`` and ``judged`` are 0
            then): the list is shown at once and its counts follow.

    A sequence of :class:`QueryProgress` rows (for callers written for a list).
    """

    query_id: NDArray[np.int64]
    external_id: NDArray[np.object_]
    text: NDArray[np.object_]
    pool_size: NDArray[np.int64]
    judged: NDArray[np.int64]
    id_rank: NDArray[np.int64]
    folded: NDArray[np.str_]
    counted: bool = True

    @functools.cached_property
    def text_rank(self) -> NDArray[np.int64]:
        """(n,) int64 rank of each text in the locale's collation (:func:`collation_ranks`)."""
        return collation_ranks(self.text)

    def warm_text_rank(self) -> None:
        """Compute :attr:`text_rank` now (any thread; a second computation gives equal ranks)."""
        _ = self.text_rank

    @classmethod
    def from_progress(cls, rows: Sequence[QueryProgress], counted: bool = True) -> QueryColumns:
        """Columns and keys of ``rows`` (any thread: call it in the worker that read them); a
        :class:`QueryProgressList` (the service's columns) is taken as it is, row objects are
        not built. ``counted``: False for a list whose pools are not counted yet."""
        n = len(rows)
        if isinstance(rows, QueryProgressList):
            external, text = rows.external_id, rows.text
            query_id, pool_size, judged = rows.query_id, rows.pool_size, rows.judged
        else:
            external, text = [r.external_id for r in rows], [r.text for r in rows]
            query_id = np.fromiter((r.query_id for r in rows), np.int64, n)
            pool_size = np.fromiter((r.pool_size for r in rows), np.int64, n)
            judged = np.fromiter((r.judged for r in rows), np.int64, n)
        ids = np.array(external or [""], dtype=object)[:n]
        texts = np.array(text or [""], dtype=object)[:n]
        folded = [fold(f"{e}\n{t}") for e, t in zip(external, text, strict=True)]
        return cls(
            query_id=np.asarray(query_id, dtype=np.int64),
            external_id=ids,
            text=texts,
            pool_size=np.asarray(pool_size, dtype=np.int64),
            judged=np.asarray(judged, dtype=np.int64),
            id_rank=np.asarray(natural_key(ids), dtype=np.int64),
            folded=np.array(folded, dtype=str) if n else np.zeros(0, dtype=str),
            counted=counted,
        )
