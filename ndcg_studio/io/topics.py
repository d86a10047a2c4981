"""TREC topic files: each query's title, description and narrative (``import topics FILE``).

Two forms, told apart by whether the file has a ``<topic`` tag:

- **Classic** (TREC ad hoc 1–8, Robust04, Common Core; FIRE's ``<top lang='bn'>``): records
  ``<top>`` … ``</top>``; in each, ``<num>`` (``Number:`` optional), ``<title>`` (``Topic:``
  optional), ``<desc>`` (``Description:`` optional), ``<narr>`` (``Narrative:`` optional). A
  field runs from its tag to the next tag and may span lines; a closing ``</num>``, ``</title>``,
  ``</desc>`` or ``</narr>`` is accepted; the other fields of early TREC topics (``<dom>``,
  ``<smry>``, ``<con>``, ``<def>``, ``<fac>``, …) are skipped.
- **XML** (TREC Web 2009–2014 and later tracks): ``<topic number="…">`` elements (anywhere, e.g.
  under ``<topics>``) with ``<query>`` or ``<title>``, ``<description>`` and ``<narrative>``
  children; ``<subtopic>`` and other children are skipped.

Whitespace inside a field is collapsed to single spaces. The title is the query's text (required),
description and narrative are optional (None when absent or empty).

Bad input raises :class:`~ndcg_studio.io.errors.InputFileError` with ``FILE:LINE: field:
message`` per problem (a topic without a number or a title, a repeated number, a field outside a
topic, malformed XML, at most 20), and nothing is returned, so nothing is written.
"""

from __future__ import annotations

import bisect
import re
from xml.parsers import expat

import numpy as np

from ndcg_studio.io.reading.text import (
    Issues,
    PathArg,
    check_ids,
    empty_file,
    read_text,
)
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.io.tabular import QueriesFile

__all__ = ["looks_like_topics", "read_topics"]

_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z]+)[^>]*>")
_LABELS = {
    "num": re.compile(r"^\s*number\s*:", re.IGNORECASE),
    "title": re.compile(r"^\s*topic\s*:", re.IGNORECASE),
    "desc": re.compile(r"^\s*description\s*:", re.IGNORECASE),
    "narr": re.compile(r"^\s*narrative\s*:", re.IGNORECASE),
}
_XML_FIELDS = {"query": "title", "title": "title", "description": "desc", "narrative": "narr"}


def _clean(text: str) -> str:
    return " ".join(text.split())


def looks_like_topics(head: str) -> bool:
    """True when ``head`` (the start of a file) is a TREC topic file of either form."""
    return bool(re.search(r"<\s*(top|topics|topic)[\s>]", head, re.IGNORECASE))


def read_topics(path: PathArg) -> QueriesFile:
    """Read a TREC topic file (either form, see the module docstring).

    Returns:
        A :class:`~ndcg_studio.io.tabular.QueriesFile`: ``query_id`` the topic numbers,
        ``text`` the titles, ``description``/``narrative`` (None when absent), ``line`` the
        1-based line of each topic's start.

    Raises:
        InputFileError: not UTF-8, empty, no topic, a topic without number or title, a repeated
            number, text outside a topic, malformed XML (up to 20 problems).
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    text = read_text(path, issues, Ticker(None, None))
    if re.search(r"<topic[\s>]", text):
        topics = _read_xml(text, issues)
    else:
        topics = _read_classic(text, issues)
    if not topics and not issues:
        empty_file(issues)
    return _checked(topics, issues)


def _checked(topics: list[tuple[int, dict[str, str]]], issues: Issues) -> QueriesFile:
    """The topics as a :class:`QueriesFile`, after checking numbers and titles."""
    seen: dict[str, int] = {}
    out: list[tuple[int, dict[str, str]]] = []
    for line, fields in topics:
        number, title = fields.get("num", ""), fields.get("title", "")
        if not number:
            issues.add(line, "num", "the topic has no number")
        elif number in seen:
            issues.add(line, "num", f"topic {number!r} repeats the topic of line {seen[number]}")
        if not title:
            issues.add(line, "title", f"topic {number or '?'} has no title")
        if number and title and number not in seen:
            seen[number] = line
            out.append((line, fields))
    lines = np.array([line for line, _ in out], dtype=np.int64)
    ids = [f["num"] for _, f in out]
    check_ids(ids, lines, "num", issues)
    issues.raise_if_any()
    return QueriesFile(
        query_id=ids,
        text=[f["title"] for _, f in out],
        description=[f.get("desc") or None for _, f in out],
        narrative=[f.get("narr") or None for _, f in out],
        line=lines,
    )


def _read_classic(text: str, issues: Issues) -> list[tuple[int, dict[str, str]]]:
    """``<top>`` records as (line of ``<top>``, {num, title, desc, narr})."""
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    def stray(start: int, end: int) -> None:
        between = text[start:end]
        if between.strip():
            lead = len(between) - len(between.lstrip())
            issues.add(line_of(start + lead), "topic", "text outside <top> … </top>")

    topics: list[tuple[int, dict[str, str]]] = []
    current: dict[str, str] | None = None
    top_line, field, cursor = 0, "", 0
    outside = False  # the last tag was reported as outside a topic: its text is not reported
    for match in _TAG.finditer(text):
        if current is None:
            if not outside:
                stray(cursor, match.start())
        elif field:
            current[field] += text[cursor : match.start()]
        cursor, field, outside = match.end(), "", False
        closing, name, line = match.group(1) == "/", match.group(2).lower(), line_of(match.start())
        if name == "top" and not closing:
            if current is not None:
                issues.add(line, "topic", "<top> inside a topic: is a </top> missing?")
            current, top_line = {}, line
        elif name == "top":
            if current is None:
                issues.add(line, "topic", "</top> without <top>")
            else:
                topics.append((top_line, current))
            current = None
        elif current is None:
            issues.add(line, name, f"<{name}> outside <top> … </top>")
            outside = True
        elif not closing and name in _LABELS:
            field, current[name] = name, ""
    if current is not None:
        issues.add(top_line, "topic", "<top> without </top>")
    elif not outside:
        stray(cursor, len(text))
    for _line, fields in topics:
        for key, value in fields.items():
            fields[key] = _clean(_LABELS[key].sub("", value, count=1))
    return topics


def _read_xml(text: str, issues: Issues) -> list[tuple[int, dict[str, str]]]:
    """``<topic number="…">`` elements as (line, {num, title, desc, narr})."""
    parser = expat.ParserCreate()
    topics: list[tuple[int, dict[str, str]]] = []
    stack: list[str] = []
    buffer: list[str] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        if name == "topic" and "topic" not in stack:
            topics.append((parser.CurrentLineNumber, {"num": _clean(attrs.get("number", ""))}))
        stack.append(name)
        buffer.clear()

    def end(name: str) -> None:
        stack.pop()
        if stack and stack[-1] == "topic" and name in _XML_FIELDS and topics:
            key = _XML_FIELDS[name]
            topics[-1][1].setdefault(key, _clean("".join(buffer)))
        buffer.clear()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = buffer.append
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        issues.add(exc.lineno, "xml", expat.ErrorString(exc.code))
    return topics
