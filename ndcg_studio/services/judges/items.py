"""Which items a job grades: a pool of runs, a campaign's items, or a list of pairs."""

from __future__ import annotations

from collections.abc import Sequence

from ndcg_studio.io.errors import InputError, InputFileError, ParseIssue
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges import items as item_store

__all__ = ["job_items"]


def job_items(
    db: Database,
    *,
    runs: Sequence[str] | None = None,
    depth: int | None = None,
    campaign: str | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    pairs_file: str = "pairs",
) -> list[tuple[int, int]]:
    """``(query id, document id)`` of exactly one of: the depth-``depth`` pool of ``runs``, the
    items of ``campaign``, the external-id ``pairs`` (read from ``pairs_file``).

    Raises:
        InputError: none or several of the three, ``runs`` without ``depth``, an unknown run or
            campaign; :class:`InputFileError` for pairs naming a query or document the
            database does not have (``FILE:LINE``-less: the pair's position, 1-based).
    """
    given = [runs is not None, campaign is not None, pairs is not None]
    if sum(given) != 1:
        raise InputError("give exactly one of --runs (with --depth), --campaign, --pairs")
    with db.engine.connect() as conn:
        try:
            if runs is not None:
                if depth is None or depth < 1:
                    raise InputError("--runs needs --depth D (D >= 1)")
                return item_store.pool_items(conn, runs, depth)
            if campaign is not None:
                return item_store.campaign_items(conn, campaign)
        except LookupError as exc:
            raise InputError(str(exc).strip("'\"")) from None
        assert pairs is not None
        found, unknown = item_store.pairs_by_external(conn, pairs)
    if unknown:
        raise InputFileError(
            [
                ParseIssue(
                    pairs_file, 0, "pair",
                    f"pair {i + 1} ({pairs[i][0]} {pairs[i][1]}): no such query or document "
                    "in the database",
                )
                for i in unknown[:20]
            ],
            truncated=len(unknown) > 20,
        )  # fmt: skip
    return found
