"""Reading a judge's grade out of its answer.

Two ways a template can ask for its answer (``Template.answer``):

- ``final-score``: UMBRELA's ``##final score: N`` (Upadhyay et al. 2024, arXiv:2406.06519); the
  last such line wins (a model that thinks aloud may quote the format before answering);
- ``json``: a JSON object ``{"grade": N}`` (what a server returns when asked for structured
  output, ``response_format={"type": "json_object"}``); a bare object somewhere in the text is
  accepted, surrounded by prose or a Markdown fence.

An answer that cannot be read is not an error of the job: :func:`read_grade` returns why, and the
job stores the raw text with that reason so the item can be asked again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["ANSWER_KINDS", "Reading", "read_grade"]

#: How a template's answer is read.
ANSWER_KINDS = ("final-score", "json")

_FINAL_SCORE = re.compile(r"#{1,2}\s*final\s+score\s*:\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Reading:
    """The outcome of reading one answer: ``grade`` on the template's own scale (None when it
    could not be read) and, then, ``problem``: why, in words."""

    grade: int | None
    problem: str | None = None


def _on_scale(value: float, scale: tuple[int, ...], what: str) -> Reading:
    if value != int(value):
        return Reading(None, f"{what} {value:g} is not an integer")
    if int(value) not in scale:
        return Reading(None, f"{what} {int(value)} is not on the scale {list(scale)}")
    return Reading(int(value))


def read_grade(text: str | None, kind: str, scale: tuple[int, ...]) -> Reading:
    """Read the grade out of one answer.

    Args:
        text: the answer's text (None or empty: nothing to read).
        kind: one of :data:`ANSWER_KINDS`.
        scale: the template's grades (e.g. ``(0, 1, 2, 3)``); a grade off it is not read.

    Returns:
        :class:`Reading`: the grade on the template's scale, or None and the problem.

    Raises:
        ValueError: an unknown ``kind``.
    """
    if kind not in ANSWER_KINDS:
        raise ValueError(f"answer must be one of {', '.join(ANSWER_KINDS)}, got {kind!r}")
    if not text or not text.strip():
        return Reading(None, "empty answer")
    if kind == "final-score":
        found = _FINAL_SCORE.findall(text)
        if not found:
            return Reading(None, "no '##final score: N' in the answer")
        return _on_scale(float(found[-1]), scale, "final score")
    for candidate in [text.strip(), *reversed(_JSON_OBJECT.findall(text))]:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict) and "grade" in value:
            grade = value["grade"]
            if isinstance(grade, str) and grade.strip().lstrip("-").isdigit():
                grade = int(grade)
            if isinstance(grade, bool) or not isinstance(grade, int | float):
                return Reading(None, f"grade {grade!r} is not a number")
            return _on_scale(float(grade), scale, "grade")
    return Reading(None, 'no JSON object with a "grade" in the answer')
