"""PostgreSQL's binary COPY paths (storage/pg_copy.py) against the row-by-row paths they replace,
on the real test server: the same arrays, NULLs and out-of-range values falling back, refusals
still refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import pg_copy
from ndcg_studio.storage.bulk.columns import bulk_insert_columns, bulk_transaction, fetch_array
from ndcg_studio.storage.bulk.imports import insert_results
from ndcg_studio.storage.bulk.pg_copy import copy_any, copy_in_columns, copy_out_array
from ndcg_studio.storage.database import Database, open_database

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg(postgres_server: Any) -> Iterator[Database]:
    """One database for the module: each test works in a transaction it rolls back."""
    name = postgres_server.create_database()
    database = open_database(postgres_server.url(name))
    with database.engine.begin() as conn:
        conn.execute(text("INSERT INTO queries (id, external_id, text) VALUES (1, 'q1', '')"))
        conn.execute(text(
            "INSERT INTO documents (id, external_id, title, text, url) "
            "SELECT i, 'd' || i, '', '', '' FROM generate_series(1, 50) i"))  # fmt: skip
        conn.execute(text("INSERT INTO annotators (id, name) VALUES (1, 'a'), (2, 'b')"))
        conn.execute(text("INSERT INTO runs (id, name, description) VALUES (1, 'r', '')"))
    yield database
    database.dispose()
    postgres_server.drop_database(name)


def _row_by_row(conn: Any, statement: Any, dtype: Any) -> Any:
    return np.array([tuple(r) for r in conn.execute(statement)], dtype=dtype)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    grades=st.lists(st.integers(-1, 4), min_size=0, max_size=50),
    scores=st.lists(
        st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=50, max_size=50
    ),
)
def test_binary_round_trip_equals_the_row_reads(
    pg: Database, grades: list[int], scores: list[float]
) -> None:
    n = len(grades)
    docs = np.arange(1, n + 1)
    with pg.engine.connect() as conn, conn.begin() as transaction:
        cols = {
            "query_id": np.ones(n, np.int64),
            "document_id": docs,
            "grade": np.array(grades, np.int64),
        }
        assert bulk_insert_columns(conn, models.judgments, cols, constants={"annotator_id": 2}) == n
        result_cols = {"query": np.ones(50, np.int64), "doc": np.arange(1, 51)}
        result_cols |= {"rank": np.arange(50), "usable": np.ones(50, bool)}
        result_cols |= {"position": np.arange(1, 51), "score": np.array(scores)}
        assert insert_results(conn, 1, result_cols) == 50
        j, r = models.judgments, models.results
        statement = select(j.c.document_id, j.c.grade, j.c.annotator_id).order_by(j.c.document_id)
        dtype = [("doc", "i8"), ("grade", "f8"), ("annotator", "i8")]
        binary = copy_out_array(conn, statement, dtype)
        assert binary is not None
        assert binary.tolist() == _row_by_row(conn, statement, dtype).tolist()
        assert binary["grade"].tolist() == grades
        stmt = select(r.c.document_id, r.c.rank, r.c.score).where(r.c.document_id.in_([3, 7, 9]))
        got = np.sort(fetch_array(conn, stmt, [("doc", "i8"), ("rank", "i8"), ("score", "f8")]))
        assert got["score"].tolist() == [scores[2], scores[6], scores[8]]  # exact, no text form
        assert got["rank"].tolist() == [2, 6, 8]
        transaction.rollback()


def test_nulls_and_other_types_fall_back_to_the_row_read(pg: Database) -> None:
    with pg.engine.connect() as conn, conn.begin() as transaction:
        conn.execute(text(
            "INSERT INTO results (query_id, run_id, document_id, rank, position, score) "
            "VALUES (1, 1, 1, NULL, 1, 0.5), (1, 1, 2, 7, 2, 0.25)"))  # fmt: skip
        r = models.results
        stmt = select(r.c.document_id, r.c.rank).order_by(r.c.document_id)
        assert copy_out_array(conn, stmt, [("doc", "i8"), ("rank", "i8")]) is None  # a NULL
        with pytest.raises(TypeError):  # the row path refuses a NULL in an integer field
            fetch_array(conn, stmt, [("doc", "i8"), ("rank", "i8")])
        names = select(models.documents.c.id, models.documents.c.external_id).limit(2)
        assert copy_out_array(conn, names, [("id", "i8"), ("name", "O")]) is None
        assert (
            fetch_array(conn, names, [("id", "i8"), ("name", "O")]).tolist()[0][1].startswith("d")
        )
        empty = select(r.c.document_id).where(r.c.document_id < 0)
        assert copy_out_array(conn, empty, [("doc", "i8")]).tolist() == []  # type: ignore[union-attr]
        transaction.rollback()


def test_binary_copy_in_blocks_and_in_a_given_order(
    pg: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_copy, "_BINARY_ROWS", 3)  # 7 rows: blocks of 3, 3 and 1
    docs = np.arange(1, 11)
    order = np.array([9, 0, 4, 2, 7, 1, 5])
    cols = {"query_id": np.ones(10, np.int64), "document_id": docs, "grade": docs % 5}
    with pg.engine.connect() as conn, conn.begin() as transaction:
        assert copy_any(conn, models.judgments, cols, {"annotator_id": 2}, order=order) == 7
        j = models.judgments
        rows = conn.execute(
            select(j.c.document_id, j.c.grade, j.c.annotator_id).order_by(j.c.id)
        ).all()
        assert [tuple(r) for r in rows] == [(int(docs[i]), int(docs[i] % 5), 2) for i in order]
        transaction.rollback()


def test_values_beyond_a_column_type_are_left_to_the_server(pg: Database) -> None:
    with pg.engine.connect() as conn, conn.begin() as transaction:
        big = {c: np.array([1]) for c in ("query_id", "document_id", "annotator_id")}
        big["grade"] = np.array([2**20])
        assert copy_in_columns(conn, models.judgments, big) is None  # smallint: not written
        with pytest.raises(Exception, match="smallint"):  # the text COPY: the server's words
            bulk_insert_columns(conn, models.judgments, big)
        transaction.rollback()


def test_a_refused_row_rolls_the_binary_copy_back(pg: Database) -> None:
    cols = {"query_id": np.array([1, 1]), "document_id": np.array([1, 999]),
            "annotator_id": np.array([1, 1]), "grade": np.array([1, 2])}  # fmt: skip
    with pytest.raises(IntegrityError, match="foreign key"), bulk_transaction(pg.engine) as conn:
        bulk_insert_columns(conn, models.judgments, cols)
    with pg.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM judgments")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM judgment_history")).scalar() == 0


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(st.text(max_size=12), max_size=40, unique=True),
    url=st.sampled_from(["", "it's", "a\\b", "tab\there"]),
)
def test_keyed_texts_store_what_the_row_by_row_copy_stores(
    pg: Database, names: list[str], url: str
) -> None:
    """copy_keyed_texts (text made in bulk) stores exactly what copy_rows (a tuple per row)
    stores; where a value or a constant needs the text format's escapes it writes nothing and
    says so (None)."""
    from ndcg_studio.storage.bulk.pg_copy import _ESCAPED, copy_keyed_texts, copy_rows

    d = models.documents
    ids = np.arange(1_000, 1_000 + len(names), dtype=np.int64)
    fixed = {"title": "", "text": "t", "url": url}
    wanted = select(d.c.id, d.c.external_id, d.c.title, d.c.text, d.c.url).where(d.c.id >= 1_000)
    escaped = any(c in "".join([*names, url]) for c in _ESCAPED)
    with pg.engine.connect() as conn:
        with conn.begin():
            n = copy_keyed_texts(conn, d, ids, "external_id", names, fixed)
            got = conn.execute(wanted.order_by(d.c.id)).all()
            conn.rollback()
        if escaped:
            assert n is None and got == []
            names = [v.replace("\x00", "") for v in names]  # no text value holds NUL
            if len(set(names)) < len(ids):
                return
        else:
            assert n == len(names)
        with conn.begin():
            rows = zip(ids.tolist(), names, strict=True)
            copy_rows(conn, d, ("id", "external_id"), rows, fixed)
            expected = conn.execute(wanted.order_by(d.c.id)).all()
            conn.rollback()
    assert [tuple(r) for r in expected] == [
        (i, v, "", "t", url) for i, v in zip(ids.tolist(), names, strict=True)
    ]
    if not escaped:
        assert got == expected


def test_an_unordered_read_comes_as_arrays_equal_to_the_row_reads(pg: Database) -> None:
    """Without ORDER BY the rows come as one row of ``array_agg`` arrays (one COPY message,
    not one per row): the same rows as the row-by-row read, columns aligned; a NULL falls
    back to the rows."""
    from ndcg_studio.storage.bulk import pg_copy

    sqls: list[str] = []
    real = pg_copy._copy_out
    monkey = pytest.MonkeyPatch()
    monkey.setattr(pg_copy, "_copy_out", lambda c, sql, p: sqls.append(sql) or real(c, sql, p))
    rng = np.random.default_rng(7)
    try:
        with pg.engine.connect() as conn, conn.begin() as transaction:
            grades = rng.integers(-1, 5, 50)
            cols = {"query_id": np.ones(50, np.int64), "document_id": np.arange(1, 51)}
            bulk_insert_columns(
                conn, models.judgments, {**cols, "grade": grades}, constants={"annotator_id": 1}
            )
            j = models.judgments
            stmt = select(j.c.document_id, j.c.grade, j.c.annotator_id, j.c.query_id)
            dtype = [("doc", "i8"), ("grade", "f8"), ("annotator", "i8"), ("query", "i8")]
            got = copy_out_array(conn, stmt, dtype)
            assert got is not None and "array_agg" in sqls[-1]
            assert sorted(got.tolist()) == sorted(_row_by_row(conn, stmt, dtype).tolist())
            assert dict(zip(got["doc"].tolist(), got["grade"].tolist(), strict=True)) == dict(
                zip(range(1, 51), grades.astype(float).tolist(), strict=True)
            )
            conn.execute(text(
                "INSERT INTO results (query_id, run_id, document_id, rank, position, score) "
                "VALUES (1, 1, 1, NULL, 1, 0.5), (1, 1, 2, 7, 2, 0.25)"))  # fmt: skip
            r = models.results
            nulls = select(r.c.document_id, r.c.rank)
            assert copy_out_array(conn, nulls, [("doc", "i8"), ("rank", "i8")]) is None
            transaction.rollback()
    finally:
        monkey.undo()


def test_arrays_beyond_one_server_value_fall_back_to_the_rows(pg: Database) -> None:
    """Arrays that do not fit in one of the server's values (1 GB) make it refuse the
    statement (54000): the read rolls back to its savepoint and comes row by row, the
    transaction still usable. Forced here by a value over the limit in place of the arrays."""
    from ndcg_studio.storage.bulk import pg_copy

    real = pg_copy._copy_out

    def too_large(conn: Any, sql: str, params: Any) -> bytearray:
        if "array_agg" in sql:
            sql = "COPY (SELECT repeat('x', 1073741824)) TO STDOUT"
        return real(conn, sql, params)

    monkey = pytest.MonkeyPatch()
    monkey.setattr(pg_copy, "_copy_out", too_large)
    try:
        with pg.engine.connect() as conn, conn.begin() as transaction:
            d = models.documents
            stmt = select(d.c.id).where(d.c.id <= 5)
            got = copy_out_array(conn, stmt, [("id", "i8")])
            assert got is not None and sorted(got["id"].tolist()) == [1, 2, 3, 4, 5]
            assert conn.execute(select(d.c.id).where(d.c.id == 3)).scalar_one() == 3
            transaction.rollback()
    finally:
        monkey.undo()
