"""The wide judgments file (``export judgments --wide``: one grade column per annotator) is read
back by ``import judgments``: names unguarded, empty cells not judged, the long form's checks."""

from __future__ import annotations

import pytest

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.judgments_csv import read_judgments_csv
from tests.io.conftest import WriteFile


def test_wide_file_gives_one_judgment_per_filled_cell(write_file: WriteFile) -> None:
    path = write_file(
        "wide.csv",
        "query_id,doc_id,'-ann,Bob,'''x\nq1,d1,2,,4\n'=q,d2,,0,\nq3,d3,,,\n",
    )
    j = read_judgments_csv(path, grade_map={4: 3})
    assert list(zip(j.query_id, j.doc_id, j.annotator, j.grade.tolist(), strict=True)) == [
        ("q1", "d1", "-ann", 2),
        ("q1", "d1", "''x", 3),
        ("=q", "d2", "Bob", 0),
    ]
    assert j.line.tolist() == [2, 2, 3] and j.note == [None] * 3 and not j.has_notes


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("query_id,doc_id,a,a\nq,d,1,2\n", "1: a: column appears twice"),
        ("query_id,doc_id,a,\nq,d,1,2\n", "1: annotator: column 4 has no name"),
        ("query_id,doc_id,a\nq,d,7\n", "2: grade: 7 is outside -1..4"),
        ("query_id,doc_id,a\nq,d,x\n", "2: grade: 'x' is not a number"),
        ("query_id,doc_id,a\nq,d,1\nq,d,2\n", "3: doc_id: judgment (query, document, annotator)"),
        ("query_id,doc_id,a\n,d,1\n", "2: query_id: is empty"),
    ],
)
def test_wide_file_problems_name_line_and_field(
    write_file: WriteFile, text: str, problem: str
) -> None:
    path = write_file("wide.csv", text)
    with pytest.raises(InputFileError) as excinfo:
        read_judgments_csv(path)
    assert f"wide.csv:{problem}" in str(excinfo.value)


def test_a_long_file_missing_its_grade_column_is_not_taken_for_wide(
    write_file: WriteFile,
) -> None:
    with pytest.raises(InputFileError, match="grade: required column is missing"):
        read_judgments_csv(write_file("j.csv", "query_id,doc_id,annotator\nq1,d1,a\n"))
