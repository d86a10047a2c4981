"""Many judgments at once: an import's writes, set-wise, inside the import's transaction.

:func:`plan_judgments` compares the file's judgments (database ids) with the stored ones;
:func:`apply_judgments` inserts the new ones in bulk and updates the changed ones. The database's
triggers record each of them in the history by the same rule as the app's writes (see
:mod:`ndcg_studio.storage.judgments`); unchanged ones are not written, so they record nothing.
Like a campaign grade given in the app (:mod:`~ndcg_studio.storage.judgments.items`), an
imported judgment ends its annotator's campaign holds on the item (in every campaign): the hold
would otherwise count toward the item's load beside the grade it stood for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import bindparam, delete, func, select, update

from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.columns import (
    bulk_insert,
    bulk_insert_columns,
    column_by_id,
    fetch_array,
)
from ndcg_studio.storage.bulk.pg_copy import copy_any

if TYPE_CHECKING:
    from sqlalchemy import Connection

#: Rows per insert statement of an import (bounds the Python objects alive at once).
INSERT_SLICE = 1_000_000


@dataclass
class JudgmentPlan:
    """What :func:`apply_judgments` will write: the rows of the file (``(n,)`` int64 ids and
    grades, notes or None to keep the stored ones) and, per row, whether it is new (``fresh``)
    or changes a stored judgment (``changed``; ``old_id`` its id, ``old_notes`` the stored notes
    read)."""

    qid: NDArray[np.int64]
    did: NDArray[np.int64]
    aid: NDArray[np.int64]
    grade: NDArray[np.int64]
    notes: list[str | None] | None
    fresh: NDArray[np.bool_]
    changed: NDArray[np.bool_]
    old_id: NDArray[np.int64]
    old_notes: dict[int, str | None]

    @property
    def created(self) -> int:
        return int(self.fresh.sum())

    @property
    def updated(self) -> int:
        return int(self.changed.sum())


def plan_judgments(
    conn: Connection,
    qid: NDArray[np.int64],
    did: NDArray[np.int64],
    aid: NDArray[np.int64],
    grade: NDArray[np.int64],
    note: Sequence[str | None] | None,
) -> JudgmentPlan:
    """Match the file's judgments (``(n,)`` int64 database ids and grades; ``note`` None keeps
    the stored notes) against the stored judgments of the same annotators."""
    n = len(qid)
    existing = _existing_judgments(conn, distinct(aid))
    notes = list(note) if note is not None else None
    if len(existing) == 0:  # these annotators' first import: every judgment is new
        none = np.zeros(n, dtype=bool)
        no_id = np.broadcast_to(np.int64(-1), (n,))  # no memory per row
        return JudgmentPlan(qid, did, aid, grade, notes, ~none, none, no_id, {})
    old_key, new_key = item_keys(
        (existing["query"], existing["doc"], existing["annotator"]), (qid, did, aid)
    )
    found, match = match_keys(old_key, new_key)
    old_grade = np.zeros(n, dtype=np.int64)  # meaningful where found
    old_grade[found] = existing["grade"][match[found]]
    old_id = np.full(n, -1, dtype=np.int64)
    old_id[found] = existing["id"][match[found]]
    del old_key, new_key, match
    changed = found & (old_grade != grade)
    # old notes: of every existing judgment when the file has notes (to compare), else only of
    # those whose grade changes (their note is written back unchanged)
    old_notes: dict[int, str | None] = column_by_id(
        conn, models.judgments, old_id[found if notes is not None else changed], "note"
    )
    if notes is not None:
        changed |= found & np.array(
            [notes[i] != old_notes.get(j) for i, j in enumerate(old_id.tolist())], dtype=bool
        )
    return JudgmentPlan(qid, did, aid, grade, notes, ~found, changed, old_id, old_notes)


def apply_judgments(conn: Connection, plan: JudgmentPlan) -> None:
    """Insert the plan's new judgments, update its changed ones and release its annotators'
    campaign holds on its items (:func:`_release_holds`)."""
    _release_holds(conn, plan)
    # insert in the order of the unique index (query, document, annotator)
    if plan.fresh.all():  # no copies of the columns to sort
        idx_new = np.lexsort((plan.aid, plan.did, plan.qid))
    else:
        idx_new = np.flatnonzero(plan.fresh)
        idx_new = idx_new[np.lexsort((plan.aid[idx_new], plan.did[idx_new], plan.qid[idx_new]))]
    _insert_new(conn, plan, idx_new)
    del idx_new
    idx_chg = np.flatnonzero(plan.changed)
    if not len(idx_chg):
        return
    judgment = models.judgments
    conn.execute(
        update(judgment)
        .where(judgment.c.id == bindparam("jid"))
        .values(
            grade=bindparam("new_grade"),
            note=bindparam("new_note"),
            updated_at=func.current_timestamp(),
        ),
        [
            {
                "jid": int(plan.old_id[i]),
                "new_grade": int(plan.grade[i]),
                "new_note": (
                    plan.notes[i] if plan.notes is not None else plan.old_notes[int(plan.old_id[i])]
                ),
            }
            for i in idx_chg.tolist()
        ],
    )


def _release_holds(conn: Connection, plan: JudgmentPlan) -> None:
    """Delete the campaign leases (any campaign, live or expired) that the plan's annotators
    hold on the plan's items — every row of the file, new, changed or unchanged: the annotator
    has a grade of the item now.

    The leases are few (holds of items offered, not yet graded): they are read and matched
    here, and only the matching ones are deleted, so an import that ends no hold writes
    nothing to ``campaign_leases``."""
    le = models.campaign_leases
    held = fetch_array(
        conn,
        select(le.c.campaign_id, le.c.query_id, le.c.document_id, le.c.annotator_id).where(
            le.c.annotator_id.in_([int(a) for a in distinct(plan.aid)])
        ),
        [("campaign", "i8"), ("query", "i8"), ("doc", "i8"), ("annotator", "i8")],
    )
    if len(held) == 0:
        return
    near = np.flatnonzero(np.isin(plan.qid, held["query"]))  # rows of the held queries only
    held_key, file_key = item_keys(
        (held["query"], held["doc"], held["annotator"]),
        (plan.qid[near], plan.did[near], plan.aid[near]),
    )
    ended = held[np.isin(held_key, file_key)]
    if len(ended) == 0:
        return
    conn.execute(
        delete(le).where(
            le.c.campaign_id == bindparam("c"),
            le.c.query_id == bindparam("q"),
            le.c.document_id == bindparam("d"),
            le.c.annotator_id == bindparam("a"),
        ),
        [{"c": int(c), "q": int(q), "d": int(d), "a": int(a)} for c, q, d, a in ended.tolist()],
    )


def _insert_new(conn: Connection, plan: JudgmentPlan, idx_new: NDArray[np.intp]) -> None:
    # SQLite: one UTC timestamp for the import, written as CURRENT_TIMESTAMP writes it
    # (evaluating that default per row shows in bench_end_to_end.py); PostgreSQL's COPY leaves
    # the columns to the server's default.
    now = models.utcnow().strftime("%Y-%m-%d %H:%M:%S")
    stamps = {"created_at": now, "updated_at": now} if conn.dialect.name == "sqlite" else None
    names = {"query_id": plan.qid, "document_id": plan.did, "annotator_id": plan.aid}
    names["grade"] = plan.grade
    notes = plan.notes
    fresh_notes = [notes[i] for i in idx_new.tolist()] if notes is not None else []
    if not any(fresh_notes) and conn.dialect.name == "postgresql":  # integers only: one COPY
        # for the whole file, gathered block by block (the statement triggers then scan the
        # parent tables once, not once per slice: bench_scale.py --postgres)
        copy_any(conn, models.judgments, names, order=idx_new)
        return
    if not any(fresh_notes):  # integers only (qrels; a CSV without notes): SQLite packs them
        # a slice of rows at a time, each column gathered for the slice only (bounded memory)
        for start in range(0, len(idx_new), INSERT_SLICE):
            part = idx_new[start : start + INSERT_SLICE]
            sliced = {c: v[part] for c, v in names.items()}
            bulk_insert_columns(conn, models.judgments, sliced, constants=stamps)
        return
    fresh_rows = {c: v[idx_new] for c, v in names.items()}
    columns: list[list[Any]] = [a.tolist() for a in fresh_rows.values()]
    columns.append(fresh_notes)
    bulk_insert(
        conn,
        models.judgments,
        [*fresh_rows, "note"],
        zip(*columns, strict=True),
        constants=stamps,
    )


def item_keys(
    *triples: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]],
) -> list[NDArray[np.int64]]:
    """One int64 per (query, document, annotator) database-id triple, for vectorised matching;
    equal triples get equal keys across all the given groups of rows.

    Packed with as many bits per id as the largest id needs (ids of 2**20 queries, 2**30
    documents and 2**13 annotators fit); when they do not fit 63 bits together (many
    annotators, ids past 2**26 or 2**31), the triples are numbered by one ``np.unique`` over
    all rows instead — slower, any ids.
    """
    columns = [
        np.concatenate([np.asarray(t[i], dtype=np.int64) for t in triples]) for i in range(3)
    ]
    sizes = [len(t[0]) for t in triples]
    if len(columns[0]) == 0:
        return [np.zeros(n, dtype=np.int64) for n in sizes]
    widths = [max(int(c.max()).bit_length(), 1) for c in columns]
    if sum(widths) <= 63 and min(int(c.min()) for c in columns) >= 0:
        q, d, a = columns
        key = (q << (widths[1] + widths[2])) | (d << widths[2]) | a
    else:
        _, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
        key = np.asarray(inverse, dtype=np.int64).reshape(-1)
    return np.split(key, np.cumsum(sizes)[:-1])


def match_keys(
    old_key: NDArray[np.int64], new_key: NDArray[np.int64]
) -> tuple[NDArray[np.bool_], NDArray[np.intp]]:
    """For each new key: whether it is among the old keys, and the index of that old key
    (0 where not found)."""
    if len(old_key) == 0:
        return np.zeros(len(new_key), dtype=bool), np.zeros(len(new_key), dtype=np.intp)
    sorter = np.argsort(old_key)
    at = np.minimum(np.searchsorted(old_key, new_key, sorter=sorter), len(old_key) - 1)
    match = sorter[at]
    return old_key[match] == new_key, match


def _existing_judgments(conn: Connection, annotator_ids: NDArray[np.int64]) -> NDArray[Any]:
    j = models.judgments
    return fetch_array(
        conn,
        select(j.c.id, j.c.query_id, j.c.document_id, j.c.annotator_id, j.c.grade).where(
            j.c.annotator_id.in_([int(a) for a in annotator_ids])
        ),
        [("id", "i8"), ("query", "i8"), ("doc", "i8"), ("annotator", "i8"), ("grade", "i8")],
    )
