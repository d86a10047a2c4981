"""What one scoring reads: results, their counts, judgments and adjudications, as numpy
structured arrays of database ids (the service maps them to dense indices).

Dtypes (all ids int64):

- :data:`RESULT_DTYPE` ``run, query, doc, position, score`` — ``position`` holds the order
  column asked for (``results.position``: trec_eval's order; or the file's ``rank``), ``score``
  float64, 0 where it was not read;
- :data:`COUNT_DTYPE` ``run, query, n`` — the length of each whole list;
- :data:`JUDGMENT_DTYPE` ``query, doc, annotator, grade`` — grade float64 (-1 .. 4);
- :data:`ADJUDICATION_DTYPE` ``query, doc, grade``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, Select, func, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import fetch_array, fetch_columns

__all__ = [
    "ADJUDICATION_DTYPE",
    "COUNT_DTYPE",
    "JUDGMENT_DTYPE",
    "RESULT_DTYPE",
    "OrderColumn",
    "count_results",
    "rank_problem",
    "read_adjudications",
    "read_judgments",
    "read_results",
    "read_results_below",
    "single_annotator",
]

OrderColumn = Literal["position", "rank"]

RESULT_DTYPE = [
    ("run", "i8"),
    ("query", "i8"),
    ("doc", "i8"),
    ("position", "i8"),
    ("score", "f8"),
]
COUNT_DTYPE = [("run", "i8"), ("query", "i8"), ("n", "i8")]
JUDGMENT_DTYPE = [("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "f8")]
ADJUDICATION_DTYPE = [("query", "i8"), ("doc", "i8"), ("grade", "f8")]
_JUDGMENT_READ_DTYPE = [("query", "i8"), ("doc", "i8"), ("grade", "f8")]
_KEY_DTYPE = [("key", "i8"), ("doc", "i8")]
_PACKED_JUDGMENT_DTYPE = [("item", "i8"), ("who", "i8")]


def _order_column(order: OrderColumn) -> Any:
    r = models.results
    return r.c.position if order == "position" else r.c.rank


def rank_problem(conn: Connection, run_ids: Sequence[int]) -> tuple[str, str] | None:
    """(run name, reason) of the first run (by name) of ``run_ids`` (every run when empty)
    whose rank column cannot order it (``runs.rank_problem``, ``FILE:LINE: rank: ...`` as
    found on import); None when every such run can be ordered by rank."""
    runs = models.runs
    stmt = select(runs.c.name, runs.c.rank_problem).where(runs.c.rank_problem.is_not(None))
    if run_ids:
        stmt = stmt.where(runs.c.id.in_(list(run_ids)))
    row = conn.execute(stmt.order_by(runs.c.name).limit(1)).first()
    return None if row is None else (str(row[0]), str(row[1]))


def read_results(
    conn: Connection,
    run_ids: Sequence[int] | None,
    *,
    order: OrderColumn = "position",
    query_ids: Sequence[int] | None = None,
    top_k: int | None = None,
    with_scores: bool = True,
) -> dict[str, NDArray[Any]]:
    """Results as columns, in no particular order: ``{name: (n,) array}`` with the names and
    types of :data:`RESULT_DTYPE` (one contiguous array each, no structured array of the rows:
    the caller lets each go once used; ``bench_gui_scale.py`` Review).

    Args:
        run_ids: the runs to read; None for every run (no filter: SQLite then scans the
            clustered table in order, faster than an index lookup per result;
            ``bench_end_to_end.py``).
        order: the column read into ``position``.
        query_ids: only these queries (None: all).
        top_k: only results whose order column is <= top_k (None: whole lists).
        with_scores: read the run's scores; without them (``score`` 0, zeros left to the
            allocator: no memory until written) only integer columns are read, much faster
            (see :func:`~ndcg_studio.storage.bulk.columns.fetch_array`).
    """
    r = models.results
    col = _order_column(order)
    stmt = select(r.c.run_id, r.c.query_id, r.c.document_id, col)
    if with_scores:
        stmt = stmt.add_columns(r.c.score)
    if run_ids is not None:  # found through the (run, query, rank) index
        stmt = stmt.where(r.c.run_id.in_(list(run_ids)))
    if query_ids is not None:
        stmt = stmt.where(r.c.query_id.in_(list(query_ids)))
    if top_k is not None:
        stmt = stmt.where(col <= top_k)
    packed = None
    if top_k is not None and order == "position" and not with_scores:
        packed = _read_packed(conn, stmt, top_k)
    columns = packed or fetch_columns(conn, stmt, RESULT_DTYPE[: len(stmt.selected_columns)])
    if not with_scores:
        columns["score"] = np.zeros(len(columns["run"]))
    return columns


def _read_packed(conn: Connection, stmt: Select[Any], top_k: int) -> dict[str, NDArray[Any]] | None:
    """SQLite, the top K by position: each result read as one integer
    ``((query * n_run + run) * (K + 1) + position) * n_doc + document`` — one ``group_concat``
    text instead of four, less to step and parse (``bench_gui_scale.py`` Review) — and taken
    apart here; where that product would pass 2**62, (query, run, position) as one integer
    beside the document. None where neither applies (another database, negative ids, or ids
    too large); the results' ids lie within their tables' (foreign keys)."""
    if conn.dialect.name != "sqlite":
        return None
    r = models.results
    tops = _top_ids(conn, models.queries, models.runs, models.documents)
    if tops is None:
        return None
    top_q, top_r, top_d = tops
    n_run, n_pos, n_doc = top_r + 1, top_k + 1, top_d + 1
    if (top_q + 1) * n_run * n_pos >= 1 << 62:
        return None
    key = (r.c.query_id * n_run + r.c.run_id) * n_pos + r.c.position
    if (top_q + 1) * n_run * n_pos * n_doc < 1 << 62:
        packed = (key * n_doc + r.c.document_id).label("key")
        key_values = fetch_columns(conn, stmt.with_only_columns(packed), [("key", "i8")])["key"]
        doc = key_values % n_doc
        np.floor_divide(key_values, n_doc, out=key_values)
    else:
        read = fetch_columns(
            conn, stmt.with_only_columns(key.label("key"), r.c.document_id), _KEY_DTYPE
        )
        key_values, doc = read["key"], read["doc"]
    position = key_values % n_pos
    np.floor_divide(key_values, n_pos, out=key_values)
    run = key_values % n_run
    np.floor_divide(key_values, n_run, out=key_values)
    return {"run": run, "query": key_values, "doc": doc, "position": position}


def read_results_below(
    conn: Connection,
    run_ids: Sequence[int],
    query_ids: Sequence[int],
    k: int,
    *,
    order: OrderColumn = "position",
) -> NDArray[Any]:
    """Results (:data:`RESULT_DTYPE`, ``score`` 0) of the given runs and queries whose order
    column is > ``k``: the rest of lists first read down to K. Every (run, query) combination
    of the two lists is read; the caller keeps the pairs it needs."""
    r = models.results
    col = _order_column(order)
    stmt = select(r.c.run_id, r.c.query_id, r.c.document_id, col).where(
        r.c.run_id.in_(list(run_ids)), r.c.query_id.in_(list(query_ids)), col > k
    )
    return _fetch_results(conn, stmt)


def count_results(
    conn: Connection, run_ids: Sequence[int] | None, query_ids: Sequence[int] | None = None
) -> NDArray[Any]:
    """The length of each (run, query) list as :data:`COUNT_DTYPE` (filters as
    :func:`read_results`)."""
    r = models.results
    stmt = select(r.c.run_id, r.c.query_id, func.count()).group_by(r.c.run_id, r.c.query_id)
    if run_ids is not None:
        stmt = stmt.where(r.c.run_id.in_(list(run_ids)))
    if query_ids is not None:
        stmt = stmt.where(r.c.query_id.in_(list(query_ids)))
    return fetch_array(conn, stmt, COUNT_DTYPE)


def single_annotator(conn: Connection) -> int | None:
    """The id of the database's only annotator, None when there are none or several."""
    a = models.annotators
    only = conn.execute(select(func.min(a.c.id)).having(func.count() == 1)).scalar()
    return None if only is None else int(only)


def read_judgments(
    conn: Connection,
    *,
    query_ids: Sequence[int] | None = None,
    annotator: int | None = None,
) -> NDArray[Any]:
    """Judgments as :data:`JUDGMENT_DTYPE` (all annotators, or only ``annotator``'s: then the
    annotator column is not read but filled in)."""
    j = models.judgments
    stmt = select(j.c.query_id, j.c.document_id, j.c.grade)
    if annotator is None:
        stmt = stmt.add_columns(j.c.annotator_id)
    else:
        stmt = stmt.where(j.c.annotator_id == annotator)
    if query_ids is not None:
        stmt = stmt.where(j.c.query_id.in_(list(query_ids)))
    if annotator is None:
        packed = _read_judgments_packed(conn, stmt)
        if packed is not None:
            return packed
        return fetch_array(conn, stmt, [*_JUDGMENT_READ_DTYPE, ("annotator", "i8")])
    read = fetch_array(conn, stmt, _JUDGMENT_READ_DTYPE, into=JUDGMENT_DTYPE)
    read["annotator"] = annotator
    return read


#: a grade's place in :func:`_read_judgments_packed`'s second integer: any SMALLINT
_GRADE_SPAN, _GRADE_OFFSET = 1 << 16, 1 << 15


def _read_judgments_packed(conn: Connection, stmt: Select[Any]) -> NDArray[Any] | None:
    """SQLite, every annotator's judgments (``stmt``: query, document, grade, annotator and
    its filter): read as two integers per judgment, ``query * n_doc + document`` and
    ``annotator * 2**16 + grade + 2**15`` — two ``group_concat`` texts instead of four, less
    to step and parse on the Review first stage's critical path (``bench_gui_scale.py``) —
    and taken apart here, in the rows' order of the plain read. None where that does not
    apply (another database, negative ids, or ids too large for the products to stay below
    2**62); the judgments' ids lie within their tables' (foreign keys)."""
    if conn.dialect.name != "sqlite":
        return None
    j = models.judgments
    tops = _top_ids(conn, models.queries, models.documents, models.annotators)
    if tops is None:
        return None
    top_q, top_d, top_a = tops
    n_doc = top_d + 1
    if (top_q + 1) * n_doc >= 1 << 62 or (top_a + 1) * _GRADE_SPAN >= 1 << 62:
        return None
    item = (j.c.query_id * n_doc + j.c.document_id).label("item")
    who = (j.c.annotator_id * _GRADE_SPAN + j.c.grade + _GRADE_OFFSET).label("who")
    # the packed columns are NOT NULL integers: fetch_columns' integer texts, or rows of them
    read = fetch_columns(conn, stmt.with_only_columns(item, who), _PACKED_JUDGMENT_DTYPE)
    out = np.zeros(len(read["item"]), dtype=[*_JUDGMENT_READ_DTYPE, ("annotator", "i8")])
    # taken apart straight into the fields: no temporaries of the rows' length
    np.divmod(read.pop("item"), n_doc, out=(out["query"], out["doc"]))
    np.divmod(read.pop("who"), _GRADE_SPAN, out=(out["annotator"], out["grade"]))
    out["grade"] -= _GRADE_OFFSET
    return out


def _top_ids(conn: Connection, *tables: Any) -> list[int] | None:
    """The largest id of each of ``tables``, in one statement; None when one is empty or holds
    a negative id (the packed reads' bounds: every id in [0, top])."""
    # each bound its own subquery: SQLite finds a lone min() or max() of a key in the index
    bounds = [select(fn(t.c.id)).scalar_subquery() for t in tables for fn in (func.min, func.max)]
    row = conn.execute(select(*bounds)).one()
    lows, tops = row[0::2], row[1::2]
    if any(v is None for v in tops) or min(lows) < 0:
        return None
    return [int(v) for v in tops]


def read_adjudications(conn: Connection, *, query_ids: Sequence[int] | None = None) -> NDArray[Any]:
    """Adjudicated grades as :data:`ADJUDICATION_DTYPE` (only these queries, or all)."""
    a = models.adjudications
    stmt = select(a.c.query_id, a.c.document_id, a.c.grade)
    if query_ids is not None:
        stmt = stmt.where(a.c.query_id.in_(list(query_ids)))
    return fetch_array(conn, stmt, ADJUDICATION_DTYPE)


def _fetch_results(conn: Connection, stmt: Select[Any]) -> NDArray[Any]:
    """Rows of ``stmt`` (run, query, document, order column[, score]) as :data:`RESULT_DTYPE`;
    ``score`` is 0 where the statement does not select it."""
    return fetch_array(conn, stmt, RESULT_DTYPE[: len(stmt.selected_columns)], into=RESULT_DTYPE)
