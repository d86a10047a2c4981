"""The column readers of ``eval`` give what the strict readers give, whatever the layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.trec import columns as trec_columns
from ndcg_studio.io.trec.columns import read_qrels_columns, read_run_columns
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run

ids = st.text(alphabet="abcXYZ019-_.é€", min_size=1, max_size=12)
gaps = st.sampled_from([" ", "\t", "  ", " \t "])


def same_as_strict_run(path: Path) -> None:
    columns = read_run_columns(path)
    strict = read_trec_run(path)
    assert [columns.query_ids[i] for i in columns.query.tolist()] == strict.query_id
    assert [d.decode("utf-8") for d in columns.doc.tolist()] == strict.doc_id
    np.testing.assert_array_equal(columns.score, strict.score)
    assert columns.query_ids == sorted(set(strict.query_id), key=lambda s: s.encode())
    assert columns.tag == strict.tag[-1]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.tuples(ids, ids, st.floats(-1e6, 1e6, allow_nan=False), gaps), min_size=1, max_size=40
    ),
    crlf=st.booleans(),
    bom=st.booleans(),
    final_newline=st.booleans(),
)
def test_run_columns_equal_the_strict_reader(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[tuple[str, str, float, str]],
    crlf: bool,
    bom: bool,
    final_newline: bool,
) -> None:
    seen: set[tuple[str, str]] = set()
    lines = []
    for rank, (q, d, s, gap) in enumerate(rows, start=1):
        if (q, d) in seen:
            continue
        seen.add((q, d))
        lines.append(gap.join([q, "Q0", d, str(rank), repr(s), "tag"]))
    end = "\r\n" if crlf else "\n"
    text = end.join(lines) + (end if final_newline else "")
    path = tmp_path_factory.mktemp("run") / "run.txt"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    same_as_strict_run(path)


def test_qrels_columns_read_any_integer_grade_like_trec_eval(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("2 0 b -1\n10 0 a 3\n2 0 a 7\n")
    columns = read_qrels_columns(path)
    assert columns.query_ids == ["10", "2"]  # byte order, as trec_eval sorts them
    assert columns.query.tolist() == [1, 0, 1]
    assert columns.doc.tolist() == [b"b", b"a", b"a"]
    assert columns.grade.tolist() == [-1, 3, 7]


def test_irregular_files_go_through_the_strict_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    strict = read_trec_qrels

    def spy(path: object) -> object:
        calls.append(path)
        return strict(path)  # type: ignore[arg-type]

    monkeypatch.setattr(trec_columns, "read_trec_qrels", spy)
    plain = tmp_path / "plain.txt"
    plain.write_text("1 0 a 1\n1 0 b 0\n")
    commented = tmp_path / "commented.txt"
    commented.write_text("# judged by NIST\n1 0 a 1\n\n1 0 b 0\n")
    a, b = read_qrels_columns(plain), read_qrels_columns(commented)
    assert calls == [commented]
    assert (a.query_ids, a.doc.tolist(), a.grade.tolist()) == (
        b.query_ids,
        b.doc.tolist(),
        b.grade.tolist(),
    )
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("1 0 a 1\n1 0 b\n1 0 c 2.5\n")
    with pytest.raises(InputFileError) as exc:
        read_qrels_columns(wrong)
    assert str(exc.value).splitlines()[0].startswith(f"{wrong}:2: ")
    assert f"{wrong}:3: grade:" in str(exc.value)


def test_blocks_split_only_between_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trec_columns, "_BLOCK", 7)  # every line crosses a block boundary
    path = tmp_path / "run.txt"
    path.write_text("".join(f"q{i % 3} Q0 doc{i} {i} {1.5 * i} run{i}\n" for i in range(50)))
    same_as_strict_run(path)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{i} 0 d{i} {i % 5}\n" for i in range(5)))
    assert read_qrels_columns(qrels).grade.tolist() == [0, 1, 2, 3, 4]


def test_strict_reader_refusals_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 nan t\n")
    with pytest.raises(InputFileError, match=":1: score:"):
        read_run_columns(path)
    path.write_text("1 Q0 a 1 1_5 t\n")  # numpy reads 15: the strict reader decides
    try:
        strict = read_trec_run(path)
    except InputFileError as exc:
        with pytest.raises(InputFileError) as got:
            read_run_columns(path)
        assert str(got.value) == str(exc)
    else:
        np.testing.assert_array_equal(read_run_columns(path).score, strict.score)
    path.write_bytes(b"1 Q0 \xff 1 0.5 t\n")
    with pytest.raises(InputFileError, match="not UTF-8"):
        read_run_columns(path)
    path.write_text("")
    with pytest.raises(InputFileError):
        read_run_columns(path)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(ids, ids, st.integers(-1, 4), gaps), min_size=1, max_size=40),
    final_newline=st.booleans(),
)
def test_qrels_columns_equal_the_strict_reader(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[tuple[str, str, int, str]],
    final_newline: bool,
) -> None:
    """Ids of 1 to 36 bytes, the last ones near the end of the file: the fields read eight
    bytes at a time, and those the block's end cuts short byte by byte, are the same bytes."""
    seen: set[tuple[str, str]] = set()
    lines = []
    for q, d, grade, gap in rows:
        if (q, d) not in seen:
            seen.add((q, d))
            lines.append(gap.join([q, "0", d, str(grade)]))
    path = tmp_path_factory.mktemp("qrels") / "qrels.txt"
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    columns = read_qrels_columns(path)
    strict = read_trec_qrels(path, grade_map=None)
    assert [columns.query_ids[i] for i in columns.query.tolist()] == strict.query_id
    assert [d.decode("utf-8") for d in columns.doc.tolist()] == strict.doc_id
    assert columns.grade.tolist() == strict.grade.tolist()


def test_one_digit_grades_and_others() -> None:
    np.testing.assert_array_equal(
        trec_columns._digit_grades(np.array([b"0", b"4", b"9"])), [0, 4, 9]
    )
    assert trec_columns._digit_grades(np.array([b"-1", b"2"])) is None
    assert trec_columns._digit_grades(np.array([b"a"])) is None
    assert trec_columns._digit_grades(np.array([b"/"])) is None


def test_digit_and_other_grades_in_one_file(tmp_path: Path) -> None:
    # the fast path takes a block of one-digit grades only: with a "-1" numpy parses it
    for text, grades in (("4", [3, 0, 4]), ("-1", [3, 0, -1]), ("12", [3, 0, 12])):
        path = tmp_path / "qrels.txt"
        path.write_text(f"q1 0 a 3\nq1 0 b 0\nq2 0 a {text}\n")
        assert read_qrels_columns(path).grade.tolist() == grades


plain_decimals = st.from_regex(r"\A[+-]?([0-9]{1,9}\.?[0-9]{0,6}|\.[0-9]{1,6})\Z", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.one_of(plain_decimals, plain_decimals, st.just("1e-05")), min_size=1))
def test_scores_are_the_doubles_float_reads(
    tmp_path_factory: pytest.TempPathFactory, scores: list[str]
) -> None:
    """Plain decimals (read without numpy's conversion) and others: the same double as
    ``float()``, the sign of zero included."""
    path = tmp_path_factory.mktemp("scores") / "run.txt"
    lines = (f"q1 Q0 d{i} {i + 1} {s} tag\n" for i, s in enumerate(scores))
    path.write_text("".join(lines), encoding="utf-8")
    got = read_run_columns(path).score
    want = np.array([float(s) for s in scores])
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
