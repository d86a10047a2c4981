"""Table cells from numbers: one rule for every table the services hand out."""

from __future__ import annotations

import math


def nan_to_none(value: float) -> float | None:
    """``value``, or None when it is NaN (an undefined statistic: an empty cell in CSV and in
    the app's tables)."""
    return None if math.isnan(value) else value
