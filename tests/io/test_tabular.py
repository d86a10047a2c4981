"""Judgments CSV/TSV, queries and documents readers: good files, real files, bad input."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.judgments_csv import read_judgments_csv
from ndcg_studio.io.reading import table as _table
from ndcg_studio.io.reading import ticker as _ticker
from ndcg_studio.io.tabular import read_documents, read_queries
from ndcg_studio.progress import OperationCancelled
from tests.io.conftest import DIKU, SHARED_DATA, WriteFile, need


def issues_of(excinfo: pytest.ExceptionInfo[InputFileError]) -> list[tuple[int, str, str]]:
    return [(issue.line, issue.field, issue.message) for issue in excinfo.value.issues]


# ----------------------------------------------------------------------------- judgments

JUDGMENTS = (
    "query_id,doc_id,annotator,grade,note,extra\n"
    "q1,d1,alice,3,,x\n"
    'q1,d1,bob,2,"long, quoted\nnote with ""quotes""",y\n'
    "q2,d9,alice,0,irrelevant,z\n"
)


def test_judgments_csv_good(write_file: WriteFile) -> None:
    result = read_judgments_csv(write_file("j.csv", JUDGMENTS))
    assert result.query_id == ["q1", "q1", "q2"]
    assert result.doc_id == ["d1", "d1", "d9"]
    assert result.annotator == ["alice", "bob", "alice"]
    assert result.grade.tolist() == [3, 2, 0]
    assert result.note == [None, 'long, quoted\nnote with "quotes"', "irrelevant"]
    # the quoted note spans lines 3-4, so the next row starts on line 5
    assert result.line.tolist() == [2, 3, 5]


@pytest.mark.parametrize(
    ("name", "transform"),
    [
        ("j.csv", lambda t: "\ufeff" + t.replace("\n", "\r\n")),
        ("j.csv", lambda t: t.rstrip("\n")),
        ("j.csv", lambda t: "# exported by NDCG Studio\n# grades 0-4\n" + t),
        ("j.csv", lambda t: t.replace("query_id,doc_id", " Query_ID , DOC_ID ")),
        ("j.csv", lambda t: t + ",,,,,\n\n"),
    ],
    ids=["bom+crlf", "no final newline", "comment lines", "header case/spaces", "empty rows"],
)
def test_judgments_csv_variants(write_file: WriteFile, name: str, transform: object) -> None:
    assert callable(transform)
    reference = read_judgments_csv(write_file("ref.csv", JUDGMENTS))
    result = read_judgments_csv(write_file(name, transform(JUDGMENTS)))
    assert result.query_id == reference.query_id
    assert result.annotator == reference.annotator
    assert result.grade.tolist() == reference.grade.tolist()
    assert [n.replace("\r\n", "\n") if n else n for n in result.note] == reference.note


@pytest.mark.parametrize("name", ["j.tsv", "j.tab", "j.txt"])
def test_judgments_tsv_by_extension_or_sniffing(write_file: WriteFile, name: str) -> None:
    text = "query_id\tdoc_id\tannotator\tgrade\tnote\nq1\td1\talice\t4\thas, a comma\n"
    result = read_judgments_csv(write_file(name, text))
    assert (result.query_id, result.grade.tolist(), result.note) == (
        ["q1"],
        [4],
        ["has, a comma"],
    )


def test_judgments_missing_header_column(write_file: WriteFile) -> None:
    path = write_file("j.csv", "query_id,doc_id,grade\nq1,d1,3\n")
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(path)
    [(line, field, message)] = issues_of(excinfo)
    assert (line, field) == (1, "annotator")
    assert message.startswith("required column is missing (header: 'query_id', 'doc_id', 'grade'")


def test_judgments_header_line_counts_comment_lines(write_file: WriteFile) -> None:
    path = write_file("j.csv", "# comment\nquery_id,doc_id,annotator\nq1,d1,a\n")
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(path)
    assert [(line, field) for line, field, _ in issues_of(excinfo)] == [(2, "grade")]


def test_judgments_bad_rows(write_file: WriteFile) -> None:
    text = (
        "query_id,doc_id,annotator,grade\n"
        "q1,d1,alice,7\n"  # 2 out of range
        "q1,d2,alice,x\n"  # 3 not a number
        "q1,d3,,2\n"  # 4 empty annotator
        "q1,d4,alice\n"  # 5 wrong field count
        "q1,d5,alice,1\n"  # 6 fine
        "q1,d5,alice,2\n"  # 7 duplicate of 6
        "q1,d6,alice,2.0\n"  # 8 not an integer
    )
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(write_file("j.csv", text))
    assert issues_of(excinfo) == [
        (3, "grade", "'x' is not a number"),
        (4, "annotator", "is empty"),
        (5, "columns", "expected 4 fields like the header, found 3"),
        (
            7,
            "doc_id",
            "judgment (query, document, annotator) 'q1', 'd5', 'alice' appears twice "
            "(duplicate of line 6)",
        ),
        (8, "grade", "'2.0' is not an integer"),
    ]
    # grade 7 is reported once the other grades parse
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(write_file("j.csv", "query_id,doc_id,annotator,grade\nq,d,a,7\n"))
    assert issues_of(excinfo) == [
        (
            2,
            "grade",
            "7 is outside -1..4; to keep this scale's gains, import with --grade-map 7:0 "
            "and score with --gains 0:7",
        )
    ]


def test_judgments_grade_map(write_file: WriteFile) -> None:
    text = "query_id,doc_id,annotator,grade\nq,d1,a,1\nq,d2,a,4\n"
    result = read_judgments_csv(write_file("j.csv", text), grade_map={1: 0, 4: 3})
    assert result.grade.tolist() == [0, 3]


@pytest.mark.parametrize(
    "content", ["", "\n\n", "query_id,doc_id,annotator,grade\n", "# only comments\n"]
)
def test_judgments_empty(write_file: WriteFile, content: str) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(write_file("j.csv", content))
    assert issues_of(excinfo) == [(1, "file", "file is empty (no data lines)")]


def test_judgments_latin1(write_file: WriteFile) -> None:
    data = b"query_id,doc_id,annotator,grade\n" + "q,d,José,1\n".encode("latin-1")
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(write_file("j.csv", data))
    [(line, field, message)] = issues_of(excinfo)
    assert (line, field) == (2, "encoding")
    offset = len("query_id,doc_id,annotator,grade\nq,d,Jos")
    assert data[offset] == 0xE9
    assert message == f"not UTF-8 (byte 0xE9 at offset {offset}); save the file as UTF-8"


def test_judgments_more_than_twenty_problems(write_file: WriteFile) -> None:
    rows = "".join(f"q,d{i},a,x\n" for i in range(25))
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(write_file("j.csv", "query_id,doc_id,annotator,grade\n" + rows))
    assert excinfo.value.truncated and len(excinfo.value.issues) == 20
    assert str(excinfo.value).endswith("... and more")


def test_judgments_cancel(write_file: WriteFile, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_ticker, "MIN_CHUNK_LINES", 1)
    rows = "".join(f"q,d{i},a,1\n" for i in range(300))
    polls = itertools.count()
    with pytest.raises(OperationCancelled):
        read_judgments_csv(
            write_file("j.csv", "query_id,doc_id,annotator,grade\n" + rows),
            cancelled=lambda: next(polls) >= 3,
        )


def test_diku_judgments_match_the_csv_module_and_the_known_duplicate(
    tmp_path: Path,
) -> None:
    """Real multi-annotator data (read from ../shared, never copied into the repo)."""
    source = need(DIKU / "judgments_long.csv")
    text = source.read_text(encoding="utf-8")
    renamed = tmp_path / "diku.csv"
    renamed.write_text(text.replace("rel_1to4", "grade", 1), encoding="utf-8")
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(renamed)
    # participant 9 judged url 123 twice for query 5 (lines 225 and 226 of the file)
    assert issues_of(excinfo) == [
        (
            226,
            "doc_id",
            "judgment (query, document, annotator) '5', 'u123', 'P9' appears twice "
            "(duplicate of line 225)",
        )
    ]
    lines = renamed.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[225]  # drop line 226
    renamed.write_text("".join(lines), encoding="utf-8")
    result = read_judgments_csv(renamed, grade_map={1: 0, 2: 1, 3: 2, 4: 3})
    with renamed.open(encoding="utf-8", newline="") as handle:
        reference = list(csv.DictReader(handle))
    assert len(result) == len(reference) == 499
    assert result.annotator == [row["annotator"] for row in reference]
    assert result.grade.tolist() == [int(row["grade"]) - 1 for row in reference]
    assert len(set(result.annotator)) == 10


# ----------------------------------------------------------------------------- queries


def test_queries_tsv(write_file: WriteFile) -> None:
    text = "101\tdo goldfish grow\r\n\r\n102\t what is wifi \r\n"
    queries = read_queries(write_file("topics.txt", text))
    assert queries.query_id == ["101", "102"]
    assert queries.text == ["do goldfish grow", "what is wifi"]
    assert queries.description == [None, None] and queries.narrative == [None, None]
    assert queries.line.tolist() == [1, 3]


def test_queries_tsv_real_files() -> None:
    diku = read_queries(need(DIKU / "queries.tsv"))
    assert diku.query_id == [str(i) for i in range(1, 11)]
    assert diku.text[0] == "Smoking not bad for health"
    path = need(SHARED_DATA / "trec_dl19_passage" / "topics.dl19-passage.txt")
    dl19 = read_queries(path)
    raw = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(dl19) == len(raw) == 43
    assert dl19.query_id == [qid for qid, _ in raw]


def test_queries_tsv_with_a_header_line(write_file: WriteFile) -> None:
    text = "query_id\ttext\tdescription\n7\tdo goldfish grow\tabout fish\n"
    queries = read_queries(write_file("topics.tsv", text))
    assert (queries.query_id, queries.text, queries.description) == (
        ["7"],
        ["do goldfish grow"],
        ["about fish"],
    )
    assert queries.line.tolist() == [2]


def test_queries_csv_with_description(write_file: WriteFile) -> None:
    text = "query_id,text,description,narrative\n1,wifi,What is wifi?,\n2,ww1,,Any reason\n"
    queries = read_queries(write_file("q.csv", text))
    assert queries.query_id == ["1", "2"]
    assert queries.description == ["What is wifi?", None]
    assert queries.narrative == [None, "Any reason"]


def test_queries_bad(write_file: WriteFile) -> None:
    text = "1\tfirst\n2 second\n3\t\n\tno id\n1\tagain\n4\ta\tb\n"
    with pytest.raises(InputFileError) as excinfo:
        read_queries(write_file("q.tsv", text))
    assert issues_of(excinfo) == [
        (
            2,
            "columns",
            "expected 2 tab-separated fields (qid<TAB>text), found 1 (is the file tab-separated?)",
        ),
        (3, "text", "is empty"),
        (4, "query_id", "is empty"),
        (5, "query_id", "query id '1' appears twice (duplicate of line 1)"),
        (6, "columns", "expected 2 tab-separated fields (qid<TAB>text), found 3"),
    ]


def test_queries_csv_missing_text_column(write_file: WriteFile) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_queries(write_file("q.csv", "query_id,title\n1,x\n"))
    assert [(line, field) for line, field, _ in issues_of(excinfo)] == [(1, "text")]


# ----------------------------------------------------------------------------- documents


def test_documents_csv(write_file: WriteFile) -> None:
    text = 'doc_id,title,text,url\nd1,Wing,"A wing, in a slipstream",http://x/1\nd2,,,\n'
    docs = read_documents(write_file("docs.csv", text))
    assert docs.doc_id == ["d1", "d2"]
    assert docs.title == ["Wing", None]
    assert docs.text == ["A wing, in a slipstream", None]
    assert docs.url == ["http://x/1", None]


def test_documents_csv_only_doc_id(write_file: WriteFile) -> None:
    docs = read_documents(write_file("docs.csv", "doc_id\nd1\nd2\n"))
    assert docs.doc_id == ["d1", "d2"] and docs.title == [None, None]


def test_documents_jsonl(write_file: WriteFile) -> None:
    records = [
        {"doc_id": "d1", "title": "Wing", "text": "Lift", "url": None, "other": [1]},
        {"doc_id": 42, "text": "numeric id"},
    ]
    text = "\n".join(json.dumps(r) for r in records) + "\n\n"
    docs = read_documents(write_file("docs.jsonl", text))
    assert docs.doc_id == ["d1", "42"]
    assert docs.title == ["Wing", None]
    assert docs.text == ["Lift", "numeric id"]
    assert docs.url == [None, None]
    assert docs.line.tolist() == [1, 2]


def test_documents_jsonl_bad(write_file: WriteFile) -> None:
    text = (
        '{"doc_id": "d1"}\n'
        '{"doc_id": "d2", "title": 5}\n'
        "[1, 2]\n"
        '{"doc_id": "d3",}\n'
        '{"title": "no id"}\n'
        '{"doc_id": "d1"}\n'
        '{"doc_id": " "}\n'
    )
    with pytest.raises(InputFileError) as excinfo:
        read_documents(write_file("docs.jsonl", text))
    found = issues_of(excinfo)
    assert found[2][:2] == (4, "json") and found[2][2].startswith("not valid JSON (")
    assert found[:2] + found[3:] == [
        (2, "title", "expected a string or null, found int"),
        (3, "json", "expected a JSON object, found list"),
        (5, "doc_id", "is missing"),
        (6, "doc_id", "document id 'd1' appears twice (duplicate of line 1)"),
        (7, "doc_id", "is empty"),
    ]


def test_documents_csv_bad(write_file: WriteFile) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_documents(write_file("docs.csv", "title,text\nx,y\n"))
    assert [(line, field) for line, field, _ in issues_of(excinfo)] == [(1, "doc_id")]
    with pytest.raises(InputFileError) as excinfo:
        read_documents(write_file("docs.csv", 'doc_id,title\nd0,ok\n"d1,x\n'))
    assert issues_of(excinfo) == [(3, "csv", "unexpected end of data")]
    with pytest.raises(InputFileError) as excinfo:
        read_documents(write_file("docs.csv", 'doc_id,title\n"d1"x,y\n'))
    assert issues_of(excinfo) == [(2, "csv", "',' expected after '\"'")]


@pytest.mark.parametrize(
    "content",
    [
        "query_id,doc_id,annotator,grade,note\nq1,d1,a,2,\nq1,d2,b,3,fine\n",
        "# comment\nextra,grade,annotator,doc_id,query_id\nx, 1 ,a , d1, q1\ny,0,b,d2,q2\n",
        "query_id\tdoc_id\tannotator\tgrade\r\nq1\td1\ta\t4\r\nq2\td1\ta\t0\r\n",
        "\ufeffquery_id,doc_id,annotator,grade\nq1,d1,a,1",
        'query_id,doc_id,annotator,grade,note\nq1,d1,a,2,"a, quoted note"\n',
        "query_id,doc_id,annotator,grade\nq1,d1,a,2\n\nq2,d1,a,3\n",
    ],
    ids=["notes", "reordered+spaces", "tsv-crlf", "bom-no-final-newline", "quoted", "blank"],
)
def test_plain_files_read_in_bulk_equal_row_by_row(
    write_file: WriteFile, monkeypatch: pytest.MonkeyPatch, content: str
) -> None:
    """The bulk path for plain files gives what the row-by-row reader gives (which files
    with quotes or blank lines still take)."""
    name = "j.tsv" if "\t" in content else "j.csv"
    path = write_file(name, content)
    bulk = _table.Table.plain_columns
    used: list[bool] = []

    def spy(self: Any, names: Any) -> Any:
        result = bulk(self, names)
        used.append(result is not None)
        return result

    monkeypatch.setattr(_table.Table, "plain_columns", spy)
    fast = read_judgments_csv(path)
    assert used == [not ('"' in content or "\n\n" in content)]
    monkeypatch.setattr(_table.Table, "plain_columns", lambda self, names: None)
    slow = read_judgments_csv(path)
    for field in ("query_id", "doc_id", "annotator", "note"):
        assert getattr(fast, field) == getattr(slow, field), field
    assert fast.grade.tolist() == slow.grade.tolist()
    assert fast.line.tolist() == slow.line.tolist()
