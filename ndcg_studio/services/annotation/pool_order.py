"""The order of a query's Annotate pool: shuffled (the default, :func:`pool_order_key`) or
"what decides A vs B".

:class:`PoolOrder` names runs A and B and the cutoff K; :func:`ab_order` sorts a query's pooled
documents by the ``ab`` weight of :mod:`ndcg_studio.domain.pooling.strategies` — |disc_A(d) -
disc_B(d)|,
disc = 1/log2(position + 1) within the top K of the run, else 0: how much the document's grade
can move Delta DCG@K of the pair (Carterette, Allan & Sitaraman, "Minimal test collections for
retrieval evaluation", SIGIR 2006, doi:10.1145/1148170.1148219) — largest first. Within one
query the ideal DCG scales every document alike, so this is also the nDCG order. Documents of
equal weight (those of weight 0 included) keep the stable shuffled order they arrive in.

The annotator stays blind: only the order changes; the items carry no run, rank or weight.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ndcg_studio.domain.pooling.strategies import discounts
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.pools import positions_within

if TYPE_CHECKING:
    from ndcg_studio.services.annotation.types import PoolItem

__all__ = ["PoolOrder", "ab_order", "ab_weights", "pool_order_key"]


def pool_order_key(query_external_id: str, document_external_id: str) -> bytes:
    """The sort key of a document in a query's pool: BLAKE2b with an 8-byte digest of
    ``"<query external id>\\x1f<document external id>"`` encoded as UTF-8.

    Deterministic across processes and machines (unlike Python's salted ``hash``), independent of
    run order and ranks. Ties (a 2⁻⁶⁴ chance) are broken by the document's external id.
    """
    data = f"{query_external_id}\x1f{document_external_id}".encode()
    return hashlib.blake2b(data, digest_size=8).digest()


@dataclass(frozen=True)
class PoolOrder:
    """Judge first what decides run ``run_a`` vs run ``run_b`` at cutoff ``k`` (>= 1)."""

    run_a: str
    run_b: str
    k: int

    def to_text(self) -> str:
        """A one-line text for a settings store (:meth:`from_text` reads it back)."""
        return json.dumps({"order": "ab", "run_a": self.run_a, "run_b": self.run_b, "k": self.k})

    @classmethod
    def from_text(cls, text: str) -> PoolOrder | None:
        """The order stored by :meth:`to_text`; None for "" (shuffled) or anything unreadable
        (a damaged setting falls back to the shuffled order rather than failing)."""
        try:
            data = json.loads(text) if text else None
            if not isinstance(data, dict) or data.get("order") != "ab":
                return None
            a, b, k = data["run_a"], data["run_b"], data["k"]
        except (ValueError, KeyError):
            return None
        ok = isinstance(a, str) and isinstance(b, str) and a != b
        if not ok or isinstance(k, bool) or not isinstance(k, int) or k < 1:
            return None
        return cls(a, b, k)


def ab_weights(
    db: Database, query_id: int, document_ids: Sequence[int], order: PoolOrder
) -> dict[int, float]:
    """``{document id: |disc_A - disc_B|}`` at cutoff ``order.k`` for one query (positions in
    trec_eval order, ``results.position``); 0 for a document neither run ranks within K, and
    for every document when a run no longer exists."""
    with db.engine.connect() as conn:
        rows = positions_within(conn, query_id, (order.run_a, order.run_b), order.k)
    index = {int(d): i for i, d in enumerate(document_ids)}
    rank = np.zeros((2, len(index)), dtype=np.int64)
    for name, doc, position in rows:
        if doc in index:
            rank[0 if name == order.run_a else 1, index[doc]] = position
    disc = discounts(rank, order.k)
    weight = np.abs(disc[0] - disc[1])
    return {d: float(weight[i]) for d, i in index.items()}


def ab_order(
    db: Database, query_id: int, items: list[PoolItem], order: PoolOrder
) -> list[PoolItem]:
    """``items`` (one query's pool) sorted by :func:`ab_weights`, largest first; a stable sort,
    so documents of equal weight keep their incoming order."""
    weight = ab_weights(db, query_id, [it.document_id for it in items], order)
    return sorted(items, key=lambda it: -weight[it.document_id])
