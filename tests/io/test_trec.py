"""TREC run and qrels readers: real files against reference parsers, and every kind of bad input."""

from __future__ import annotations

import itertools
from pathlib import Path

import ir_measures
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_studio.io.errors import MAX_ISSUES, InputError, InputFileError, ParseIssue
from ndcg_studio.io.grades import apply_grade_map, format_grade_map, parse_grade_map
from ndcg_studio.io.reading import columns as _columns
from ndcg_studio.io.reading import text as _common
from ndcg_studio.io.reading import ticker as _ticker
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run
from ndcg_studio.progress import OperationCancelled
from tests.io.conftest import DIKU, TEST_DATA, WriteFile, need

TREC_EVAL = TEST_DATA / "trec_eval_test"
DL19 = TEST_DATA / "trec_dl19_passage"


def issues_of(excinfo: pytest.ExceptionInfo[InputFileError]) -> list[tuple[int, str, str]]:
    return [(issue.line, issue.field, issue.message) for issue in excinfo.value.issues]


# ----------------------------------------------------------------------------- real files


@pytest.mark.parametrize(
    "path",
    [TREC_EVAL / "results.test", DL19 / "run.bm25-default.dl19.txt"],
    ids=["trec_eval results.test", "dl19 bm25 run"],
)
def test_run_real_file_matches_ir_measures(path: Path) -> None:
    run = read_trec_run(need(path))
    reference = list(ir_measures.read_trec_run(str(path)))
    assert len(run) == len(reference)
    assert run.query_id == [r.query_id for r in reference]
    assert run.doc_id == [r.doc_id for r in reference]
    np.testing.assert_array_equal(run.score, [r.score for r in reference])
    assert run.score.dtype == np.float64 and run.rank.dtype == np.int64
    raw = [line.split() for line in path.read_text(encoding="utf-8").splitlines()]
    np.testing.assert_array_equal(run.rank, [int(fields[3]) for fields in raw])
    assert run.tag == [fields[5] for fields in raw]
    np.testing.assert_array_equal(run.line, np.arange(1, len(raw) + 1))


def test_results_test_has_the_known_shape() -> None:
    run = read_trec_run(need(TREC_EVAL / "results.test"))
    assert len(run) == 1500
    assert run.tags == ("STANDARD",)
    assert sorted(set(run.query_id)) == ["301", "302", "303"]
    # "  2.129133" (tab then spaces) is one field: the line is 301 Q0 FR940202-2-00150 104 ...
    assert (run.doc_id[0], int(run.rank[0]), float(run.score[0])) == (
        "FR940202-2-00150",
        104,
        2.129133,
    )


def test_qrels_rel_level_keeps_minus_one_or_maps_it() -> None:
    """trec_eval's -1 (judged non-relevant) is kept as -1 without a map."""
    path = need(TREC_EVAL / "qrels.rel_level")
    kept = read_trec_qrels(path)
    assert np.count_nonzero(kept.grade == -1) == 304

    qrels = read_trec_qrels(path, grade_map={-1: 0})
    reference = list(ir_measures.read_trec_qrels(str(path)))
    assert len(qrels) == len(reference) == 3681
    assert qrels.query_id == [r.query_id for r in reference]
    assert qrels.doc_id == [r.doc_id for r in reference]
    np.testing.assert_array_equal(qrels.grade, [max(r.relevance, 0) for r in reference])
    assert qrels.annotator is None
    assert sorted(set(qrels.grade.tolist())) == [0, 1, 2, 3, 4]


def test_qrels_dl19_matches_ir_measures() -> None:
    path = need(DL19 / "qrels.dl19-passage.txt")
    qrels = read_trec_qrels(path)
    reference = list(ir_measures.read_trec_qrels(str(path)))
    assert len(qrels) == len(reference) == 9260
    np.testing.assert_array_equal(qrels.grade, [r.relevance for r in reference])


def test_diku_participant_9_lists_a_document_twice() -> None:
    """Real data: participant 9 ranked url 123 twice for query 5 (see the data's SOURCE.md)."""
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(need(DIKU / "trec" / "run.P9.trec"))
    [(line, field, message)] = issues_of(excinfo)
    assert field == "doc_id" and "'u123'" in message and "query '5'" in message
    first = int(message.rsplit("line ", 1)[1].rstrip(")"))
    lines = (DIKU / "trec" / "run.P9.trec").read_text(encoding="utf-8").splitlines()
    assert lines[line - 1].split()[:3] == lines[first - 1].split()[:3] == ["5", "Q0", "u123"]
    assert first < line
    assert len(read_trec_run(DIKU / "trec" / "run.P9.dedup_first.trec")) == len(lines) - 1


# ----------------------------------------------------------------------------- good input variants

GOOD_RUN = "q1 Q0 d1 1 2.5 tagA\nq1 Q0 d2 2 1.25 tagA\nq2 Q0 d1 1 -0.5 tagA\n"


def _as_tuples(path: Path) -> list[tuple[str, str, int, float, str, int]]:
    run = read_trec_run(path)
    return list(
        zip(
            run.query_id,
            run.doc_id,
            run.rank.tolist(),
            run.score.tolist(),
            run.tag,
            run.line.tolist(),
            strict=True,
        )
    )


def test_run_good_minimal(write_file: WriteFile) -> None:
    assert _as_tuples(write_file("run.txt", GOOD_RUN)) == [
        ("q1", "d1", 1, 2.5, "tagA", 1),
        ("q1", "d2", 2, 1.25, "tagA", 2),
        ("q2", "d1", 1, -0.5, "tagA", 3),
    ]


@pytest.mark.parametrize(
    "variant",
    [
        GOOD_RUN.replace("\n", "\r\n"),
        "\ufeff" + GOOD_RUN.replace("\n", "\r\n"),
        GOOD_RUN.rstrip("\n"),
        GOOD_RUN.replace(" ", "\t"),
        GOOD_RUN.replace(" ", " \t  "),
        "  " + GOOD_RUN.replace("\n", "  \n  "),
    ],
    ids=["crlf", "bom+crlf", "no final newline", "tabs", "mixed runs", "leading/trailing"],
)
def test_run_whitespace_encoding_variants(write_file: WriteFile, variant: str) -> None:
    assert _as_tuples(write_file("run.txt", variant)) == _as_tuples(
        write_file("good.txt", GOOD_RUN)
    )


def test_run_blank_and_comment_lines_are_skipped_with_true_line_numbers(
    write_file: WriteFile,
) -> None:
    text = "# produced by bm25\n\nq1 Q0 d1 1 2.5 t\n   \n# note\nq1 Q0 d2 2 1.5 t\n\n"
    rows = _as_tuples(write_file("run.txt", text))
    assert [row[5] for row in rows] == [3, 6]


def test_only_a_hash_in_the_first_column_is_a_comment(write_file: WriteFile) -> None:
    # trec_eval 10 (get_qrels.c) skips a line whose first character is '#'; a line that
    # starts with a space is a record, so a query id "#7" survives an export (written " #7 ...")
    qrels = read_trec_qrels(write_file("q.txt", "# comment\n #7 0 d1 2\n#8 0 d2 1\n"))
    assert qrels.query_id == ["#7"] and qrels.line.tolist() == [2]
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(write_file("run.txt", "q1 Q0 d1 1 2.5 t\n  # note\n"))
    assert "run.txt:2: columns: expected 6 fields" in str(excinfo.value)


def test_progress_is_bounded_monotone_and_complete(
    write_file: WriteFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    n = 1234
    path = write_file("run.txt", "".join(f"q Q0 d{i} {i + 1} 1.0 t\n" for i in range(n)))
    calls: list[tuple[int, int]] = []
    run = read_trec_run(path, progress=lambda done, total: calls.append((done, total)))
    assert len(run) == n
    assert len(calls) <= _ticker.PROGRESS_CALLS + 2
    assert calls[0] == (0, n) and calls[-1] == (n, n)
    assert all(total == n for _, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize("reader", ["run", "qrels"])
def test_cancel_raises_import_cancelled(
    write_file: WriteFile, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    if reader == "run":
        path = write_file("run.txt", "".join(f"q Q0 d{i} {i + 1} 1.0 t\n" for i in range(500)))
    else:
        path = write_file("qrels.txt", "".join(f"q 0 d{i} 1\n" for i in range(500)))
    polls = itertools.count()
    done: list[int] = []

    def cancelled() -> bool:
        return next(polls) >= 5

    with pytest.raises(OperationCancelled):
        if reader == "run":
            read_trec_run(path, progress=lambda d, t: done.append(d), cancelled=cancelled)
        else:
            read_trec_qrels(path, progress=lambda d, t: done.append(d), cancelled=cancelled)
    assert 0 < len(done) < 10 and max(done) < 500


# ----------------------------------------------------------------------------- bad input


def test_wrong_column_count(write_file: WriteFile) -> None:
    path = write_file("run.txt", "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5\nq1 Q0 d3 3 1.0 t extra\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert issues_of(excinfo) == [
        (2, "columns", "expected 6 fields (qid Q0 docno rank score tag), found 5"),
        (3, "columns", "expected 6 fields (qid Q0 docno rank score tag), found 7"),
    ]
    assert not excinfo.value.truncated


def test_issue_rendering_file_line_field_message(write_file: WriteFile) -> None:
    lines = [f"q Q0 d{i} {i} 1.0 t\n" for i in range(1, 12)] + ["q Q0 d12 12 abc t\n"]
    path = write_file("run.txt", "".join(lines))
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert str(excinfo.value) == f"{path}:12: score: 'abc' is not a number"
    assert excinfo.value.issues == (ParseIssue(str(path), 12, "score", "'abc' is not a number"),)
    assert isinstance(excinfo.value, InputError) and isinstance(excinfo.value, ValueError)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("nan", "'nan' is not a finite number"),
        ("inf", "'inf' is not a finite number"),
        ("-Infinity", "'-Infinity' is not a finite number"),
        ("1,5", "'1,5' is not a number"),
        ("0x1p3", "'0x1p3' is not a number"),
    ],
)
def test_bad_scores(write_file: WriteFile, score: str, message: str) -> None:
    path = write_file("run.txt", f"q Q0 d1 1 1.0 t\nq Q0 d2 2 {score} t\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert issues_of(excinfo) == [(2, "score", message)]


@pytest.mark.parametrize(
    ("rank", "why"),
    [
        ("1.5", "'1.5' is not an integer"),
        ("1.0", "'1.0' is not an integer"),
        ("first", "'first' is not an integer"),
        ("2147483648", "'2147483648' is not an integer"),
        ("1_0", "'1_0' is not an integer"),
    ],
)
def test_ranks_that_cannot_order_the_run_are_kept_aside(
    write_file: WriteFile, rank: str, why: str
) -> None:
    """trec_eval ignores the rank field: the file is read, the rank stored as unusable
    (NULL), and the reason kept for --order rank."""
    path = write_file("run.txt", f"q Q0 d0 1 2.0 t\nq Q0 d1 {rank} 1.0 t\n")
    run = read_trec_run(path)
    assert run.rank_usable.tolist() == [True, False]
    assert run.rank.tolist() == [1, 0]
    assert run.rank_problem is not None
    assert run.rank_problem.startswith(f"{path}:2: rank: {why} ")


def test_zero_based_negative_and_int32_edge_ranks_order_the_run(write_file: WriteFile) -> None:
    path = write_file(
        "run.txt",
        "q Q0 d0 0 4.0 t\nq Q0 d1 -5 3.0 t\nq Q0 d2 -2147483648 2.0 t\nq Q0 d3 2147483647 1 t\n",
    )
    run = read_trec_run(path)
    assert run.rank.tolist() == [0, -5, -(2**31), 2**31 - 1]
    assert run.rank_usable.all() and run.rank_problem is None


def test_duplicate_document_is_refused_and_repeated_rank_kept_aside(
    write_file: WriteFile,
) -> None:
    content = (
        "q1 Q0 d1 1 3.0 t\n"  # 1
        "q1 Q0 d2 2 2.0 t\n"  # 2
        "q2 Q0 d1 1 3.0 t\n"  # 3: same doc, other query: fine
        "q1 Q0 d4 2 0.5 t\n"  # 4: rank 2 again: trec_eval ignores it, and so do we
    )
    run = read_trec_run(write_file("run.txt", content))
    assert run.rank_problem is not None
    assert ":4: rank: rank 2 appears twice for query 'q1' (duplicate of line 2)" in (
        run.rank_problem
    )
    path = write_file("dup.txt", content + "q1 Q0 d1 3 1.0 t\n")  # 5: document twice
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert issues_of(excinfo) == [
        (5, "doc_id", "document 'd1' appears twice for query 'q1' (duplicate of line 1)"),
    ]


@pytest.mark.parametrize("content", [b"", b"\n\n", b"# only a comment\n", b"\xef\xbb\xbf"])
def test_empty_file(write_file: WriteFile, content: bytes) -> None:
    for reader in (read_trec_run, read_trec_qrels):
        with pytest.raises(InputFileError) as excinfo:
            reader(write_file("empty.txt", content))
        assert issues_of(excinfo) == [(1, "file", "file is empty (no data lines)")]


def test_latin1_file_names_byte_offset_and_line(write_file: WriteFile) -> None:
    first = "q1 Q0 d1 1 1.0 t\n"
    data = first.encode() + "q1 Q0 café 2 0.5 t\n".encode("latin-1")
    path = write_file("run.txt", data)
    offset = len(first) + len("q1 Q0 caf")
    assert data[offset] == 0xE9
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert str(excinfo.value) == (
        f"{path}:2: encoding: not UTF-8 (byte 0xE9 at offset {offset}); save the file as UTF-8"
    )


def test_nul_bytes_are_refused_with_offset_and_line(write_file: WriteFile) -> None:
    """A NUL byte (a UTF-16 file, or a stray one in an id) is refused, naming offset and line:
    C readers like trec_eval would end the field there, and SQLite's JSON cuts it too."""
    path = write_file("run.txt", b"q1 Q0 d1 1 1.0 t\nq1 Q0 d\x00x 2 0.5 t\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert issues_of(excinfo) == [
        (2, "encoding", "NUL byte at offset 24 (a UTF-16 file?); save the file as UTF-8 text")
    ]
    utf16 = write_file("qrels.txt", "q1 0 d1 1\n".encode("utf-16-le"))
    with pytest.raises(InputFileError, match="NUL byte at offset 1 "):
        read_trec_qrels(utf16)


def test_more_than_twenty_problems_are_truncated(write_file: WriteFile) -> None:
    path = write_file("run.txt", "".join(f"q Q0 d{i} {i} x t\n" for i in range(1, 31)))
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert excinfo.value.truncated
    assert len(excinfo.value.issues) == MAX_ISSUES
    assert [issue.line for issue in excinfo.value.issues] == list(range(1, 21))
    assert str(excinfo.value).endswith("\n... and more")


def test_exactly_twenty_problems_are_not_truncated(write_file: WriteFile) -> None:
    path = write_file("run.txt", "".join(f"q Q0 d{i} {i} x t\n" for i in range(1, 21)))
    with pytest.raises(InputFileError) as excinfo:
        read_trec_run(path)
    assert not excinfo.value.truncated and len(excinfo.value.issues) == 20
    assert "more" not in str(excinfo.value)


# ----------------------------------------------------------------------------- qrels


def test_qrels_annotator_column_and_duplicates(write_file: WriteFile) -> None:
    text = "q1 alice d1 3\nq1 bob d1 2\nq1 alice d2 0\n"
    qrels = read_trec_qrels(write_file("q.txt", text), annotator_column=True)
    assert qrels.annotator == ["alice", "bob", "alice"]
    assert qrels.grade.tolist() == [3, 2, 0]
    # Without the annotator column the same file judges d1 twice for q1.
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(write_file("q.txt", text))
    assert issues_of(excinfo) == [
        (2, "doc_id", "document 'd1' is judged twice for query 'q1' (duplicate of line 1)")
    ]
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(write_file("q.txt", text + "q1 bob d1 4\n"), annotator_column=True)
    assert issues_of(excinfo) == [
        (
            4,
            "doc_id",
            "document 'd1' is judged twice for query 'q1' by annotator 'bob' (duplicate of line 2)",
        )
    ]


@pytest.mark.parametrize(
    ("grade", "grade_map", "message"),
    [
        (
            "7",
            None,
            "7 is outside -1..4; to keep this scale's gains, import with "
            "--grade-map 1:0,7:1 and score with --gains 0:1,1:7",
        ),
        ("7", {5: 4}, "7 is outside -1..4 and not in the grade map"),
        ("x", None, "'x' is not a number"),
        ("2.5", None, "'2.5' is not an integer"),
        ("1_0", None, "'1_0' is not a number (only ASCII digits, without '_' separators)"),
        ("\u0661\u0662", None, "'١٢' is not a number (only ASCII digits, without '_' separators)"),
        (
            "-2",
            None,
            "-2 is outside -1..4 (a negative grade such as TREC's -2 for spam is judged "
            "non-relevant: --grade-map '-2:-1')",
        ),
    ],
)
def test_bad_grades(
    write_file: WriteFile, grade: str, grade_map: dict[int, int] | None, message: str
) -> None:
    path = write_file("qrels.txt", f"q 0 d1 1\nq 0 d2 {grade}\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(path, grade_map=grade_map)
    assert issues_of(excinfo) == [(2, "grade", message)]


def test_grade_map_applies_before_range_check(write_file: WriteFile) -> None:
    path = write_file("qrels.txt", "q 0 d1 -1\nq 0 d2 1\nq 0 d3 4\nq 0 d4 2\n")
    qrels = read_trec_qrels(path, grade_map=parse_grade_map("1:4,2:3,3:2,4:1,-1:0"))
    assert qrels.grade.tolist() == [0, 4, 1, 3]


def test_qrels_wrong_column_count(write_file: WriteFile) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(write_file("qrels.txt", "q 0 d1 1\nq d2 1\n"))
    assert issues_of(excinfo) == [
        (2, "columns", "expected 4 fields (qid iter docno grade), found 3")
    ]


# ----------------------------------------------------------------------------- grade maps


def test_parse_grade_map() -> None:
    assert parse_grade_map("-1:0,5:4") == {-1: 0, 5: 4}
    assert parse_grade_map(" 1 : 4 , 2:3 ") == {1: 4, 2: 3}
    assert parse_grade_map("") == {} == parse_grade_map("  ")
    assert format_grade_map({-1: 0, 5: 4}) == "-1:0,5:4"
    swapped = apply_grade_map(np.array([1, 2, 3], dtype=np.int64), {1: 2, 2: 1})
    assert swapped.tolist() == [2, 1, 3]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("5=4", "'5=4' is not FROM:TO"),
        ("1:2:3", "'1:2:3' is not FROM:TO"),
        ("a:1", "must be integers"),
        ("1:4,1:3", "grade 1 is mapped twice"),
        ("9:7", "target 7 is outside -1..4"),
        ("9:-2", "target -2 is outside -1..4"),
        ("1:4,", "'' is not FROM:TO"),
    ],
)
def test_parse_grade_map_errors(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match="grade map") as excinfo:
        parse_grade_map(text)
    assert fragment in str(excinfo.value)
    assert isinstance(excinfo.value, InputError)


# ------------------------------------------------------------------ fast path = slow path

SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t", "\t\t", "\x0b", "\xa0"])
TOKEN = st.text(alphabet="abc123.-#é", min_size=1, max_size=4)


@st.composite
def whitespace_files(draw: st.DrawFn) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        n = draw(st.sampled_from([0, 3, 4, 4, 4, 4, 5]))
        tokens = [draw(TOKEN) for _ in range(n)]
        seps = [draw(SEPARATORS) for _ in range(n - 1)] + [""] if n else []
        body = "".join(t + s for t, s in zip(tokens, seps, strict=True))
        lead = draw(st.sampled_from(["", "", " ", "\t"]))
        trail = draw(st.sampled_from(["", "", " ", "\r"]))
        lines.append(lead + body + trail)
    return lines


@settings(max_examples=300, deadline=None)
@given(lines=whitespace_files(), final=st.sampled_from(["", "\n"]), chunk=st.integers(1, 5))
def test_whitespace_columns_equal_a_naive_line_by_line_split(
    lines: list[str], final: str, chunk: int
) -> None:
    """Any chunking (``chunk`` lines per step), fast or slow path: same rows, same issues."""
    if final == "" and lines and lines[-1].strip("\r") == "":
        final = "\n"  # a last blank line without LF would vanish; not what is tested here
    ticker = _ticker.Ticker(None, None)
    ticker.chunk_size = lambda: chunk  # type: ignore[method-assign]
    expected_rows = []
    expected_issues = []
    for number, text in enumerate(lines, start=1):
        fields = text.split()
        if not fields or text.startswith("#"):  # trec_eval: '#' in the first column
            continue
        if len(fields) != 4:
            expected_issues.append(number)
            continue
        expected_rows.append((*fields, number))
    issues = _common.Issues("f")
    columns, line = _common.whitespace_columns(
        "\n".join(lines) + final, 4, (0, 1, 2, 3), "a b c d", issues, ticker
    )
    rows = list(zip(*columns, line.tolist(), strict=True))
    assert [issue.line for issue in issues.items] == expected_issues
    assert rows == expected_rows


def test_compensating_field_counts_cannot_fool_the_fast_path(write_file: WriteFile) -> None:
    """3 + 5 fields give the same token total as 4 + 4: every line must still be checked."""
    path = write_file("qrels.txt", "q 0 d1 1\nq 0 d2\nq 0 d3 1 1\nq 0 d4 2\n")
    with pytest.raises(InputFileError) as excinfo:
        read_trec_qrels(path)
    assert [(line, field) for line, field, _ in issues_of(excinfo)] == [
        (2, "columns"),
        (3, "columns"),
    ]


def test_fast_path_proof() -> None:
    def proof(text: str) -> int | None:
        return _common._all_lines_have(text, len(text.split()), 4)

    assert proof("q 0 d1 1\nq 0 d2 3\n") == 2
    assert proof("q\t0\td1\t1\nq\t0\td2\t3") == 2  # tabs, no final newline
    assert proof("q 0 d1 1 x\nq 0 d2\n") is None  # 5 + 3 fields = 8 tokens, 2 lines
    assert proof("q 0 d1 1\nq 0  d2 3\n") is None  # a double space
    assert proof("q 0 d1 1\nq\t0 d2 3\n") is None  # two separator characters
    assert proof("q 0 d1 1\n\nq 0 d2 3\n") is None  # a blank line
    assert proof("q 0 d1 é\n") is None  # not ASCII


def test_hash_collisions_are_resolved_exactly() -> None:
    keys = [("q1", 1), ("q2", 1), ("q1", 2), ("q1", 1), ("q2", 1), ("q3", 9)]
    all_collide = np.zeros(len(keys), dtype=np.int64)
    pairs = _columns.hashed_duplicate_pairs(all_collide, keys.__getitem__)
    assert pairs == [(3, 0), (4, 1)]
    assert _columns.hashed_duplicate_pairs(np.arange(6, dtype=np.int64), keys.__getitem__) == []


def test_same_rank_in_different_queries_is_fine(write_file: WriteFile) -> None:
    run = read_trec_run(write_file("run.txt", "a Q0 d 1 1.0 t\nb Q0 d 1 1.0 t\nc Q0 e 1 2 t\n"))
    assert run.rank.tolist() == [1, 1, 1]


def test_doc_ids_are_handed_over_once_split_and_before_the_checks(write_file: WriteFile) -> None:
    """on_doc_ids gets the doc_id column (the one the result holds) once every line has its
    fields — even when a value is refused afterwards — and never for a file whose lines do
    not split into the right number of fields."""
    seen: list[list[str]] = []
    run = read_trec_run(
        write_file("r1", "a Q0 d1 1 2.0 r\na Q0 d2 2 1.0 r\n"), on_doc_ids=seen.append
    )
    assert seen == [["d1", "d2"]] and seen[0] is run.doc_id
    seen.clear()
    with pytest.raises(InputFileError):
        read_trec_run(write_file("r2", "a Q0 d1 1 nan r\n"), on_doc_ids=seen.append)
    assert seen == [["d1"]]
    seen.clear()
    with pytest.raises(InputFileError):
        read_trec_run(write_file("r3", "a Q0 d1 1 2.0 r\na Q0 d2 2\n"), on_doc_ids=seen.append)
    with pytest.raises(InputFileError):
        read_trec_qrels(write_file("q1", "a 0 d1\n"), on_doc_ids=seen.append)
    assert seen == []
    qrels = read_trec_qrels(write_file("q2", "a 0 d1 2\nb 0 d3 1\n"), on_doc_ids=seen.append)
    assert seen == [["d1", "d3"]] and seen[0] is qrels.doc_id


def test_columns_converted_in_slices_equal_one_conversion() -> None:
    """Numbers and hashes are converted 65,536 values at a time (so other threads get the GIL
    back): the same arrays as one call, and a bad value past the first slice is still found
    with its line."""
    n = 2 * _columns._SLICE + 5
    ints = [str(i * 7 - 3) for i in range(n)]
    floats = [repr(i / 3) for i in range(n)]
    line = np.arange(1, n + 1)
    issues = _common.Issues("f")
    got_int = _columns.parse_int_column(ints, line, "rank", issues)
    got_float = _columns.parse_float_column(floats, line, "score", issues)
    assert got_int is not None and got_float is not None
    assert np.array_equal(got_int, np.array(ints, dtype=np.int64))
    assert np.array_equal(got_float, np.array(floats, dtype=np.float64))
    assert np.array_equal(_columns.string_hashes(ints), [hash(v) for v in ints])
    ints[n - 2] = "x"
    assert _columns.parse_int_column(ints, line, "rank", issues) is None
    with pytest.raises(InputFileError) as excinfo:
        issues.raise_if_any()
    assert [(i.line, i.field) for i in excinfo.value.issues] == [(n - 1, "rank")]
    pairs = _columns.duplicate_string_pairs([[*ints[:-1], ints[3]], [*floats[:-1], floats[3]]])
    assert pairs == [(n - 1, 3)]
