"""The Annotate view's query list as numpy columns, with the keys its model sorts and filters by.

Built off the GUI thread (in the worker that reads the list), so the GUI thread only indexes
arrays when 100,000 queries arrive (``bench_gui_scale.py``, Annotate).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.services.annotation import QueryProgress
from ndcg_studio.ui.collation import collation_ranks, fold
from ndcg_studio.ui.models.table import natural_key


@dataclass(frozen=True, eq=False)
class QueryColumns(Sequence[QueryProgress]):
    """The query list as columns, all of shape (n,), with the keys sorting and filtering need.

    Attributes:
        query_id: int64 database ids; pool_size, judged: int64 (0 <= judged <= pool_size).
        external_id, text: object arrays of ``str``.
        id_rank: int64 rank of ``external_id`` in natural order (q1, q2, q10).
        text_rank: int64 rank of ``text`` in the locale's collation.
        folded: ``str`` array, ``fold(external_id + "\n" + text)`` (what the filter searches).

    A sequence of :class:`QueryProgress` rows (for callers written for a list).
    """

    query_id: NDArray[np.int64]
    external_id: NDArray[np.object_]
    text: NDArray[np.object_]
    pool_size: NDArray[np.int64]
    judged: NDArray[np.int64]
    id_rank: NDArray[np.int64]
    text_rank: NDArray[np.int64]
    folded: NDArray[np.str_]

    @classmethod
    def from_progress(cls, rows: Sequence[QueryProgress]) -> QueryColumns:
        """Columns and keys of ``rows`` (any thread: call it in the worker that read them)."""
        n = len(rows)
        ids = np.array([r.external_id for r in rows] or [""], dtype=object)[:n]
        texts = np.array([r.text for r in rows] or [""], dtype=object)[:n]
        folded = [fold(f"{r.external_id}\n{r.text}") for r in rows]
        return cls(
            query_id=np.fromiter((r.query_id for r in rows), np.int64, n),
            external_id=ids,
            text=texts,
            pool_size=np.fromiter((r.pool_size for r in rows), np.int64, n),
            judged=np.fromiter((r.judged for r in rows), np.int64, n),
            id_rank=np.asarray(natural_key(ids), dtype=np.int64),
            text_rank=collation_ranks(texts),
            folded=np.array(folded, dtype=str) if n else np.zeros(0, dtype=str),
        )

    def __len__(self) -> int:
        return int(self.query_id.shape[0])

    def row(self, i: int) -> QueryProgress:
        """Row ``i`` as a :class:`QueryProgress`."""
        return QueryProgress(
            query_id=int(self.query_id[i]),
            external_id=str(self.external_id[i]),
            text=str(self.text[i]),
            pool_size=int(self.pool_size[i]),
            judged=int(self.judged[i]),
        )

    def __iter__(self) -> Iterator[QueryProgress]:
        return (self.row(i) for i in range(len(self)))

    @overload
    def __getitem__(self, i: int) -> QueryProgress: ...
    @overload
    def __getitem__(self, i: slice) -> list[QueryProgress]: ...
    def __getitem__(self, i: int | slice) -> QueryProgress | list[QueryProgress]:
        if isinstance(i, slice):
            return [self.row(j) for j in range(len(self))[i]]
        return self.row(range(len(self))[i])
