"""How the top K of one query changed from list A to list B: the share of the top K they have in
common, as a fraction of K (overlap@K) and as Jaccard's |A∩B| / |A∪B|, and the documents that
entered (in B's top K, not in A's) and left (in A's, not in B's).

SOURCE: overlap@K as the "overlap at depth k" X_k/k of Webber, Moffat & Zobel, TOIS 28(4), 2010,
section 3 (agreement A_k); Jaccard's coefficient, P. Jaccard, 1912.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

__all__ = ["TopChange", "top_change"]


@dataclass(frozen=True)
class TopChange:
    """The change of one query's top K.

    Attributes:
        overlap: |A∩B| / K in [0, 1] (lists shorter than K count their missing places as not
            shared).
        jaccard: |A∩B| / |A∪B| in [0, 1]; 1.0 when both top K are empty.
        entered: the documents of B's top K not in A's, in B's order.
        left: the documents of A's top K not in B's, in A's order.
    """

    overlap: float
    jaccard: float
    entered: tuple[Hashable, ...]
    left: tuple[Hashable, ...]


def top_change(a: Sequence[Hashable], b: Sequence[Hashable], k: int) -> TopChange:
    """The change from ``a`` to ``b`` (ranked lists, best first) in their first ``k`` places.

    Raises:
        ValueError: ``k`` < 1.
    """
    if k < 1:
        raise ValueError(f"k must be 1 or more, got {k}")
    top_a, top_b = list(a[:k]), list(b[:k])
    set_a, set_b = set(top_a), set(top_b)
    shared = len(set_a & set_b)
    union = len(set_a | set_b)
    return TopChange(
        overlap=shared / k,
        jaccard=shared / union if union else 1.0,
        entered=tuple(d for d in top_b if d not in set_a),
        left=tuple(d for d in top_a if d not in set_b),
    )
