"""The steps the import use cases of :mod:`ndcg_studio.services.importing.service` share.

What an import did (:class:`ImportSummary`), its progress stages, the run's name from its tag,
and the writes inside the import's transaction: results slice by slice
(:func:`ndcg_studio.storage.bulk.imports.insert_results`), judgments through the one writer of
judgments and their history (:mod:`ndcg_studio.storage.judgments`), and the annotators' source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.errors import InputError
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.wording import count
from ndcg_studio.storage.bulk.imports import insert_results, result_slices
from ndcg_studio.storage.judgments.sets import apply_judgments, plan_judgments

if TYPE_CHECKING:
    from sqlalchemy import Connection

__all__ = [
    "ImportSummary",
    "into_source",
    "one_tag",
    "stage",
    "write_judgment_ids",
    "write_results",
]


@dataclass
class ImportSummary:
    """What an import did. ``counts`` holds e.g. ``{"results": 1000, "documents created": 12}``."""

    kind: str
    path: str
    rows: int
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def message(self, *, name_only: bool = False) -> str:
        """What was imported, e.g. ``run.txt: 3 run lines imported (3 results, 1 query
        created); run 'bm25' created`` — led by the file's path, or by its name alone."""
        parts = ", ".join(count(v, k) for k, v in self.counts.items() if v)
        where = Path(self.path).name if name_only else self.path
        lines = count(self.rows, f"{self.kind} lines", f"{self.kind} line")
        text = f"{where}: {lines} imported" + (f" ({parts})" if parts else "")
        return "; ".join([text, *self.notes])


def stage(progress: Progress | None, base: int, span: int) -> Progress | None:
    """Map a reader's progress (0..total) into [base, base + span] of 100 steps."""
    if progress is None:
        return None

    def report(done: int, total: int) -> None:
        progress(base + (span * done) // max(total, 1), 100)

    return report


def one_tag(path: str, tags: Mapping[str, None]) -> str:
    """The run's name from its only tag.

    Raises:
        InputError: the file has several tags.
    """
    if len(tags) != 1:
        tag_list = list(tags)
        raise InputError(
            f"{path}: the file has {len(tags)} run tags "
            f"({', '.join(tag_list[:5])}); give the run's name with --name"
        )
    return next(iter(tags))


def write_results(
    conn: Connection,
    run_id: int,
    cols: Mapping[str, NDArray[Any]],
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> int:
    """Insert the run's results slice by slice (:func:`result_slices`; progress 70–99)."""
    n_lines = len(cols["query"])
    n = 0
    for part in result_slices(conn, cols):

        def sent(rows: int, start: int = part.start) -> None:  # PostgreSQL's one COPY
            checkpoint(70 + 29 * (start + rows) // n_lines, 100, progress, cancelled)

        n += insert_results(conn, run_id, {c: v[part] for c, v in cols.items()}, sent)
        done = 70 + 29 * min(n_lines, part.stop) // n_lines
        checkpoint(done, 100, progress, cancelled)
    return n


def write_judgment_ids(
    conn: Connection,
    kind: str,
    path: str,
    cols: Mapping[str, NDArray[np.int64]],
    note: Sequence[str | None] | None,
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> ImportSummary:
    """Write judgments given by database ids (columns ``query``, ``doc``, ``annotator``,
    ``grade``: ``(n,)`` int64 each; ``note`` None keeps the stored notes) inside the caller's
    transaction; the summary's counts are the judgments'."""
    n = len(cols["query"])
    summary = ImportSummary(kind, path, n)
    checkpoint(60, 100, progress, cancelled)
    plan = plan_judgments(conn, cols["query"], cols["doc"], cols["annotator"], cols["grade"], note)
    checkpoint(70, 100, progress, cancelled)
    apply_judgments(conn, plan)
    checkpoint(99, 100, progress, cancelled)
    created, updated = plan.created, plan.updated
    summary.counts = {
        "judgments created": created,
        "judgments updated": updated,
        "unchanged": int(n - created - updated),
    }
    return summary


def into_source(
    conn: Connection,
    summary: ImportSummary,
    names: Sequence[str],
    source: str | None,
    kind: str,
) -> None:
    """Put the imported annotators into ``source`` (nothing without one), in the import's
    transaction; a note in the summary."""
    if source is None:
        return
    from ndcg_studio.services.stability.service import assign_source

    annotators = sorted(set(names))
    try:
        assign_source(conn, annotators, source, kind)
    except ValueError as exc:
        raise InputError(f"--source {source}: {exc}") from None
    summary.notes.append(f"{', '.join(annotators)} in {kind} source {source!r}")
