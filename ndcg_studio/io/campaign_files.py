"""Files of ``campaign create``: a list of query ids, and gold items.

- ``--queries FILE``: one query id per line (the first whitespace-separated word; blank lines
  and lines starting with ``#`` are skipped).
- ``--gold FILE``: TREC qrels lines ``QUERY ITERATION DOCUMENT GRADE`` (four words, the second
  ignored) or ``QUERY DOCUMENT GRADE`` (three words), grade an integer 0–4.

Bad input raises :class:`~ndcg_studio.io.errors.InputFileError` listing ``FILE:LINE: field:
message`` for each problem (at most 20).
"""

from __future__ import annotations

from ndcg_studio.io.reading.text import Issues, PathArg, is_skipped, read_text, split_lines
from ndcg_studio.io.reading.ticker import Ticker

__all__ = ["read_gold_file", "read_query_list"]


def read_query_list(path: PathArg) -> list[str]:
    """The query ids of ``path``, in file order, duplicates dropped.

    Raises:
        InputFileError: unreadable or empty file.
    """
    issues = Issues(path)
    text = read_text(path, issues, Ticker(None, None))
    out: list[str] = []
    seen: set[str] = set()
    for line in split_lines(text):
        if is_skipped(line):
            continue
        word = line.split()[0]
        if word not in seen:
            seen.add(word)
            out.append(word)
    if not out:
        issues.fail(0, "file", "no query ids: one query id per line")
    return out


def read_gold_file(path: PathArg) -> list[tuple[str, str, int, int]]:
    """The gold items of ``path`` as ``(query, document, grade, line)``.

    Raises:
        InputFileError: wrong number of words, a grade that is not an integer 0–4, a repeated
            (query, document), or no items.
    """
    issues = Issues(path)
    text = read_text(path, issues, Ticker(None, None))
    out: list[tuple[str, str, int, int]] = []
    seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(split_lines(text), start=1):
        if is_skipped(line):
            continue
        words = line.split()
        if len(words) == 4:
            query, document, raw = words[0], words[2], words[3]
        elif len(words) == 3:
            query, document, raw = words
        else:
            issues.add(
                number, "columns", f"expected QUERY [ITER] DOCUMENT GRADE, got {len(words)} words"
            )
            continue
        try:
            grade = int(raw)
        except ValueError:
            issues.add(number, "grade", f"{raw!r} is not an integer 0–4")
            continue
        if not 0 <= grade <= 4:
            issues.add(number, "grade", f"{grade} is outside 0–4")
            continue
        if (query, document) in seen:
            issues.add(
                number, "document", f"{query} {document} repeats line {seen[(query, document)]}"
            )
            continue
        seen[(query, document)] = number
        out.append((query, document, grade, number))
    issues.raise_if_any()
    if not out:
        issues.fail(0, "file", "no gold items")
    return out
