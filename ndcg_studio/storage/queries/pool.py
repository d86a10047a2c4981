"""A query's pool as the Annotate order reads it: where two runs rank its documents."""

from __future__ import annotations

from sqlalchemy import Connection, select

from ndcg_studio.storage import models

__all__ = ["positions_within"]


def positions_within(
    conn: Connection, query: int, run_names: tuple[str, str], k: int
) -> list[tuple[str, int, int]]:
    """(run name, document id, position) of the results of the two named runs for one query
    whose position (trec_eval order, ``results.position``) is <= ``k``; unknown runs give
    nothing."""
    r, runs = models.results, models.runs
    stmt = (
        select(runs.c.name, r.c.document_id, r.c.position)
        .join(runs, runs.c.id == r.c.run_id)
        .where(r.c.query_id == query, runs.c.name.in_(list(run_names)), r.c.position <= k)
    )
    return [(str(n), int(d), int(p)) for n, d, p in conn.execute(stmt)]
