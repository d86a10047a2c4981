"""Errors raised by the file readers and writers of :mod:`ndcg_studio.io`.

Readers never stop at the first problem: they collect up to :data:`MAX_ISSUES` problems as
:class:`ParseIssue` values (``FILE:LINE: field: what is wrong``, the convention of compilers and
linters, so editors can jump to the line) and then raise one :class:`InputFileError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MAX_ISSUES", "InputError", "InputFileError", "ParseIssue"]

#: A reader stops collecting problems after this many and raises with ``truncated=True``.
MAX_ISSUES = 20


class InputError(ValueError):
    """Project-wide base class of "the user's input is wrong" errors (files, options, grade maps).

    A ``ValueError`` subclass, so code that only knows the standard library still catches it.
    """


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """One problem found in an input file.

    Attributes:
        path: the file as the caller named it (``str(path)``), shown verbatim.
        line: 1-based line number in the file; 0 only when no line applies.
        field: the column or part that is wrong (``score``, ``grade``, ``columns``,
            ``encoding``, ``file``, a CSV header name, ...).
        message: what is wrong, in words, quoting the offending value.
    """

    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message}"


class InputFileError(InputError):
    """An input file has one or more problems; nothing from it should be imported.

    Args:
        issues: the problems, at most :data:`MAX_ISSUES`, sorted by line by the readers.
        truncated: ``True`` when the reader stopped collecting because there were more.

    ``str(error)`` lists one issue per line, followed by ``... and more`` when truncated.
    """

    def __init__(self, issues: Sequence[ParseIssue], truncated: bool = False) -> None:
        self.issues: tuple[ParseIssue, ...] = tuple(issues)
        self.truncated = truncated
        super().__init__(self._render())

    def _render(self) -> str:
        lines = [str(issue) for issue in self.issues]
        if self.truncated:
            lines.append("... and more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self._render()
