"""A file of one huge line (a binary file, a JSON dump given as a run) is refused as soon as its
first line passes :data:`~ndcg_studio.io.reading.text.MAX_LINE_BYTES`, never read whole."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.judgments_csv import read_judgments_csv
from ndcg_studio.io.reading.text import MAX_LINE_BYTES
from ndcg_studio.io.tabular import read_documents, read_queries
from ndcg_studio.io.trec.columns import read_qrels_columns, read_run_columns
from ndcg_studio.io.trec.readers import read_trec_qrels_chunks, read_trec_run, read_trec_run_chunks

SIZE = 20 * MAX_LINE_BYTES  # 200 MiB of one line


def _bytes_read() -> int:
    """Bytes this process has read from files so far (Linux: /proc/self/io rchar)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.fixture(scope="module")
def one_line(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long") / "one-line.txt"
    with path.open("wb") as handle:
        block = b"x" * 2**20
        for _ in range(SIZE // len(block)):
            handle.write(block)
    return path


def _chunked(reader: Callable[..., object]) -> Callable[[Path], object]:
    return lambda path: list(reader(path))  # type: ignore[call-overload]


READERS: dict[str, Callable[[Path], object]] = {
    "run": read_trec_run,
    "run in pieces": _chunked(read_trec_run_chunks),
    "qrels in pieces": _chunked(read_trec_qrels_chunks),
    "run columns (eval)": read_run_columns,
    "qrels columns (eval)": read_qrels_columns,
    "judgments": read_judgments_csv,
    "queries": read_queries,
    "documents": read_documents,
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/io")
@pytest.mark.parametrize("kind", READERS)
def test_a_file_of_one_huge_line_is_refused_early(one_line: Path, kind: str) -> None:
    before = _bytes_read()
    with pytest.raises(InputFileError) as raised:
        READERS[kind](one_line)
    read = _bytes_read() - before
    (issue,) = raised.value.issues
    assert issue.line == 1 and "longer than 10 MB" in issue.message
    # at most the longest line and one block of reading ahead (a piece of 16 MB at most)
    assert read <= MAX_LINE_BYTES + 20 * 2**20, f"{kind} read {read:,} bytes"
