"""Ticker.lines: one loop for "set the total, tick every chunk of lines, poll Cancel" over a file.

Checked directly (hypothesis over sizes and steps) and through the three readers that use it:
SMART records, headerless TSV topics, JSONL documents.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.io.reading import ticker as _ticker
from ndcg_studio.io.smart import read_smart_documents
from ndcg_studio.io.tabular import read_documents, read_queries
from ndcg_studio.progress import OperationCancelled
from tests.io.conftest import WriteFile

Calls = list[tuple[int, int]]


def expected_calls(n: int, step: int) -> Calls:
    """The progress of the loop the readers had before Ticker.lines, written out: 0, then the
    start of every ``step``-th line, then the total."""
    return [(0, n)] + [(index, n) for index in range(step, n, step)] + [(n, n)]


@given(
    n=st.integers(min_value=0, max_value=3000),
    min_chunk=st.integers(min_value=1, max_value=500),
)
def test_lines_yields_every_line_and_reports_up_to_the_total(n: int, min_chunk: int) -> None:
    lines = [f"line {i}" for i in range(n)]
    calls: Calls = []
    ticker = _ticker.Ticker(lambda done, total: calls.append((done, total)), lambda: False)
    original = _ticker.MIN_CHUNK_LINES
    _ticker.MIN_CHUNK_LINES = min_chunk  # hypothesis: no function-scoped monkeypatch
    try:
        seen = list(ticker.lines(lines))
    finally:
        _ticker.MIN_CHUNK_LINES = original
    assert seen == list(enumerate(lines))
    assert ticker.total == n
    step = max(min_chunk, math.ceil(n / _ticker.PROGRESS_CALLS))
    assert calls == expected_calls(n, step)
    assert calls[-1] == (n, n)
    assert len(calls) <= _ticker.PROGRESS_CALLS + 2


def test_lines_cancelled_mid_file_stops_at_the_chunk_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    lines = [str(i) for i in range(1000)]  # step ceil(1000 / 100) = 10
    polls = itertools.count()
    calls: Calls = []
    ticker = _ticker.Ticker(
        lambda done, total: calls.append((done, total)), lambda: next(polls) >= 4
    )
    seen: list[int] = []
    with pytest.raises(OperationCancelled):
        for index, _raw in ticker.lines(lines):
            seen.append(index)
    # polls at 0, 10, 20, 30 say go on; the 5th, before line 40, says stop: nothing reported
    assert calls == [(0, 1000), (10, 1000), (20, 1000), (30, 1000)]
    assert seen == list(range(40))


def _smart(n: int) -> str:
    return "".join(f".I {i}\n.T\ntitle {i}\n.W\ntext of {i}\nsecond line\n" for i in range(n))


def _tsv(n: int) -> str:
    return "".join(f"q{i}\tquery text {i}\n" for i in range(n))


def _jsonl(n: int) -> str:
    return "".join(json.dumps({"doc_id": f"d{i}", "text": f"body {i}"}) + "\n" for i in range(n))


Reader = Callable[..., object]

READERS: dict[str, tuple[str, Callable[[int], str], Reader, int]] = {
    # name: (file name, content of n records, reader, lines per record)
    "smart": ("docs.all", _smart, read_smart_documents, 6),
    "tsv-topics": ("topics.tsv", _tsv, read_queries, 1),
    "jsonl-documents": ("docs.jsonl", _jsonl, read_documents, 1),
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_readers_report_each_chunk_and_the_total(
    name: str, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    file_name, content, reader, per_record = READERS[name]
    path: Path = write_file(file_name, content(700))
    calls: Calls = []
    result = reader(path, progress=lambda done, total: calls.append((done, total)))
    assert len(result) == 700  # type: ignore[arg-type]
    n = 700 * per_record
    assert calls == expected_calls(n, math.ceil(n / _ticker.PROGRESS_CALLS))


@pytest.mark.parametrize("name", sorted(READERS))
def test_readers_cancelled_mid_file_return_nothing(
    name: str, write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    file_name, content, reader, _per_record = READERS[name]
    path = write_file(file_name, content(700))
    polls = itertools.count()
    calls: Calls = []
    returned: list[object] = []
    with pytest.raises(OperationCancelled):
        returned.append(
            reader(
                path,
                progress=lambda done, total: calls.append((done, total)),
                cancelled=lambda: next(polls) >= 30,
            )
        )
    assert returned == []
    # read_text polls twice before the lines; then 28 chunks were reported before the stop
    assert len(calls) == 28 and calls[-1][0] < calls[-1][1]
