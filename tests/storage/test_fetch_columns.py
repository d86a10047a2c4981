"""fetch_columns (one array per column) and fetch_array(into=): the rows fetch_array reads."""

from __future__ import annotations

from typing import Any

import numpy as np
from sqlalchemy import select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import fetch_array, fetch_columns
from tests.storage.test_bulk import _three_queries_with_judgments

_DTYPE = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]


def _sorted_rows(columns: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted(zip(*(columns[name].tolist() for name, _ in _DTYPE), strict=True))


def test_fetch_columns_are_fetch_arrays_columns(db: Any) -> None:
    """Integer columns (SQLite's group_concat path) and a REAL column (row by row): the same
    rows, aligned, each column contiguous and of its dtype; an empty read has every column."""
    j = models.judgments
    with db.engine.begin() as conn:
        _three_queries_with_judgments(conn)
        ints = select(j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade)
        floats = select(j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade * 1.5)
        for stmt in (ints, floats):
            got = fetch_columns(conn, stmt, _DTYPE)
            want = fetch_array(conn, stmt, _DTYPE)
            assert list(got) == [name for name, _ in _DTYPE]
            assert _sorted_rows(got) == sorted(want.tolist()) and len(want) == 6
            for name, dtype in _DTYPE:
                assert got[name].dtype == np.dtype(dtype) and got[name].flags.c_contiguous
        empty = fetch_columns(conn, ints.where(j.c.grade > 10), _DTYPE)
        assert [len(v) for v in empty.values()] == [0, 0, 0, 0]


def test_fetch_columns_with_nulls_reads_row_by_row(db: Any) -> None:
    h = models.judgment_history
    with db.engine.begin() as conn:
        _three_queries_with_judgments(conn)
        conn.execute(h.update().values(old_grade=None))
        conn.execute(h.update().where(h.c.id == 1).values(old_grade=3))
        got = fetch_columns(conn, select(h.c.id, h.c.old_grade), [("id", "i8"), ("old", "f8")])
    assert len(got["id"]) == len(got["old"]) >= 6
    assert np.isnan(got["old"]).sum() == len(got["old"]) - 1 and np.nanmax(got["old"]) == 3.0


def test_fetch_array_into_a_wider_dtype_fills_the_others_with_zeros(db: Any) -> None:
    j = models.judgments
    wide = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]
    with db.engine.begin() as conn:
        _three_queries_with_judgments(conn)
        for stmt, dtype in (
            (select(j.c.query_id, j.c.grade), [("query", "i8"), ("grade", "i8")]),  # SQLite fast
            (select(j.c.query_id, j.c.grade * 1.0), [("query", "i8"), ("grade", "f8")]),  # rows
        ):
            narrow = fetch_array(conn, stmt, dtype)
            got = fetch_array(conn, stmt, dtype, into=wide)
            assert got.dtype == np.dtype(wide)
            assert sorted(zip(got["query"].tolist(), got["grade"].tolist(), strict=True)) == sorted(
                narrow.tolist()
            )
            assert not got["doc"].any() and not got["annotator"].any()
