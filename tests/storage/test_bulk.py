"""Bulk paths: columns in and numpy out, identical on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import bulk_insert, fetch_array, id_map, map_external_ids


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
    from ndcg_studio.storage.bulk import column_by_id

    with db.engine.begin() as conn:
        ids, _ = map_external_ids(conn, models.queries, [f"q{i}" for i in range(n + 5)],
                                  defaults={"text": ""})  # fmt: skip
        wanted = [int(i) for i in ids[2 : 2 + n]] + [10**9]  # plus an unknown id
        got = column_by_id(conn, models.queries, wanted, "external_id")
    assert got == {int(i): f"q{k + 2}" for k, i in enumerate(ids[2 : 2 + n])}
