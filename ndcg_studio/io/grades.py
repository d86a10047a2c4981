"""Grade scale and grade maps shared by the qrels and judgment readers.

NDCG Studio stores graded relevance on the integer scale 0-4 (0 = not relevant), plus -1 in
imported judgments: trec_eval's "judged non-relevant" (gain 0 under every gain setting, outside
the ideal list, counted as judged). Collections use other scales (TREC web track -2 = spam,
Cranfield codes 1-4 with 1 = best, 1-5 or 0-10 scales), so readers accept a *grade map*
``{file grade: stored grade}`` applied before the -1..4 range check. Grades not in the map are
kept as they are. A scale with at most five grades in use keeps its gains exactly with a map
onto 0-4 plus ``--gains`` giving each stored grade the file grade's gain (see
:func:`scale_hint`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.errors import InputError
from ndcg_studio.vocabulary import JUDGED_NONRELEVANT, MAX_GRADE, MIN_GRADE

__all__ = [
    "apply_grade_map",
    "format_grade_map",
    "parse_grade_map",
    "scale_hint",
]

#: The 0-4 scale and trec_eval's "judged non-relevant" (-1) come from the one vocabulary.


def parse_grade_map(text: str) -> dict[int, int]:
    """Parse ``"FROM:TO,FROM:TO"`` (e.g. ``"-1:0,5:4"``) into ``{FROM: TO}``.

    Spaces around items are allowed; an empty or blank string gives ``{}``. FROM is any
    integer; TO must be a grade in -1..4 (-1: judged non-relevant, as trec_eval).

    Raises:
        InputError (a ValueError): an item is not two integers joined by ``:``, a FROM grade is
            given twice, or a TO grade is outside -1..4. The message quotes the item.
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
        if not JUDGED_NONRELEVANT <= target <= MAX_GRADE:
            raise InputError(
                f"grade map: {item!r}: target {target} is outside {JUDGED_NONRELEVANT}..{MAX_GRADE}"
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


def scale_hint(file_grades: NDArray[np.int64]) -> str:
    """How to import a file whose grades are not all in -1..4, keeping their gains.

    Args:
        file_grades: int64, any shape: the grades of the file as read (before any map).

    Returns:
        With at most five distinct grades >= 0, e.g. for 1-5 ``"--grade-map 1:0,2:1,3:2,4:3,5:4
        --gains 0:1,1:2,2:3,3:4,4:5"``: each file grade onto a stored grade in order, and that
        stored grade given the file grade as its (linear) gain — the same nDCG as the file's
        scale with linear gains (``--gains 0:1,...`` with 2^g - 1 for exponential ones). With
        more, a sentence saying that some grades must share a stored grade.
    """
    used = np.unique(np.asarray(file_grades, dtype=np.int64))
    used = used[used != JUDGED_NONRELEVANT]
    levels = MAX_GRADE - MIN_GRADE + 1
    if used.size > levels or used.size == 0:
        return (
            f"the file uses {used.size} grades and NDCG Studio stores {levels} (0-4, and -1 for "
            "judged non-relevant): map several file grades onto one with --grade-map"
        )
    stored = range(MIN_GRADE, MIN_GRADE + used.size)
    grade_map = ",".join(f"{g}:{s}" for g, s in zip(used.tolist(), stored, strict=True))
    gains = ",".join(f"{s}:{g}" for g, s in zip(used.tolist(), stored, strict=True))
    return (
        f"to keep this scale's gains, import with --grade-map {grade_map} and score with "
        f"--gains {gains}"
    )


def out_of_range_message(
    original: int,
    mapped: int,
    grade_map: Mapping[int, int] | None,
    hint: str = "",
) -> str:
    """Message for a grade outside -1..4 after mapping (used by the readers); ``hint`` (from
    :func:`scale_hint`) is appended when given."""
    scale = f"{JUDGED_NONRELEVANT}..{MAX_GRADE}"
    if grade_map and original in grade_map:
        text = f"{original} is mapped to {mapped}, outside {scale}"
    elif grade_map:
        text = f"{original} is outside {scale} and not in the grade map"
    elif original < JUDGED_NONRELEVANT:
        text = (
            f"{original} is outside {scale} (a negative grade such as TREC's -2 for spam is "
            f"judged non-relevant: --grade-map '{original}:-1')"
        )
        hint = ""
    else:
        text = f"{original} is outside {scale}"
    return f"{text}; {hint}" if hint else text


def check_grade_range(
    original: NDArray[np.int64],
    mapped: NDArray[np.int64],
    line: NDArray[np.int64],
    grade_map: Mapping[int, int] | None,
    add_issue: Callable[[int, str, str], None],
) -> bool:
    """Report every grade outside -1..4 after mapping (the first with a :func:`scale_hint`
    computed from all the file's grades); True when all grades are in range."""
    bad = np.flatnonzero((mapped < JUDGED_NONRELEVANT) | (mapped > MAX_GRADE))
    hint = scale_hint(original) if bad.size and not grade_map else ""
    for i in bad.tolist():
        add_issue(
            int(line[i]),
            "grade",
            out_of_range_message(int(original[i]), int(mapped[i]), grade_map, hint),
        )
        hint = ""
    return bad.size == 0
