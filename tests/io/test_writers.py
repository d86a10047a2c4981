"""Writers: formula injection, BOM, settings files, atomicity, round trips through the readers."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.io import atomic
from ndcg_studio.io.judgments_csv import read_judgments_csv
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run
from ndcg_studio.io.trec.writers import write_trec_qrels, write_trec_run
from ndcg_studio.io.writers import (
    csv_cell,
    settings_path,
    write_csv,
    write_csv_columns,
    write_settings,
)
from ndcg_studio.progress import OperationCancelled


def read_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [row for row in csv.reader(handle) if row]


# ----------------------------------------------------------------------------- cells


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+1", "'+1"),
        ("-x", "'-x"),
        ("@a", "'@a"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-0.5", "'-0.5"),  # a str is text, even when it looks like a number
        ("plain", "plain"),
        ("'x", "'x"),  # a real leading quote before plain text is kept as it is
        ("'", "'"),
        ("'=x", "''=x"),  # ... and escaped where the readers would take it for the guard
        ("''", "'''"),
        ("", ""),
        (-0.5, "-0.5"),
        (np.float64(-0.5), "-0.5"),
        (-3, "-3"),
        (np.int64(-3), "-3"),
        (0.1, "0.1"),
        (1 / 3, "0.3333333333333333"),
        (1e-05, "1e-05"),
        (np.float32(0.1), "0.1"),
        (float("nan"), ""),
        (np.float64("nan"), ""),
        (None, ""),
        (True, "true"),
        (np.bool_(False), "false"),
    ],
)
def test_csv_cell(value: object, written: str) -> None:
    assert csv_cell(value) == written


def test_floats_are_written_round_trip_exact(tmp_path: Path) -> None:
    values = np.random.default_rng(1).normal(size=200) * 10.0 ** np.arange(-100, 100)
    path = tmp_path / "f.csv"
    write_csv(path, ["x"], ([v] for v in values))
    np.testing.assert_array_equal([float(r[0]) for r in read_rows(path)[1:]], values)


def test_write_csv_formula_injection_file(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    rows: list[list[object]] = [["=SUM(A1)", "+1", "-x"], ["@a", "\tx", "\rx"], [-0.5, "ok", None]]
    assert write_csv(path, ["a", "b", "c"], rows) == 3
    assert read_rows(path) == [
        ["a", "b", "c"],
        ["'=SUM(A1)", "'+1", "'-x"],
        ["'@a", "'\tx", "'\rx"],
        ["-0.5", "ok", ""],
    ]
    data = path.read_bytes()
    assert b"\r\n" not in data.replace(b'"\'\rx"', b"")  # LF line ends
    assert not data.startswith(b"\xef\xbb\xbf")


def test_excel_bom_then_the_header_on_line_one(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_csv(path, ["q", "n"], [["1", 2]], excel=True)
    assert path.read_bytes() == b"\xef\xbb\xbfq,n\n1,2\n"


def test_settings_file_beside_the_export(tmp_path: Path) -> None:
    path = tmp_path / "report.csv"
    assert settings_path(path) == tmp_path / "report.csv.settings.json"
    # the workbook of the same report has its own (it overwrote the CSV's)
    assert settings_path(tmp_path / "report.xlsx") == tmp_path / "report.xlsx.settings.json"
    assert settings_path(tmp_path / "qrels") == tmp_path / "qrels.settings.json"
    about = {"what": "report", "settings": "k=10 \u00e9", "notes": ['a, "b"\nc']}
    assert write_settings(path, about) == tmp_path / "report.csv.settings.json"
    assert json.loads((tmp_path / "report.csv.settings.json").read_text("utf-8")) == {
        "file": "report.csv",
        **about,
    }
    assert write_settings("-", about) is None


def test_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert write_csv("-", ["a"], [["=1"], [2]]) == 2
    assert capsys.readouterr().out == "a\n'=1\n2\n"


# ----------------------------------------------------------------------------- atomicity


def _rows_then_fail() -> Iterator[list[object]]:
    yield ["new", 1]
    yield ["new", 2]
    raise RuntimeError("disk on fire")


def test_failure_mid_write_leaves_old_file_and_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old content\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_csv(path, ["a", "b"], _rows_then_fail())
    assert path.read_text(encoding="utf-8") == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_failure_in_fsync_leaves_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.txt"
    path.write_text("old\n", encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space left"):
        write_trec_run(path, [("q", "d", 1, 1.0, "t")])
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["run.txt"]


def test_cancel_leaves_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "CANCEL_CHECK_ROWS", 10)
    path = tmp_path / "qrels.txt"
    path.write_text("old\n", encoding="utf-8")
    polls = itertools.count()
    rows = ((f"q{i}", f"d{i}", 1) for i in range(1000))
    with pytest.raises(OperationCancelled):
        write_trec_qrels(path, rows, cancelled=lambda: next(polls) >= 3)
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["qrels.txt"]


def test_replacing_keeps_permissions_and_new_files_follow_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.csv"
    old.write_text("x\n", encoding="utf-8")
    old.chmod(0o640)
    write_csv(old, ["a"], [[1]])
    assert old.stat().st_mode & 0o777 == 0o640
    umask = os.umask(0o022)
    os.umask(umask)
    new = tmp_path / "new.csv"
    write_csv(new, ["a"], [[1]])
    assert new.stat().st_mode & 0o777 == 0o666 & ~umask


# ----------------------------------------------------------------------------- round trips


def test_qrels_round_trip(tmp_path: Path) -> None:
    rows = [("301", "FR940202-2-00150", 4), ("301", "d2", 0), ("q 2".replace(" ", "_"), "d", 2)]
    path = tmp_path / "qrels.txt"
    assert write_trec_qrels(path, rows) == 3
    assert path.read_text(encoding="utf-8").splitlines()[0] == "301 0 FR940202-2-00150 4"
    qrels = read_trec_qrels(path)
    assert list(zip(qrels.query_id, qrels.doc_id, qrels.grade.tolist(), strict=True)) == rows


def test_qrels_round_trip_with_annotators(tmp_path: Path) -> None:
    rows = [("1", "d1", 3, "alice"), ("1", "d1", np.int64(1), "bob")]
    path = tmp_path / "qrels.txt"
    write_trec_qrels(path, rows)
    qrels = read_trec_qrels(path, annotator_column=True)
    assert qrels.annotator == ["alice", "bob"]
    assert qrels.grade.tolist() == [3, 1]


def test_run_round_trip_is_float_exact(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    scores = rng.normal(size=500) * 10.0 ** rng.integers(-20, 20, size=500)
    rows = [(f"q{i % 5}", f"doc-{i}", i // 5 + 1, s, "my_run") for i, s in enumerate(scores)]
    path = tmp_path / "run.txt"
    write_trec_run(path, rows)
    run = read_trec_run(path)
    np.testing.assert_array_equal(run.score, scores)
    assert run.doc_id == [r[1] for r in rows]
    assert run.rank.tolist() == [r[2] for r in rows]


def test_judgments_round_trip_through_csv(tmp_path: Path) -> None:
    rows = [("1", "d1", "alice", 4, "good, very"), ("1", "d2", "bob", 0, None)]
    path = tmp_path / "j.csv"
    write_csv(
        path,
        ["query_id", "doc_id", "annotator", "grade", "note"],
        rows,
        excel=True,
    )
    result = read_judgments_csv(path)
    assert (
        list(
            zip(
                result.query_id,
                result.doc_id,
                result.annotator,
                result.grade.tolist(),
                result.note,
                strict=True,
            )
        )
        == rows
    )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (("q 1", "d", 1, 1.0, "t"), "query id 'q 1' is empty or contains whitespace"),
        (("q", "", 1, 1.0, "t"), "document id '' is empty or contains whitespace"),
        (("q", "d", 1, 1.0, "my run"), "tag 'my run' is empty or contains whitespace"),
        (("q", "d", 1.5, 1.0, "t"), "rank 1.5 is not an integer"),
        (("q", "d", 1, float("nan"), "t"), "score nan is not a finite number"),
    ],
)
def test_write_trec_run_rejects_rows_that_would_not_read_back(
    tmp_path: Path, row: tuple[object, ...], message: str
) -> None:
    with pytest.raises(ValueError, match="row 2: " + message.replace("(", r"\(")):
        write_trec_run(tmp_path / "r.txt", [("q", "ok", 1, 1.0, "t"), row])
    assert list(tmp_path.iterdir()) == []


def test_write_trec_qrels_rejects_mixed_rows(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="row 2: expected 3 values, found 4"):
        write_trec_qrels(tmp_path / "q.txt", [("q", "d", 1), ("q", "d2", 1, "alice")])
    with pytest.raises(ValueError, match="grade '3' is not an integer"):
        write_trec_qrels(tmp_path / "q.txt", [("q", "d", "3")])


def test_csv_output_is_parsed_by_the_csv_module_like_a_spreadsheet_would(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    write_csv(path, ["text"], [['say "hi", then\nleave']])
    text = path.read_text(encoding="utf-8")
    assert text == 'text\n"say ""hi"", then\nleave"\n'
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["text"], ['say "hi", then\nleave']]


@settings(max_examples=60, deadline=None)
@given(
    floats=st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=3, max_size=3),
    ints=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=3, max_size=3),
    texts=st.lists(st.text(max_size=6), min_size=3, max_size=3),
    flags=st.lists(st.booleans(), min_size=3, max_size=3),
)
def test_columns_are_written_exactly_as_rows(
    tmp_path_factory: Any, floats: list[float], ints: list[int], texts: list[str], flags: list[bool]
) -> None:
    """write_csv_columns (numpy columns formatted a column at a time) writes the very bytes
    write_csv writes for the same cells row by row: NaN empty, negative numbers unquoted,
    formula-like text quoted, bools true/false."""
    folder = tmp_path_factory.mktemp("cols")
    header = ["f", "i", "t", "b", "none", "maybe"]
    maybe = [None if i == 1 else t for i, t in enumerate(texts)]  # texts and None
    columns = [
        np.array(floats, dtype=np.float64),
        np.array(ints, dtype=np.int64),
        texts,
        np.array(flags, dtype=bool),
        [None, 1.5, "x"],
        maybe,
    ]
    rows = zip(floats, ints, texts, flags, [None, 1.5, "x"], maybe, strict=True)
    write_csv(folder / "rows.csv", header, rows)
    write_csv_columns(folder / "cols.csv", header, columns)
    assert (folder / "cols.csv").read_bytes() == (folder / "rows.csv").read_bytes()


def test_columns_of_different_lengths_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="lengths"):
        write_csv_columns(tmp_path / "x.csv", ["a", "b"], [[1, 2], [1]])
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize(
    "rows",
    [
        [("q1", "d1", 2), ("q1", "d\u00e9", 0), ("10", "=x", 4)],
        [("q1", "d1", 2, "alice"), ("q2", "d2", 1, "bob")],
        [("q1", "d1", np.int64(3))],  # a numpy grade: the row-by-row path, same text
    ],
    ids=["plain", "annotators", "numpy-grade"],
)
def test_qrels_checked_in_bulk_equal_row_by_row(tmp_path: Path, rows: list[Any]) -> None:
    """A list of rows is checked column by column and formatted in bulk: the same file as
    the row-by-row path (a generator takes it)."""
    write_trec_qrels(tmp_path / "bulk.txt", rows)
    write_trec_qrels(tmp_path / "rows.txt", (row for row in rows))
    assert (tmp_path / "bulk.txt").read_bytes() == (tmp_path / "rows.txt").read_bytes()


@pytest.mark.parametrize("bad", ["", "a b", " a", "a\n", None])
def test_qrels_bulk_check_refuses_what_the_row_check_refuses(tmp_path: Path, bad: Any) -> None:
    rows = [("q1", "d1", 1), ("q1", bad, 2)]
    with pytest.raises(ValueError, match="row 2: document id"):
        write_trec_qrels(tmp_path / "q.txt", rows)
    assert not (tmp_path / "q.txt").exists()
