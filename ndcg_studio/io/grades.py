"""Grade scale and grade maps shared by the qrels and judgment readers.

NDCG Studio stores graded relevance on the integer scale 0-4 (0 = not relevant). Collections
use other scales (TREC web track -2 = spam, Cranfield codes 1-4 with 1 = best, -1 = judged
non-relevant), so readers accept a *grade map* ``{file grade: stored grade}`` applied before the
0-4 range check. Grades not in the map are kept as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.errors import InputError

__all__ = ["GRADE_MAX", "GRADE_MIN", "apply_grade_map", "format_grade_map", "parse_grade_map"]

#: Lowest stored grade (not relevant).
GRADE_MIN = 0
#: Highest stored grade.
GRADE_MAX = 4


def parse_grade_map(text: str) -> dict[int, int]:
    """Parse ``"FROM:TO,FROM:TO"`` (e.g. ``"-1:0,5:4"``) into ``{FROM: TO}``.

    Spaces around items are allowed; an empty or blank string gives ``{}``. FROM is any
    integer; TO must be a grade in 0-4.

    Raises:
        InputError (a ValueError): an item is not two integers joined by ``:``, a FROM grade is
            given twice, or a TO grade is outside 0-4. The message quotes the item.
    """
    result: dict[int, int] = {}
    if not text.strip():
        return result
    for raw in text.split(","):
        item = raw.strip()
        parts = item.split(":")
        if len(parts) != 2:
            raise InputError(f"grade map: {item!r} is not FROM:TO (expected e.g. '-1:0,5:4')")
        try:
            source, target = int(parts[0]), int(parts[1])
        except ValueError:
            raise InputError(
                f"grade map: {item!r}: FROM and TO must be integers (expected e.g. '-1:0,5:4')"
            ) from None
        if source in result:
            raise InputError(f"grade map: grade {source} is mapped twice")
        if not GRADE_MIN <= target <= GRADE_MAX:
            raise InputError(
                f"grade map: {item!r}: target {target} is outside {GRADE_MIN}-{GRADE_MAX}"
            )
        result[source] = target
    return result


def format_grade_map(grade_map: Mapping[int, int]) -> str:
    """Inverse of :func:`parse_grade_map`: ``{-1: 0, 5: 4}`` → ``"-1:0,5:4"``."""
    return ",".join(f"{source}:{target}" for source, target in grade_map.items())


def apply_grade_map(
    grade: NDArray[np.int64], grade_map: Mapping[int, int] | None
) -> NDArray[np.int64]:
    """Map file grades to stored grades.

    Args:
        grade: int64 array, any shape, the grades as read.
        grade_map: ``{file grade: stored grade}``; None or empty keeps ``grade`` unchanged.

    Returns:
        A new int64 array of the same shape (``grade`` itself when there is no map). Each
        element is looked up once in the ORIGINAL grades, so ``{1: 2, 2: 1}`` swaps grades.
    """
    if not grade_map:
        return grade
    mapped = grade.copy()
    for source, target in grade_map.items():
        mapped[grade == source] = target
    return mapped


def out_of_range_message(original: int, mapped: int, grade_map: Mapping[int, int] | None) -> str:
    """Message for a grade outside 0-4 after mapping (used by the readers)."""
    scale = f"{GRADE_MIN}–{GRADE_MAX}"
    if grade_map and original in grade_map:
        return f"{original} is mapped to {mapped}, outside {scale}"
    if grade_map:
        return f"{original} is outside {scale} and not in the grade map"
    return f"{original} is outside {scale} (a grade map can convert it, e.g. '{original}:0')"


def check_grade_range(
    original: NDArray[np.int64],
    mapped: NDArray[np.int64],
    line: NDArray[np.int64],
    grade_map: Mapping[int, int] | None,
    add_issue: Callable[[int, str, str], None],
) -> bool:
    """Report every grade outside 0-4 after mapping; True when all grades are in range."""
    bad = np.flatnonzero((mapped < GRADE_MIN) | (mapped > GRADE_MAX))
    for i in bad.tolist():
        add_issue(
            int(line[i]),
            "grade",
            out_of_range_message(int(original[i]), int(mapped[i]), grade_map),
        )
    return bad.size == 0
