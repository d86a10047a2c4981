"""The items a machine judge grades, and the texts its prompts are filled with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, select

from ndcg_studio.storage import models

__all__ = ["ItemText", "campaign_items", "item_texts", "pairs_by_external", "pool_items"]


@dataclass(frozen=True, slots=True)
class ItemText:
    """One item with what a prompt may show of it (None: the topics file had no such field)."""

    query_id: int
    document_id: int
    query: str
    doc: str
    query_text: str
    description: str | None
    narrative: str | None
    title: str
    text: str


def pool_items(conn: Connection, runs: Sequence[str], depth: int) -> list[tuple[int, int]]:
    """``(query id, document id)`` of the runs' depth-``depth`` pool, by query then document.

    Raises:
        LookupError: an unknown run (names the known ones).
    """
    r, runs_t = models.results, models.runs
    found = dict(conn.execute(select(runs_t.c.name, runs_t.c.id)).all())
    missing = [n for n in runs if n not in found]
    if missing:
        known = ", ".join(sorted(found)) or "none"
        raise LookupError(f"unknown run {', '.join(map(repr, missing))}; known: {known}")
    stmt = (
        select(r.c.query_id, r.c.document_id)
        .where(r.c.run_id.in_([found[n] for n in runs]), r.c.position <= depth)
        .group_by(r.c.query_id, r.c.document_id)
        .order_by(r.c.query_id, r.c.document_id)
    )
    return [(int(q), int(d)) for q, d in conn.execute(stmt).all()]


def campaign_items(conn: Connection, name: str) -> list[tuple[int, int]]:
    """``(query id, document id)`` of a campaign's items (gold ones included), by query.

    Raises:
        LookupError: an unknown campaign.
    """
    c, ci = models.campaigns, models.campaign_items
    cid = conn.execute(select(c.c.id).where(c.c.name == name)).scalar_one_or_none()
    if cid is None:
        raise LookupError(f"unknown campaign {name!r}")
    stmt = (
        select(ci.c.query_id, ci.c.document_id)
        .where(ci.c.campaign_id == cid)
        .order_by(ci.c.query_id, ci.c.document_id)
    )
    return [(int(q), int(d)) for q, d in conn.execute(stmt).all()]


def pairs_by_external(
    conn: Connection, pairs: Sequence[tuple[str, str]]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Database ids of ``(query external id, document external id)`` pairs, and the indexes
    (0-based, into ``pairs``) of those whose query or document is not in the database."""
    q, d = models.queries, models.documents
    qids = dict(conn.execute(select(q.c.external_id, q.c.id)).all())
    wanted = {doc for _, doc in pairs}
    dids: dict[str, int] = {}
    names = sorted(wanted)
    for start in range(0, len(names), 2_000):
        part = names[start : start + 2_000]
        stmt = select(d.c.external_id, d.c.id).where(d.c.external_id.in_(part))
        dids.update(dict(conn.execute(stmt).all()))
    found, unknown = [], []
    for i, (query, doc) in enumerate(pairs):
        if query in qids and doc in dids:
            found.append((int(qids[query]), int(dids[doc])))
        else:
            unknown.append(i)
    return found, unknown


def item_texts(conn: Connection, items: Sequence[tuple[int, int]]) -> list[ItemText]:
    """The texts of ``items`` (same order)."""
    q, d = models.queries, models.documents
    query_ids = sorted({i for i, _ in items})
    doc_ids = sorted({j for _, j in items})
    queries = {}
    for start in range(0, len(query_ids), 2_000):
        stmt = select(q.c.id, q.c.external_id, q.c.text, q.c.description, q.c.narrative).where(
            q.c.id.in_(query_ids[start : start + 2_000])
        )
        queries.update({int(r.id): r for r in conn.execute(stmt).all()})
    docs = {}
    for start in range(0, len(doc_ids), 2_000):
        stmt = select(d.c.id, d.c.external_id, d.c.title, d.c.text).where(
            d.c.id.in_(doc_ids[start : start + 2_000])
        )
        docs.update({int(r.id): r for r in conn.execute(stmt).all()})
    out = []
    for qid, did in items:
        qr, dr = queries[qid], docs[did]
        out.append(
            ItemText(
                query_id=qid,
                document_id=did,
                query=str(qr.external_id),
                doc=str(dr.external_id),
                query_text=str(qr.text or ""),
                description=qr.description,
                narrative=qr.narrative,
                title=str(dr.title or ""),
                text=str(dr.text or ""),
            )
        )
    return out
