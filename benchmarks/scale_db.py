"""The synthetic database at scale that ``bench_gui_scale.py`` and ``bench_annotation.py`` build.

Both build, with Core bulk inserts and a fixed seed: ``n`` queries, ``5 n`` documents, two runs
of 10 results per query that share 5 documents (each depth-10 pool has 15 documents), and
their own judgments (the builders keep that part: 3 noisy annotators for the GUI, one annotator
with 10 grades per query for annotation). The random draws stay in the builders' order, so a
seed gives the same rows as before this module existed.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

from sqlalchemy import Connection, func, insert, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import bulk_insert
from ndcg_studio.storage.database import Database, open_database

DOCS_PER_RUN = 10
SHARED = 5
DOCS_PER_QUERY = 5

#: ``judge(query, pool)``: called once per query after its results, with its 15 documents in
#: the order drawn (run a is ``pool[:10]``, run b ``pool[5:]``).
Judge = Callable[[int, list[int]], None]


def open_or_check(path: str | os.PathLike[str], n_queries: int) -> tuple[Database, bool]:
    """The database at ``path`` and whether it already holds the ``n_queries`` data set.

    Raises:
        SystemExit: the file holds another number of queries.
    """
    db = open_database(path)
    with db.transaction() as s:
        have = s.execute(select(func.count()).select_from(models.queries)).scalar_one()
    if have and have != n_queries:
        raise SystemExit(f"{path} holds another data set ({have} queries); remove it")
    return db, have == n_queries


def insert_catalogue(conn: Connection, n_queries: int) -> int:
    """Queries, documents and the runs ``run-a`` (id 1) and ``run-b`` (id 2); the number of
    documents."""
    n_docs = n_queries * DOCS_PER_QUERY
    bulk_insert(
        conn,
        models.queries,
        ["id", "external_id", "text"],
        ((i, f"Q{i}", f"query number {i} about topic {i % 977}") for i in range(1, n_queries + 1)),
    )
    bulk_insert(
        conn,
        models.documents,
        ["id", "external_id", "title", "text", "url"],
        (
            (i, f"D{i}", f"Title of document {i}", f"Body text of document {i}. " * 8, "")
            for i in range(1, n_docs + 1)
        ),
    )
    conn.execute(insert(models.runs), [{"id": 1, "name": "run-a"}, {"id": 2, "name": "run-b"}])
    return n_docs


def insert_results(conn: Connection, rnd: random.Random, n_queries: int, judge: Judge) -> None:
    """Both runs' results: per query, 15 documents drawn from ``rnd`` (run a the first 10, run
    b the last 10, scores ``100 - rank``), then ``judge(query, pool)``."""
    n_docs = n_queries * DOCS_PER_QUERY

    def results() -> Iterator[tuple[int, int, int, int, int, float]]:
        for q in range(1, n_queries + 1):
            docs = rnd.sample(range(1, n_docs + 1), 2 * DOCS_PER_RUN - SHARED)
            run_a = docs[:DOCS_PER_RUN]
            run_b = docs[DOCS_PER_RUN - SHARED :]
            for run_id, docs_of_run in ((1, run_a), (2, run_b)):
                for pos, d in enumerate(docs_of_run, start=1):
                    yield (q, run_id, d, pos, pos, float(100 - pos))
            judge(q, docs)

    bulk_insert(
        conn,
        models.results,
        ["query_id", "run_id", "document_id", "rank", "position", "score"],
        results(),
    )
