"""The files a machine judge reads: a prompt template (TOML, see
:mod:`ndcg_studio.domain.judges.templates`) and a list of pairs to grade.

A pairs file has one ``QUERY DOCUMENT`` per line, separated by white space (a TREC qrels or run
file works as it is: ``QUERY Q0 DOCUMENT ...`` takes its first and third fields when a line has
four fields or more). Blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

from pathlib import Path

from ndcg_studio.domain.judges.templates import Template, TemplateProblem, parse_template
from ndcg_studio.io.errors import MAX_ISSUES, InputFileError, ParseIssue

__all__ = ["read_pairs", "read_template"]


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError([ParseIssue(str(path), 0, "encoding", f"not UTF-8: {exc}")]) from None
    except OSError as exc:
        raise InputFileError([ParseIssue(str(path), 0, "file", exc.strerror or str(exc))]) from None


def read_template(path: str | Path) -> Template:
    """Read and check a template file.

    Raises:
        InputFileError: ``FILE:LINE: field: what`` (unreadable, not TOML, a wrong key).
    """
    p = Path(path)
    try:
        return parse_template(_text(p), p.stem)
    except TemplateProblem as exc:
        raise InputFileError([ParseIssue(str(p), exc.line, exc.field, exc.message)]) from None


def read_pairs(path: str | Path) -> list[tuple[str, str]]:
    """``(query, document)`` external ids of a pairs file, in file order, repeats kept.

    Raises:
        InputFileError: a line with one field or three (each named ``FILE:LINE: columns``),
            an unreadable file, or no pair at all.
    """
    p = Path(path)
    pairs: list[tuple[str, str]] = []
    issues: list[ParseIssue] = []
    for number, line in enumerate(_text(p).splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) == 2:
            pairs.append((fields[0], fields[1]))
        elif len(fields) >= 4:
            pairs.append((fields[0], fields[2]))
        else:
            issues.append(
                ParseIssue(
                    str(p), number, "columns",
                    f"{len(fields)} fields: expected QUERY DOCUMENT (or a qrels/run line)",
                )
            )  # fmt: skip
            if len(issues) >= MAX_ISSUES:
                raise InputFileError(issues, truncated=True)
    if issues:
        raise InputFileError(issues)
    if not pairs:
        raise InputFileError([ParseIssue(str(p), 0, "file", "no pairs in the file")])
    return pairs
