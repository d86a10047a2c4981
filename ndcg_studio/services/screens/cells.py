"""Table cells from numbers: one rule for every table the services hand out."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray


def nan_to_none(value: float) -> float | None:
    """``value``, or None when it is NaN (an undefined statistic: an empty cell in CSV and in
    the app's tables)."""
    return None if math.isnan(value) else value


def rows_of_columns(
    columns: Iterable[Sequence[Any] | NDArray[Any]],
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``columns`` (lists, or numpy arrays, of one length), each value a Python
    value: NaN in a float64 column becomes None (:func:`nan_to_none`)."""

    def cells(values: Sequence[Any] | NDArray[Any]) -> Sequence[Any]:
        if isinstance(values, np.ndarray) and values.dtype == np.float64:
            return [nan_to_none(v) for v in values.tolist()]
        return values.tolist() if isinstance(values, np.ndarray) else values

    yield from zip(*(cells(c) for c in columns), strict=True)
