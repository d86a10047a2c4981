"""Judgments of several annotators in long format, and their encoding as value codes.

A *rating* (one judgment) is a triple (item, annotator, grade). An *item* is one (query, document)
pair; the services layer maps database ids to dense integer codes ``0..n_items-1`` and
``0..n_annotators-1`` before calling the agreement functions of
:mod:`ndcg_studio.domain.agreement.summary`.
A missing judgment is simply an absent row (never a NaN grade).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Ratings", "encode_grades"]

# The duplicate check and the grade encoding use a dense bincount when the key space is at most this
# many times the number of ratings (plus a floor), otherwise a sort. Both are O(n) / O(n log n).
_DENSE_FACTOR = 8
_DENSE_FLOOR = 1 << 20
# Integer grades spanning at most this many values are encoded with a bincount instead of np.unique.
_INTEGER_SPAN_LIMIT = 1 << 16


def _readonly(array: NDArray[np.generic]) -> None:
    array.flags.writeable = False


def _as_codes(name: str, data: ArrayLike) -> NDArray[np.int64]:
    array = np.asarray(data)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size and array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer codes, got dtype {array.dtype}")
    codes = array.astype(np.int64, copy=True)
    _readonly(codes)
    return codes


@dataclass(frozen=True, eq=False)
class Ratings:
    """Grades given by annotators to items, one row per judgment (long format).

    Attributes:
        item: ``(n,) int64``, item index in ``[0, n_items)``; an item is a (query, document) pair.
        annotator: ``(n,) int64``, annotator index in ``[0, n_annotators)``.
        grade: ``(n,) float64``, the grade (finite; relevance grades are 0..4, but any finite
            numbers are accepted). Missing judgments are absent rows, never NaN.
        n_items: number of items (``>= max(item) + 1``); items without any grade are allowed.
        n_annotators: number of annotators (``>= max(annotator) + 1``).

    The arrays are copied and made read-only on construction, so a ``Ratings`` is immutable.
    Use :meth:`from_arrays` to derive ``n_items`` / ``n_annotators`` from the data.

    Raises:
        ValueError: arrays of different lengths or not 1-D, codes out of range, a non-finite
            grade, negative sizes, or a duplicate judgment (one annotator grading an item twice).
        TypeError: ``item`` or ``annotator`` not of an integer dtype.
    """

    item: NDArray[np.int64]
    annotator: NDArray[np.int64]
    grade: NDArray[np.float64]
    n_items: int
    n_annotators: int

    def __post_init__(self) -> None:
        item = _as_codes("item", self.item)
        annotator = _as_codes("annotator", self.annotator)
        grade = np.array(self.grade, dtype=np.float64, copy=True)
        if grade.ndim != 1:
            raise ValueError(f"grade must be one-dimensional, got shape {grade.shape}")
        _readonly(grade)
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "annotator", annotator)
        object.__setattr__(self, "grade", grade)
        n_items = int(self.n_items)
        n_annotators = int(self.n_annotators)
        object.__setattr__(self, "n_items", n_items)
        object.__setattr__(self, "n_annotators", n_annotators)
        if n_items < 0 or n_annotators < 0:
            raise ValueError("n_items and n_annotators must be >= 0")
        if not item.shape == annotator.shape == grade.shape:
            raise ValueError(
                "item, annotator and grade must have the same length, got "
                f"{item.shape[0]}, {annotator.shape[0]}, {grade.shape[0]}"
            )
        if item.size == 0:
            return
        if item.min() < 0 or item.max() >= n_items:
            raise ValueError(
                f"item codes must lie in [0, {n_items}), got {item.min()}..{item.max()}"
            )
        if annotator.min() < 0 or annotator.max() >= n_annotators:
            raise ValueError(
                f"annotator codes must lie in [0, {n_annotators}), "
                f"got {annotator.min()}..{annotator.max()}"
            )
        if not np.isfinite(grade).all():
            bad = int(np.flatnonzero(~np.isfinite(grade))[0])
            raise ValueError(
                f"grade must be finite (row {bad} has {grade[bad]}); "
                "a missing judgment is an absent row, not NaN"
            )
        self._check_duplicates()

    def _check_duplicates(self) -> None:
        key = self.item * self.n_annotators + self.annotator
        n_keys = self.n_items * self.n_annotators
        if n_keys <= _DENSE_FACTOR * key.size + _DENSE_FLOOR:
            counts = np.bincount(key, minlength=n_keys)
            dup = np.flatnonzero(counts > 1)
            if dup.size == 0:
                return
            first = int(dup[0])
        else:
            ordered = np.sort(key)
            same = np.flatnonzero(ordered[1:] == ordered[:-1])
            if same.size == 0:
                return
            first = int(ordered[same[0]])
        item, annotator = divmod(first, self.n_annotators)
        raise ValueError(
            f"duplicate judgment: annotator {annotator} graded item {item} more than once "
            "(one grade per (item, annotator) is allowed)"
        )

    @classmethod
    def from_arrays(
        cls,
        item: ArrayLike,
        annotator: ArrayLike,
        grade: ArrayLike,
        n_items: int | None = None,
        n_annotators: int | None = None,
    ) -> Ratings:
        """Build ratings, deriving ``n_items`` / ``n_annotators`` as ``max(code) + 1`` if omitted.

        Args:
            item: ``(n,)`` integer item codes.
            annotator: ``(n,)`` integer annotator codes.
            grade: ``(n,)`` finite grades.
            n_items: number of items; default ``max(item) + 1`` (0 when empty).
            n_annotators: number of annotators; default ``max(annotator) + 1`` (0 when empty).

        Raises:
            ValueError, TypeError: as for :class:`Ratings`.
        """
        item_codes = _as_codes("item", item)
        annotator_codes = _as_codes("annotator", annotator)
        if n_items is None:
            n_items = int(item_codes.max()) + 1 if item_codes.size else 0
        if n_annotators is None:
            n_annotators = int(annotator_codes.max()) + 1 if annotator_codes.size else 0
        return cls(
            item_codes,
            annotator_codes,
            np.asarray(grade, dtype=np.float64),
            n_items,
            n_annotators,
        )

    @property
    def n_ratings(self) -> int:
        """Number of judgments (rows)."""
        return int(self.item.size)

    def select(self, mask: ArrayLike) -> Ratings:
        """The judgments where ``mask`` is true; ``n_items`` and ``n_annotators`` are kept.

        Args:
            mask: ``(n,) bool`` row mask.

        Raises:
            ValueError: ``mask`` is not a boolean array of length ``n_ratings``.
        """
        rows = np.asarray(mask)
        if rows.dtype != np.bool_ or rows.shape != self.item.shape:
            raise ValueError(f"mask must be a bool array of shape {self.item.shape}")
        return Ratings(
            self.item[rows], self.annotator[rows], self.grade[rows], self.n_items, self.n_annotators
        )

    def to_matrix(self) -> NDArray[np.float64]:
        """The reliability data matrix of Krippendorff (2011): annotators x items, NaN = missing.

        Returns:
            ``(n_annotators, n_items) float64``; the layout of ``krippendorff.alpha``'s
            ``reliability_data``. Memory is ``8 * n_annotators * n_items`` bytes.
        """
        matrix = np.full((self.n_annotators, self.n_items), np.nan)
        matrix[self.annotator, self.item] = self.grade
        return matrix


def _integer_lookup(
    grade: NDArray[np.float64], domain: NDArray[np.float64]
) -> NDArray[np.int64] | None:
    """Codes by table lookup when the domain is integers spanning a small range, else None.

    Grades outside the domain get code -1. O(n) instead of the O(n log V) of searchsorted.
    """
    low = float(domain[0])
    span = float(domain[-1]) - low
    offsets = domain - low
    if span > _INTEGER_SPAN_LIMIT or not (offsets == np.rint(offsets)).all():
        return None
    lookup = np.full(int(span) + 2, -1, dtype=np.int64)  # last slot: everything out of range
    lookup[offsets.astype(np.int64)] = np.arange(domain.size)
    shifted = np.clip(grade - low, -1.0, span + 1.0)  # clip first: huge grades cast safely
    index = shifted.astype(np.int64)
    outside = (shifted < 0) | (shifted > span) | (index != shifted)
    index[outside] = int(span) + 1
    return lookup[index]


def encode_grades(
    grade: NDArray[np.float64], values: ArrayLike | None = None
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Map grades to codes ``0..V-1`` of an ordered value domain.

    Args:
        grade: ``(n,) float64`` finite grades.
        values: the value domain, strictly increasing finite numbers (e.g. ``[0, 1, 2, 3, 4]``).
            Default: the distinct grades present, in increasing order.

    Returns:
        ``(codes, values)``: ``codes`` is ``(n,) int64`` with ``values[codes] == grade``;
        ``values`` is ``(V,) float64``, strictly increasing.

    Raises:
        ValueError: ``values`` is not 1-D, not finite or not strictly increasing, or a grade is not
            in ``values``.
    """
    grade = np.asarray(grade, dtype=np.float64)
    if values is not None:
        domain = np.asarray(values, dtype=np.float64)
        if domain.ndim != 1 or not np.isfinite(domain).all():
            raise ValueError("values must be a 1-D array of finite numbers")
        if domain.size > 1 and not (np.diff(domain) > 0).all():
            raise ValueError("values must be strictly increasing (sorted, no repeats)")
        if grade.size == 0:
            return np.zeros(0, dtype=np.int64), domain
        if domain.size == 0:
            raise ValueError("values is empty but there are grades")
        codes = _integer_lookup(grade, domain)
        if codes is None:
            codes = np.searchsorted(domain, grade).astype(np.int64)
            np.minimum(codes, domain.size - 1, out=codes)
            if (domain[codes] != grade).any():
                codes = np.full(grade.shape, -1, dtype=np.int64)
        if codes.size and codes.min() < 0:
            bad = grade[codes < 0][0]
            raise ValueError(f"grade {bad} is not in values {domain.tolist()}")
        return codes, domain
    if grade.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    low = float(grade.min())
    span = float(grade.max()) - low
    if span <= _INTEGER_SPAN_LIMIT:
        offset = grade - low
        offset_int = offset.astype(np.int64)
        if (offset_int == offset).all():
            present = np.bincount(offset_int) > 0
            lookup = np.cumsum(present, dtype=np.int64) - 1
            domain = low + np.flatnonzero(present).astype(np.float64)
            return lookup[offset_int], domain
    domain, inverse = np.unique(grade, return_inverse=True)
    return inverse.astype(np.int64).reshape(-1), domain
