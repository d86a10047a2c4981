"""A list of query ids, one a line (``estimate --human-queries FILE``): the queries the humans
judged completely.

A line holds one query id (the first whitespace-separated field; a second field, e.g. a qrels
line's, is refused so that a qrels file given by mistake is named as such); blank lines and
lines starting with ``#`` are skipped. Bad input raises
:class:`~ndcg_studio.io.errors.InputFileError` with ``FILE:LINE: query: message`` (a repeated
id, more than one field, an empty file), and nothing is returned.
"""

from __future__ import annotations

from dataclasses import dataclass

from ndcg_studio.io.reading.text import Issues, PathArg, display_path, empty_file, read_text
from ndcg_studio.io.reading.ticker import Ticker

__all__ = ["QueryList", "read_query_list"]


@dataclass(frozen=True)
class QueryList:
    """The query ids of a file, in file order, with the 1-based line of each (``path`` as
    shown in messages)."""

    path: str
    ids: tuple[str, ...]
    lines: tuple[int, ...]


def read_query_list(path: PathArg) -> QueryList:
    """Read a query list (module docstring).

    Raises:
        OSError: the file cannot be read.
        InputFileError: as the module docstring says, or bytes that are not UTF-8.
    """
    issues = Issues(path)
    text = read_text(path, issues, Ticker(None, None))
    ids: list[str] = []
    lines: list[int] = []
    first: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if len(words) > 1:
            issues.add(number, "query", f"one query id a line, got {len(words)} fields")
            continue
        qid = words[0]
        if qid in first:
            issues.add(number, "query", f"query {qid!r} repeated (first on line {first[qid]})")
            continue
        first[qid] = number
        ids.append(qid)
        lines.append(number)
    issues.raise_if_any()
    if not ids:
        empty_file(issues)
    return QueryList(display_path(path), tuple(ids), tuple(lines))
