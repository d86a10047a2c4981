"""Bulk paths: columns in and numpy out, identical on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import (
    _fetch_integer_columns,
    bulk_insert,
    bulk_transaction,
    fetch_array,
    id_map,
)
from ndcg_studio.storage.bulk.external_ids import _assign_new_rowids, map_external_ids


def test_map_external_ids_creates_missing_in_order(db: Any) -> None:
    with db.engine.begin() as conn:
        ids, created = map_external_ids(conn, models.queries, ["q2", "q1"], defaults={"text": ""})
        assert created == 2
        again, created2 = map_external_ids(
            conn, models.queries, ["q1", "q3", "q2"], defaults={"text": ""}
        )
        assert created2 == 1
        assert again[0] == ids[1] and again[2] == ids[0]
        names = id_map(conn, models.queries)
        assert [names[int(i)] for i in again] == ["q1", "q3", "q2"]
        missing, _ = map_external_ids(conn, models.queries, ["q1", "nope"], create=False)
        assert missing[0] == ids[1] and missing[1] == -1


def test_bulk_insert_and_fetch_array_round_trip(db: Any) -> None:
    with db.engine.begin() as conn:
        (qid,), _ = map_external_ids(conn, models.queries, ["q"], defaults={"text": ""})
        dids, _ = map_external_ids(
            conn,
            models.documents,
            [f"d{i}" for i in range(5)],
            defaults={"title": "", "text": "", "url": ""},
        )
        conn.execute(models.runs.insert().values(id=1, name="r", description=""))
        rows = [(1, int(qid), int(d), i + 1, i + 1, 1.5 - i) for i, d in enumerate(dids)]
        assert (
            bulk_insert(
                conn,
                models.results,
                ("run_id", "query_id", "document_id", "rank", "position", "score"),
                rows,
            )
            == 5
        )
        got = fetch_array(
            conn,
            select(models.results.c.document_id, models.results.c.score).order_by(
                models.results.c.rank
            ),
            [("doc", "i8"), ("score", "f8")],
        )
    assert got["doc"].tolist() == dids.tolist()
    np.testing.assert_allclose(got["score"], [1.5, 0.5, -0.5, -1.5, -2.5])


def test_bulk_insert_violation_rolls_back(db: Any) -> None:
    with pytest.raises(IntegrityError), db.engine.begin() as conn:
        bulk_insert(
            conn, models.queries, ("id", "external_id", "text"), [(1, "a", ""), (2, "a", "")]
        )
    with db.engine.connect() as conn:
        assert conn.execute(select(models.queries.c.id)).all() == []


@pytest.mark.parametrize("n", [3, 2_500])
def test_column_by_id_few_and_many(db: Any, n: int) -> None:
    from ndcg_studio.storage.bulk.columns import column_by_id

    with db.engine.begin() as conn:
        ids, _ = map_external_ids(conn, models.queries, [f"q{i}" for i in range(n + 5)],
                                  defaults={"text": ""})  # fmt: skip
        wanted = [int(i) for i in ids[2 : 2 + n]] + [10**9]  # plus an unknown id
        got = column_by_id(conn, models.queries, wanted, "external_id")
    assert got == {int(i): f"q{k + 2}" for k, i in enumerate(ids[2 : 2 + n])}


def _three_queries_with_judgments(conn: Any, n_docs: int = 2) -> None:
    qids, _ = map_external_ids(conn, models.queries, ["a", "b", "c"], defaults={"text": ""})
    dids, _ = map_external_ids(
        conn,
        models.documents,
        [f"d{i}" for i in range(n_docs)],
        defaults={"title": "", "text": "", "url": ""},
    )
    (aid,), _ = map_external_ids(conn, models.annotators, ["x"], key="name")
    bulk_insert(
        conn,
        models.judgments,
        ("query_id", "document_id", "annotator_id", "grade", "note"),
        [
            (int(q), int(d), int(aid), (i * 3 + k) % 5, None)
            for i, q in enumerate(qids)
            for k, d in enumerate(dids)
        ],
    )


_JDTYPE = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]


def test_fetch_array_integer_columns_equal_the_row_by_row_read(db: Any) -> None:
    """The SQLite group_concat path (integer columns, no ORDER BY) gives the rows the driver
    gives, aligned column by column; an empty result is an empty array."""
    j = models.judgments
    with db.engine.begin() as conn:
        _three_queries_with_judgments(conn)
        stmt = select(j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade)
        got = fetch_array(conn, stmt, _JDTYPE)
        rows = sorted(tuple(r) for r in conn.execute(stmt))
        empty = fetch_array(conn, stmt.where(j.c.grade > 10), _JDTYPE)
        if conn.dialect.name == "sqlite":  # the fast path really ran
            assert _fetch_integer_columns(conn, stmt, np.dtype(_JDTYPE)) is not None
    assert sorted(tuple(r) for r in got.tolist()) == rows and len(rows) == 6
    assert got["grade"].dtype == np.float64
    assert len(empty) == 0 and empty.dtype == np.dtype(_JDTYPE)


def test_fetch_array_falls_back_for_nulls_order_and_huge_texts(db: Any) -> None:
    """NULLs (which group_concat would skip, misaligning columns), ORDER BY (which an aggregate
    need not keep) and a text over SQLite's length limit are read row by row, correctly."""
    import sqlite3

    j, h = models.judgments, models.judgment_history
    with db.engine.begin() as conn:
        _three_queries_with_judgments(conn, n_docs=200)
        conn.execute(h.delete())  # the trigger's rows of those judgments
        conn.execute(
            h.insert(),
            [
                {"kind": "judgment", "query_id": 1, "document_id": 1, "annotator_id": 1,
                 "old_grade": None, "new_grade": 2},
                {"kind": "judgment", "query_id": 1, "document_id": 1, "annotator_id": 1,
                 "old_grade": 2, "new_grade": 3},
            ],
        )  # fmt: skip
        with_null = fetch_array(
            conn, select(h.c.new_grade, h.c.old_grade), [("new", "f8"), ("old", "f8")]
        )
        assert sorted(with_null["new"].tolist()) == [2.0, 3.0]
        assert np.isnan(with_null["old"]).sum() == 1 and np.nanmax(with_null["old"]) == 2.0
        ordered = fetch_array(
            conn,
            select(j.c.grade, j.c.query_id).order_by(j.c.grade.desc(), j.c.query_id),
            [("grade", "i8"), ("query", "i8")],
        )
        assert ordered["grade"].tolist() == sorted(ordered["grade"].tolist(), reverse=True)
        if conn.dialect.name == "sqlite":
            raw = conn.connection.driver_connection
            # 600 rows give ~1,200 characters per column; statements are shorter than 1,000
            old = raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1_000)
            try:
                big = fetch_array(conn, select(j.c.query_id, j.c.grade), [("q", "i8"), ("g", "i8")])
            finally:
                raw.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, old)
            assert len(big) == 600 and sorted(set(big["q"].tolist())) == [1, 2, 3]


def test_bulk_transaction_commits_and_restores_foreign_keys(db: Any, tmp_path: Any) -> None:
    """SQLite: inside, foreign keys are off and the write lock is held from the start; after
    the transaction (committed or rolled back) the pooled connection enforces them again."""
    import sqlite3

    def fk_on(conn: Any) -> bool:
        return bool(conn.exec_driver_sql("PRAGMA foreign_keys").scalar())

    with bulk_transaction(db.engine) as conn:
        map_external_ids(conn, models.queries, ["kept"], defaults={"text": ""})
        if db.is_sqlite:
            assert not fk_on(conn)
            other = sqlite3.connect(db.url.database, timeout=0.05)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("INSERT INTO annotators (name) VALUES ('intruder')")
            other.close()
    with pytest.raises(RuntimeError), bulk_transaction(db.engine) as conn:
        map_external_ids(conn, models.queries, ["dropped"], defaults={"text": ""})
        raise RuntimeError("boom")
    with db.engine.connect() as conn:
        assert set(id_map(conn, models.queries).values()) == {"kept"}
        if db.is_sqlite:
            assert fk_on(conn)
            with pytest.raises(IntegrityError):
                conn.execute(models.judgments.insert().values(
                    query_id=1, document_id=999, annotator_id=999, grade=1))  # fmt: skip


def test_map_external_ids_new_rowids_equal_a_lookup(db: Any) -> None:
    """The ids given to newly created rows without a lookup (SQLite) are the stored ones, also
    when some ids existed already and the new ones come between them in the list."""
    with bulk_transaction(db.engine) as conn:
        _, created = map_external_ids(
            conn, models.documents, [f"d{i}" for i in range(0, 300, 3)], defaults=_DOC
        )
        assert created == 100
        mixed = [f"d{i}" for i in range(300)][::-1]
        ids, created = map_external_ids(conn, models.documents, mixed, defaults=_DOC)
        assert created == 200
        stored = {v: k for k, v in id_map(conn, models.documents).items()}
    assert ids.tolist() == [stored[e] for e in mixed]
    assert len(set(ids.tolist())) == 300


_DOC = {"title": "", "text": "", "url": ""}


def test_new_rowids_are_looked_up_when_the_counts_do_not_add_up(db: Any) -> None:
    """Another writer's rows (the largest id grew by more than we created) or fewer rows created
    than missing: no arithmetic, the caller looks the ids up."""
    if not db.is_sqlite:
        pytest.skip("rowid arithmetic is SQLite only")
    d = models.documents
    with bulk_transaction(db.engine) as conn:
        ids, _ = map_external_ids(conn, d, ["a", "b", "c"], defaults=_DOC)
        missing = np.arange(3)
        blank = np.full(3, -1, dtype=np.int64)
        top = int(ids.max())
        assert _assign_new_rowids(
            conn, d, d.c.external_id, ["a", "b", "c"], blank, missing, top - 3, 3
        )
        assert blank.tolist() == ids.tolist()
        other = np.full(3, -1, dtype=np.int64)
        assert not _assign_new_rowids(
            conn, d, d.c.external_id, ["a", "b", "c"], other, missing, top - 4, 3
        )
        assert not _assign_new_rowids(
            conn, d, d.c.external_id, ["a", "b", "c"], other, missing, top - 3, 2
        )
        # a sample that does not match (ids in another order) is caught
        assert not _assign_new_rowids(
            conn, d, d.c.external_id, ["c", "b", "a"], other, missing, top - 3, 3
        )
        assert (other == -1).all()


def test_staged_bulk_insert_writes_all_rows_or_none(db: Any) -> None:
    """Enough rows for SQLite's staging table: every row arrives with its constants; a
    duplicate among them raises IntegrityError and the transaction leaves nothing behind; the
    staging table does not outlive the call."""
    q = models.queries
    rows = [(f"q{i:05d}", f"text {i}") for i in range(12_345)]
    with db.engine.begin() as conn:
        n = bulk_insert(conn, q, ["external_id", "text"], rows, constants={"narrative": "n"})
        got = conn.execute(select(q.c.external_id, q.c.text, q.c.narrative)).all()
    assert n == len(rows) == len(got)
    assert sorted((e, t) for e, t, _ in got) == rows and {r[2] for r in got} == {"n"}
    with pytest.raises(IntegrityError), db.engine.begin() as conn:
        bulk_insert(conn, q, ["external_id", "text"], [(f"new{i}", "") for i in range(9_000)]
                    + [("new5", "")])  # fmt: skip
    with db.engine.begin() as conn:
        assert conn.execute(select(func.count()).select_from(q)).scalar() == len(rows)
        assert bulk_insert(conn, q, ["external_id", "text"], [(f"z{i}", "") for i in range(6_000)])
        assert bulk_insert(conn, q, ["external_id", "text"], []) == 0


@pytest.mark.parametrize("huge_grade_ids", [False, True])
def test_packed_columns_arrive_as_given(db: Any, huge_grade_ids: bool) -> None:
    """bulk_insert_columns stores exactly the given integers (packed into one JSON array on
    SQLite; with values too wide to pack together it falls back to row binding), in order."""
    from ndcg_studio.storage.bulk.columns import bulk_insert_columns

    if huge_grade_ids and not db.is_sqlite:
        pytest.skip("PostgreSQL always copies rows (and its INTEGER ids are 32-bit)")
    with bulk_transaction(db.engine) as conn:
        qids, _ = map_external_ids(conn, models.queries, [f"q{i}" for i in range(70)],
                                   defaults={"text": ""})  # fmt: skip
        dids, _ = map_external_ids(conn, models.documents, [f"d{i}" for i in range(100)],
                                   defaults=_DOC)  # fmt: skip
        names = ["a", "b"] if not huge_grade_ids else ["a", "b", "c"]
        aids, _ = map_external_ids(conn, models.annotators, names, key="name")
        rng = np.random.default_rng(1)
        pairs = rng.permutation(70 * 100)[:6_000]
        q, d = qids[pairs // 100], dids[pairs % 100]
        a = aids[rng.integers(0, len(aids), len(q))]
        g = rng.integers(-1, 5, len(q))  # -1: judged non-relevant, packed from the minimum
        if huge_grade_ids:  # the widths no longer fit in 63 bits: row binding instead
            conn.execute(
                models.annotators.update()
                .where(models.annotators.c.id == int(aids[-1]))
                .values(id=2**40)
            )
            a = np.where(a == aids[-1], 2**40, a)
        n = bulk_insert_columns(
            conn,
            models.judgments,
            {"query_id": q, "document_id": d, "annotator_id": a, "grade": g},
            constants={"note": "n"},
        )
        j = models.judgments
        got = conn.execute(
            select(j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade, j.c.note).order_by(
                j.c.id
            )
        ).all()
    assert n == len(q)
    assert [tuple(r) for r in got] == list(
        zip(q.tolist(), d.tolist(), a.tolist(), g.tolist(), ["n"] * len(q), strict=True)
    )


def test_packed_columns_refuse_bad_input(db: Any) -> None:
    from ndcg_studio.storage.bulk.columns import bulk_insert_columns

    with db.engine.begin() as conn, pytest.raises(ValueError, match="lengths"):
        bulk_insert_columns(conn, models.judgments, {"grade": np.zeros(2), "query_id": np.zeros(3)})


def test_insert_distinct_numbers_first_appearances(db: Any) -> None:
    """insert_distinct skips repeats and known values; ids_of_inserted gives the new rows' ids
    in order of first appearance — by arithmetic when it holds, else by lookup (a known value
    among them: the counts no longer add up)."""
    from ndcg_studio.storage.bulk.external_ids import ids_of_inserted, insert_distinct

    if not db.is_sqlite:
        pytest.skip("SQLite's first-import path")
    d = models.documents
    with bulk_transaction(db.engine) as conn:
        values = ["b", "a", "b", "c", "a"]
        created = insert_distinct(conn, d, values, defaults={**_DOC, "url": "it's"})
        assert created == 3
        assert ids_of_inserted(conn, d, ["b", "a", "c"], 0, created).tolist() == [1, 2, 3]
        created = insert_distinct(conn, d, ("x", "a", "y"), defaults=_DOC)
        assert created == 2
        # "a" was there already: the arithmetic does not apply, the ids are looked up
        assert ids_of_inserted(conn, d, ["x", "a", "y"], 3, created).tolist() == [4, 2, 5]
        urls = conn.execute(select(d.c.url).order_by(d.c.id)).scalars().all()
        assert urls == ["it's"] * 3 + [""] * 2
        names = id_map(conn, d)
    assert names == {1: "b", 2: "a", 3: "c", 4: "x", 5: "y"}


def test_first_fill_of_an_empty_table_with_a_repeated_id_looks_ids_up(db: Any) -> None:
    """map_external_ids into an empty SQLite table writes ids 1..n; a repeated id (which the
    caller should not pass) skips a row, and the ids are then looked up, still right."""
    if not db.is_sqlite:
        pytest.skip("the empty-table path is SQLite's")
    d = models.documents
    with bulk_transaction(db.engine) as conn:
        ids, created = map_external_ids(conn, d, ["p", "q", "p", "r"], defaults=_DOC)
        names = id_map(conn, d)
    assert created == 3
    assert [names[int(i)] for i in ids] == ["p", "q", "p", "r"]


def test_results_go_straight_in_and_a_duplicate_rolls_back(db: Any) -> None:
    """A table without secondary indexes (results) is filled by executemany from the
    iterator itself: the count is right, and a duplicate key raises IntegrityError with
    nothing left behind."""
    r = models.results
    columns = ("query_id", "document_id", "rank", "position", "score")
    with bulk_transaction(db.engine) as conn:
        (qid,), _ = map_external_ids(conn, models.queries, ["q"], defaults={"text": ""})
        dids, _ = map_external_ids(conn, models.documents, [f"d{i}" for i in range(7_000)],
                                   defaults=_DOC)  # fmt: skip
        conn.execute(models.runs.insert().values(id=1, name="r", description=""))
        rows = ((int(qid), int(d), i + 1, i + 1, -float(i)) for i, d in enumerate(dids))
        assert bulk_insert(conn, r, columns, rows, constants={"run_id": 1}) == 7_000
        assert conn.execute(select(func.sum(r.c.rank))).scalar() == 7_000 * 7_001 // 2
    with pytest.raises(IntegrityError), bulk_transaction(db.engine) as conn:
        conn.execute(models.runs.insert().values(id=2, name="s", description=""))
        bulk_insert(conn, r, columns, [(int(qid), int(dids[0]), 1, 1, 0.0)] * 2,
                    constants={"run_id": 2})  # fmt: skip
    with db.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(r)).scalar() == 7_000
        assert conn.execute(select(func.count()).select_from(models.runs)).scalar() == 1


def test_packed_rows_get_ids_in_their_order_after_existing_rows(db: Any) -> None:
    """bulk_insert_columns writes the new ids itself (following the largest id, in the order
    given), so a second batch continues the first."""
    from ndcg_studio.storage.bulk.columns import bulk_insert_columns

    j = models.judgments
    with bulk_transaction(db.engine) as conn:
        qids, _ = map_external_ids(conn, models.queries, ["q"], defaults={"text": ""})
        dids, _ = map_external_ids(conn, models.documents, [f"d{i}" for i in range(12_000)],
                                   defaults=_DOC)  # fmt: skip
        (aid,), _ = map_external_ids(conn, models.annotators, ["a"], key="name")
        for half in (dids[:6_000], dids[6_000:][::-1]):
            bulk_insert_columns(
                conn,
                j,
                {
                    "query_id": np.full(len(half), qids[0]),
                    "document_id": half,
                    "annotator_id": np.full(len(half), aid),
                    "grade": half % 5,
                },
            )
        got = conn.execute(select(j.c.document_id).order_by(j.c.id)).scalars().all()
    assert got == [*dids[:6_000].tolist(), *dids[6_000:][::-1].tolist()]


def test_ids_with_a_nul_character_are_refused_not_cut(db: Any) -> None:
    """SQLite's JSON functions end a string at \\u0000: the json_each paths refuse such ids
    instead of storing 'a' for 'a\\x00b'. A literal backslash-u0000 is an ordinary id."""
    from ndcg_studio.storage.bulk.external_ids import insert_distinct

    with bulk_transaction(db.engine) as conn:
        ids, _ = map_external_ids(conn, models.documents, ["x\\u0000y", "z"], defaults=_DOC)
        assert id_map(conn, models.documents)[int(ids[0])] == "x\\u0000y"
        if db.is_sqlite:
            with pytest.raises(ValueError, match="NUL"):
                map_external_ids(conn, models.documents, ["a\x00b"], defaults=_DOC)
            with pytest.raises(ValueError, match="NUL"):
                map_external_ids(conn, models.documents, ["a\x00b"], create=False)
            with pytest.raises(ValueError, match="NUL"):
                insert_distinct(conn, models.documents, ["a\x00b"], defaults=_DOC)


def test_upsert_creates_new_rows_updates_known_ones_and_counts_them(db: Any) -> None:
    """upsert: new keys become rows, known keys get the new values (None included), the count
    is of the created rows only; bad input is refused before anything is written."""
    from ndcg_studio.storage.bulk.external_ids import upsert

    q = models.queries
    with bulk_transaction(db.engine) as conn:
        first = {"external_id": ["a", "b"], "text": ["t-a", "t-b"], "narrative": ["n", None]}
        assert upsert(conn, q, "external_id", first) == 2
        again = {"external_id": ["b", "c", "a"], "text": ["B", "C", "A"], "narrative": [None] * 3}
        assert upsert(conn, q, "external_id", again) == 1
        rows = conn.execute(select(q.c.external_id, q.c.text, q.c.narrative)).all()
        assert upsert(conn, q, "external_id", {"external_id": [], "text": []}) == 0
        with pytest.raises(ValueError, match="lengths"):
            upsert(conn, q, "external_id", {"external_id": ["x"], "text": []})
        with pytest.raises(ValueError, match="key column"):
            upsert(conn, q, "external_id", {"text": ["x"]})
    assert sorted(tuple(r) for r in rows) == [("a", "A", None), ("b", "B", None), ("c", "C", None)]


def test_an_import_creates_absent_documents_with_ids_from_the_sequence(db: Any) -> None:
    """PostgreSQL inside an import (its lock held): create_absent writes the rows with ids drawn
    from the table's sequence, ascending in the order given — the numbering the race-safe path
    gives; the next default id follows them; a stored value is refused, nothing written; and
    without the import's lock it does nothing (None)."""
    from ndcg_studio.storage.bulk.external_ids import create_absent
    from ndcg_studio.storage.bulk.imports import RowRefused, document_ids, import_transaction

    if db.is_sqlite:
        pytest.skip("PostgreSQL's import path")
    d = models.documents
    with db.engine.begin() as conn:
        assert create_absent(conn, d, ["x"], defaults=_DOC) is None  # no import lock
        map_external_ids(conn, d, ["old"], defaults=_DOC)
    with import_transaction(db.engine) as conn:
        ids = create_absent(conn, d, ["b", "a", "c"], defaults={**_DOC, "url": "it's"})
        assert ids is not None and ids.dtype == np.int64
        assert ids.tolist() == [2, 3, 4]
        (later,), created = map_external_ids(conn, d, ["z"], defaults=_DOC)
        assert (later, created) == (5, 1)
        # document_ids: a piece with known, repeated and new ids, new ones in first appearance
        got, created = document_ids(conn, ["e", "a", "old", "f", "e"])
        assert (got.tolist(), created) == ([6, 3, 1, 7, 6], 2)
        urls = dict(conn.execute(select(d.c.external_id, d.c.url)).all())
        names = id_map(conn, d)
    assert names == {1: "old", 2: "b", 3: "a", 4: "c", 5: "z", 6: "e", 7: "f"}
    assert urls["b"] == "it's" and urls["e"] == ""
    with (
        pytest.raises(RowRefused, match="uq_documents_external_id"),
        import_transaction(db.engine) as conn,
    ):
        create_absent(conn, d, ["new", "a"], defaults=_DOC)
    with db.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(d)).scalar() == 7


def test_drawing_ids_from_a_sequence_gives_what_nextval_gives(db: Any) -> None:
    """PostgreSQL: _draw takes n values at once (setval) where the sequence counts by one, else
    calls nextval n times (here: a sequence counting by 2); either way the values are new and
    the sequence goes on after them."""
    from sqlalchemy import text

    from ndcg_studio.storage.bulk.external_ids import _draw

    if db.is_sqlite:
        pytest.skip("PostgreSQL's sequences")
    seq = "documents_id_seq"
    with db.engine.begin() as conn:
        assert _draw(conn, seq, 0).tolist() == []  # nothing drawn (setval to 0 would fail)
        assert _draw(conn, seq, 3).tolist() == [1, 2, 3]
        assert conn.execute(text(f"SELECT nextval('{seq}')")).scalar() == 4
        conn.execute(text(f"ALTER SEQUENCE {seq} INCREMENT BY 2"))
        assert _draw(conn, seq, 3).tolist() == [6, 8, 10]
        assert conn.execute(text(f"SELECT nextval('{seq}')")).scalar() == 12
        assert _draw(conn, seq, 0).tolist() == []
