"""Machine labels: the one write of a batch (provenance and judgment in the caller's
transaction) and the reads of what is done and where each source's labels came from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import Connection, select

from ndcg_studio.storage import models
from ndcg_studio.storage.bulk.imports import annotator_ids
from ndcg_studio.storage.judgments.sets import apply_judgments, plan_judgments

__all__ = [
    "LabelRow",
    "Provenance",
    "done_items",
    "judge_annotator",
    "provenance",
    "write_labels",
]


@dataclass(frozen=True, slots=True)
class LabelRow:
    """One answer (or its failure) for one item. ``grade`` on 0..4 when ``status`` is
    ``graded``, else None; ``problem`` says why an answer was not read or not received."""

    query_id: int
    document_id: int
    status: str
    grade: int | None
    model_reported: str | None
    raw_answer: str | None
    problem: str | None
    prompt_tokens: int | None
    completion_tokens: int | None


@dataclass(frozen=True)
class Provenance:
    """Where the current labels of one annotator of a model source came from.

    Attributes:
        source, annotator: names.
        graded, unparsed, failed: labels in each status (rows of ``judge_labels``).
        models: ``{model as reported: current labels}`` (an item's current label is its
            latest graded row).
        templates: ``{"name sha256[:12]": current labels}``.
        prompt_tokens, completion_tokens: totals over all rows.
    """

    source: str
    annotator: str
    graded: int
    unparsed: int
    failed: int
    models: dict[str, int]
    templates: dict[str, int]
    prompt_tokens: int
    completion_tokens: int

    @property
    def mixed(self) -> bool:
        """True when the current labels come from more than one model version or template."""
        return len(self.models) > 1 or len(self.templates) > 1


def judge_annotator(conn: Connection, name: str) -> int:
    """The id of the annotator ``name`` (created when missing)."""
    ids, _ = annotator_ids(conn, [name])
    return int(ids[0])


def done_items(
    conn: Connection,
    annotator_id: int,
    template_hash: str,
    model: str,
    statuses: Sequence[str] = ("graded",),
) -> set[tuple[int, int]]:
    """``(query id, document id)`` of the items with a label in ``statuses`` for this
    annotator, template and model (as asked)."""
    j = models.judge_labels
    stmt = select(j.c.query_id, j.c.document_id).where(
        j.c.annotator_id == annotator_id,
        j.c.template_hash == template_hash,
        j.c.model == model,
        j.c.status.in_(list(statuses)),
    )
    return {(int(q), int(d)) for q, d in conn.execute(stmt).all()}


def _upsert(conn: Connection) -> Any:
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(models.judge_labels)
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(models.judge_labels)


#: The columns a later answer for the same item, template and model replaces.
_REPLACED = (
    "template_name", "params", "created_at", "status", "grade", "model_reported",
    "raw_answer", "problem", "prompt_tokens", "completion_tokens",
)  # fmt: skip


def write_labels(
    conn: Connection,
    annotator_id: int,
    *,
    template_hash: str,
    template_name: str,
    model: str,
    params: str,
    rows: Sequence[LabelRow],
) -> None:
    """Record ``rows`` (provenance; one row per item, template and model, a later answer
    replacing an earlier one) and write the graded ones as ``annotator_id``'s judgments (the
    history rule of :mod:`ndcg_studio.storage.judgments` applies), in the caller's transaction.
    """
    if not rows:
        return
    now = models.utcnow()
    values = [
        {
            "annotator_id": annotator_id,
            "template_hash": template_hash,
            "template_name": template_name,
            "model": model,
            "params": params,
            "created_at": now,
            "query_id": r.query_id,
            "document_id": r.document_id,
            "status": r.status,
            "grade": r.grade,
            "model_reported": r.model_reported,
            "raw_answer": r.raw_answer,
            "problem": r.problem,
            "prompt_tokens": r.prompt_tokens,
            "completion_tokens": r.completion_tokens,
        }
        for r in rows
    ]
    stmt = _upsert(conn)
    replaced = {c: stmt.excluded[c] for c in _REPLACED}
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["annotator_id", "query_id", "document_id", "template_hash", "model"],
            set_=replaced,
        ),
        values,
    )
    _write_judgments(conn, annotator_id, [r for r in rows if r.status == "graded"])


def _write_judgments(conn: Connection, annotator_id: int, graded: Sequence[LabelRow]) -> None:
    """The graded labels as ``annotator_id``'s judgments, through the one writer."""
    if not graded:
        return
    plan = plan_judgments(
        conn,
        np.array([r.query_id for r in graded], dtype=np.int64),
        np.array([r.document_id for r in graded], dtype=np.int64),
        np.full(len(graded), annotator_id, dtype=np.int64),
        np.array([r.grade for r in graded], dtype=np.int64),
        None,
    )
    apply_judgments(conn, plan)


def provenance(conn: Connection) -> list[Provenance]:
    """The :class:`Provenance` of every annotator with machine labels, by source then name
    (source ``""`` for an annotator of no source)."""
    j, a = models.judge_labels, models.annotators
    s, m = models.sources, models.annotator_sources
    rows = conn.execute(
        select(
            a.c.name,
            s.c.name,
            j.c.query_id,
            j.c.document_id,
            j.c.status,
            j.c.model_reported,
            j.c.template_name,
            j.c.template_hash,
            j.c.prompt_tokens,
            j.c.completion_tokens,
        )
        .join(a, a.c.id == j.c.annotator_id)
        .outerjoin(m, m.c.annotator_id == a.c.id)
        .outerjoin(s, s.c.id == m.c.source_id)
        .order_by(j.c.created_at, j.c.id)
    ).all()
    per: dict[tuple[str, str], dict[str, Any]] = {}
    for name, source, qid, did, status, reported, tname, thash, ptok, ctok in rows:
        entry = per.setdefault(
            (str(source or ""), str(name)),
            {"status": Counter(), "current": {}, "ptok": 0, "ctok": 0},
        )
        entry["status"][status] += 1
        entry["ptok"] += int(ptok or 0)
        entry["ctok"] += int(ctok or 0)
        if status == "graded":  # later rows (higher id) win
            entry["current"][(qid, did)] = (str(reported or "?"), f"{tname} {thash[:12]}")
    out = []
    for (source, name), e in sorted(per.items()):
        current = list(e["current"].values())
        out.append(
            Provenance(
                source=source,
                annotator=name,
                graded=e["status"]["graded"],
                unparsed=e["status"]["unparsed"],
                failed=e["status"]["failed"],
                models=dict(Counter(c[0] for c in current)),
                templates=dict(Counter(c[1] for c in current)),
                prompt_tokens=e["ptok"],
                completion_tokens=e["ctok"],
            )
        )
    return out
