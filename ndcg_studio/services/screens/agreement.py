"""What the Agreement view shows, computed below ``ui`` (no Qt): the report with its disputed
items as :class:`DisputedRows` (most disputed first), the correction queue of every two judgment
sources, and one item's texts and history. :func:`load_agreement` and :func:`load_item` run on a
worker thread.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from itertools import islice

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.disputed import most_disputed_first
from ndcg_studio.progress import Cancelled, Progress
from ndcg_studio.services.agreement import (
    AgreementReport,
    AgreementService,
    AgreementSettings,
    DisputedItem,
)
from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import HistoryEntry
from ndcg_studio.services.judges.trust import provenance_of
from ndcg_studio.services.screens.sort_keys import dense_ranks, natural_key
from ndcg_studio.services.stability.report import DEFAULT_SOURCE
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges.labels import Provenance


@dataclass(frozen=True, eq=False)
class DisputedRows:
    """Disputed items (grade range >= the threshold), most disputed first; arrays (n,).

    Attributes:
        query, document: str external ids; query_id, document_id: int64 database ids.
        range, mean, std: float64 spread of the grades (grade units).
        grades: per item ``{annotator: grade}``.
        adjudicated: float64 the lead's final grade, NaN when not adjudicated.
        grades_text: str ``grades`` as the Grades column shows them ("ann1 2  ann2 4"),
            made where the rows are made (a worker), not on the GUI thread.
        query_key, document_key: int64 sort keys of ``query`` and ``document`` in natural
            order (:func:`~ndcg_studio.services.screens.sort_keys.natural_key`), made there
            too (``bench_gui_scale.py`` Agreement, the GUI stall).
    """

    query: NDArray[np.str_]
    document: NDArray[np.str_]
    query_id: NDArray[np.int64]
    document_id: NDArray[np.int64]
    range: NDArray[np.float64]
    mean: NDArray[np.float64]
    std: NDArray[np.float64]
    grades: list[dict[str, float]]
    adjudicated: NDArray[np.float64]
    #: ``grades_text`` already made as a list (by :meth:`from_report`), else None
    texts: InitVar[list[str] | None] = None
    #: (``query_key``, ``document_key``) already made (by :meth:`from_report`), else None
    keys: InitVar[tuple[NDArray[np.int64], NDArray[np.int64]] | None] = None
    grades_text: NDArray[np.str_] = field(init=False, repr=False)
    query_key: NDArray[np.int64] = field(init=False, repr=False)
    document_key: NDArray[np.int64] = field(init=False, repr=False)

    def __post_init__(
        self,
        texts: list[str] | None,
        keys: tuple[NDArray[np.int64], NDArray[np.int64]] | None,
    ) -> None:
        if texts is None:
            texts = [_grades_text(sorted(gr.items())) for gr in self.grades]
        text = np.asarray(texts or [""], dtype=str)[: len(self.grades)]
        object.__setattr__(self, "grades_text", text)
        if keys is None:
            keys = (natural_key(self.query), natural_key(self.document))
        object.__setattr__(self, "query_key", np.asarray(keys[0], np.int64))
        object.__setattr__(self, "document_key", np.asarray(keys[1], np.int64))

    def __len__(self) -> int:
        return int(self.range.shape[0])

    @classmethod
    def empty(cls) -> DisputedRows:
        s, i, f = np.zeros(0, dtype=str), np.zeros(0, dtype=np.int64), np.zeros(0)
        return cls(s, s, i, i, f, f, f, [], f)

    @classmethod
    def from_report(
        cls, report: AgreementReport, adjudications: Mapping[tuple[int, int], int] | None = None
    ) -> DisputedRows:
        """The disputed items of ``report`` (vectorised: one sort of the ratings by item)."""
        sp = report.summary.spread
        q_ext = np.asarray(report.query_external, dtype=str)
        disputed = np.flatnonzero(sp.disputed)
        # the disputed items' document ids only, in the width of all of them (the dtype an
        # array of every item's would have): a third of a million strings otherwise
        # (bench_gui_scale.py Agreement)
        docs = report.doc_external
        width = max(1, max(map(len, docs), default=1))
        doc_ext = np.array([docs[i] for i in disputed.tolist()], dtype=f"<U{width}")
        # most disputed first (range, then std, descending); ties in query and document order
        ties = np.zeros((2, sp.range.shape[0]), dtype=np.int64)
        if disputed.size:
            ties[0, disputed] = dense_ranks(natural_key(q_ext[report.item_query_index[disputed]]))
            ties[1, disputed] = dense_ranks(natural_key(doc_ext))
        idx = most_disputed_first(sp.range, sp.std, sp.disputed, ties[0], ties[1])
        r = report.ratings
        order = np.argsort(r.item, kind="stable")
        items = r.item[order]
        starts = np.searchsorted(items, idx, side="left")
        ends = np.searchsorted(items, idx, side="right")
        # every disputed item's ratings, item after item, as Python objects in one go
        sizes = ends - starts
        rows = np.repeat(starts - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        pairs = zip(
            np.asarray(report.annotators, dtype=object)[r.annotator[order[rows]]].tolist(),
            r.grade[order[rows]].tolist(),
            strict=True,
        )
        grades: list[dict[str, float]] = [dict(islice(pairs, n)) for n in sizes.tolist()]
        q_ids = report.item_query[idx]
        d_ids = report.item_doc[idx]
        adj = adjudications or {}
        adjudicated = np.full(idx.shape[0], math.nan)
        if adj:  # none yet: every item NaN, no look-up per item
            adjudicated = np.array(
                [
                    float(adj.get((int(q), int(d)), math.nan))
                    for q, d in zip(q_ids.tolist(), d_ids.tolist(), strict=True)
                ],
                dtype=np.float64,
            )
        return cls(
            query=q_ext[report.item_query_index[idx]] if idx.size else np.zeros(0, dtype=str),
            document=(
                doc_ext[np.searchsorted(disputed, idx)] if idx.size else np.zeros(0, dtype=str)
            ),
            query_id=q_ids.astype(np.int64),
            document_id=d_ids.astype(np.int64),
            range=sp.range[idx].astype(np.float64),
            mean=sp.mean[idx].astype(np.float64),
            std=sp.std[idx].astype(np.float64),
            grades=grades,
            adjudicated=adjudicated,
            texts=_texts_by_name(
                report.annotators, r.annotator[order[rows]], r.grade[order[rows]], sizes
            ),
            keys=(ties[0, idx], ties[1, idx]),  # natural order, as dense ranks
        )

    @classmethod
    def from_items(
        cls,
        items: Sequence[DisputedItem],
        adjudications: Mapping[tuple[int, int], int] | None = None,
    ) -> DisputedRows:
        """Rows of service items in their order (e.g. two sources' correction queue,
        :meth:`ndcg_studio.services.stability.service.StabilityService.source_disputes`)."""
        if not items:
            return cls.empty()
        adj = adjudications or {}
        grades = [dict(i.grades) for i in items]
        return cls(
            query=np.array([i.query_external for i in items], dtype=str),
            document=np.array([i.doc_external for i in items], dtype=str),
            query_id=np.array([i.query_id for i in items], dtype=np.int64),
            document_id=np.array([i.document_id for i in items], dtype=np.int64),
            range=np.array([i.range for i in items], dtype=np.float64),
            mean=np.array([i.mean for i in items], dtype=np.float64),
            std=np.array([float(np.std(list(g.values()))) for g in grades], dtype=np.float64),
            grades=grades,
            adjudicated=np.array(
                [float(adj.get((i.query_id, i.document_id), math.nan)) for i in items],
                dtype=np.float64,
            ),
        )


def _grades_text(pairs: Iterable[tuple[str, float]]) -> str:
    """One item's (annotator, grade) pairs as the Grades column shows them: "ann1 2  ann2 4"."""
    return "  ".join(f"{a} {g:g}" for a, g in pairs)


def _texts_by_name(
    names: Sequence[str],
    annotator: NDArray[np.int64],
    grade: NDArray[np.float64],
    sizes: NDArray[np.intp],
) -> list[str] | None:
    """:func:`_grades_text` of items whose ratings come item after item (``sizes`` (n,) of
    them; ``annotator`` codes into ``names`` and ``grade`` floats, (sum of sizes,)), each
    item's in annotator name order as ``sorted(grades.items())`` orders them: one text per
    (annotator, grade) made once, not one per rating (``bench_gui_scale.py`` Agreement).
    None when two annotators share a name (their grades dict keeps one of them)."""
    if len(set(names)) != len(names):
        return None
    rank = np.empty(len(names), dtype=np.int64)
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    item = np.repeat(np.arange(sizes.shape[0]), sizes)
    by_name = np.lexsort((rank[annotator], item)) if len(names) else item
    values, code = np.unique(grade, return_inverse=True)
    tokens = np.array(
        [[_grades_text([(a, g)]) for g in values.tolist()] for a in names], dtype=object
    ).reshape(len(names), values.shape[0])
    ordered = iter(tokens[annotator[by_name], code.reshape(-1)[by_name]].tolist())
    return ["  ".join(islice(ordered, n)) for n in sizes.tolist()]


@dataclass(frozen=True, eq=False)
class AgreementData:
    """One load of the view (from the worker): the report and the disputed rows."""

    report: AgreementReport
    disputed: DisputedRows
    #: the correction queue of every two judgment sources: items two grades apart or more
    by_sources: dict[tuple[str, str], DisputedRows] = field(default_factory=dict)
    #: the provenance of every machine source's labels (services.judges.trust.provenance_of)
    machine: list[Provenance] = field(default_factory=list)


@dataclass(frozen=True)
class ItemDetail:
    """One disputed item's texts, history and the annotator names of that history."""

    query_id: int
    document_id: int
    query_text: str
    title: str
    history: list[HistoryEntry]
    names: dict[int, str]


def load_agreement(
    db: Database,
    settings: AgreementSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> AgreementData:
    """Agreement report plus the disputed items with their adjudicated grades (worker thread)."""
    report = AgreementService(db).report(settings, progress=progress, cancelled=cancelled)
    return complete_agreement(db, AgreementData(report, DisputedRows.empty()), cancelled)


def load_headline(
    db: Database,
    settings: AgreementSettings,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> AgreementData:
    """What the Agreement view shows first (worker thread): the report's headline
    (:meth:`AgreementService.headline`), no disputed items yet; :func:`complete_agreement`
    adds the rest."""
    report = AgreementService(db).headline(settings, progress=progress, cancelled=cancelled)
    return AgreementData(report, DisputedRows.empty())


def complete_agreement(
    db: Database, data: AgreementData, cancelled: Cancelled | None = None
) -> AgreementData:
    """``data`` with its report complete (:meth:`AgreementService.complete`: the bootstrap
    interval, alpha without each annotator), the disputed items with their adjudicated grades
    and every two judgment sources' correction queue (worker thread)."""
    service = AgreementService(db)
    report = service.complete(data.report, cancelled=cancelled)
    adjudications = service.adjudications()
    by_sources: dict[tuple[str, str], DisputedRows] = {}
    stability = StabilityService(db)
    sources = stability.sources()
    if sources:
        names = [DEFAULT_SOURCE, *(s.name for s in sources)]
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                items = stability.source_disputes(a, b)
                by_sources[(a, b)] = DisputedRows.from_items(items, adjudications)
    disputed = DisputedRows.from_report(report, adjudications)
    return AgreementData(report, disputed, by_sources, provenance_of(db))


def load_item(db: Database, query_id: int, document_id: int) -> ItemDetail:
    """Texts and history of one item (worker thread)."""
    text, title = AgreementService(db).item_text(query_id, document_id)
    annotation = AnnotationService(db)
    names = {a.id: a.name for a in annotation.list_annotators()}
    return ItemDetail(
        query_id, document_id, text, title, annotation.history(query_id, document_id), names
    )
