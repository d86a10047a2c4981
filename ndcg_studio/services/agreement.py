"""Agreement use cases: how much the annotators disagree, where, and who.

Reads every judgment in bulk, numbers items ((query, document) pairs) and annotators densely and
hands them to :func:`ndcg_studio.domain.agreement.summary.agreement_summary` on the fixed 0–4 grade
scale.
Rows for reports and ``ndcg-studio agreement`` follow one long format:
``scope,scope_id,statistic,value,ci_low,ci_high,n_items,n_judgments``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.alpha import GroupAlphaResult, alpha, alpha_by_group
from ndcg_studio.domain.agreement.alpha_intervals import (
    AlphaInterval,
    alpha_bootstrap,
    alpha_leave_one_out,
)
from ndcg_studio.domain.agreement.disputed import disputed_per_group, most_disputed_first
from ndcg_studio.domain.agreement.kappa import fleiss_kappa, pairwise_cohen_kappa
from ndcg_studio.domain.agreement.ratings import Ratings, encode_grades
from ndcg_studio.domain.agreement.spread import item_spread
from ndcg_studio.domain.agreement.summary import AgreementSummary, agreement_summary
from ndcg_studio.domain.metrics.kernels import distinct
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.screens.cells import nan_to_none
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries import judgments, names
from ndcg_studio.vocabulary import (
    DEFAULT_DISPUTED_RANGE,
    DEFAULT_LEVEL,
    GRADES,
    SCOPES,
    Level,
    Scope,
)

AGREEMENT_COLUMNS = (
    "scope",
    "scope_id",
    "statistic",
    "value",
    "ci_low",
    "ci_high",
    "n_items",
    "n_judgments",
)
GRADE_SCALE = tuple(float(g) for g in GRADES)


@dataclass(frozen=True)
class AgreementSettings:
    """``level`` of measurement of alpha (grades are ordinal: the default), the range of
    grades from which an item counts as disputed, and the bootstrap settings."""

    level: Level = DEFAULT_LEVEL
    disputed_range: int = DEFAULT_DISPUTED_RANGE
    n_resamples: int = 1000
    seed: int = 0


@dataclass(frozen=True, eq=False)
class _Loaded:
    """Every judgment as dense :class:`Ratings` with the names and ids that make it readable.

    ``item_query`` / ``item_doc`` give each item's database ids; ``query_external`` (per query
    index), ``item_query_index`` (per item), ``doc_external`` (per item) and ``annotators``
    (per annotator index) give names.
    """

    annotators: list[str]
    query_external: list[str]
    item_query_index: NDArray[np.int64]
    item_query: NDArray[np.int64]
    item_doc: NDArray[np.int64]
    doc_external: list[str]
    judgments_per_query: NDArray[np.int64]
    judgments_per_annotator: NDArray[np.int64]
    ratings: Ratings


@dataclass(frozen=True, eq=False, kw_only=True)
class AgreementReport(_Loaded):
    """An :class:`AgreementSummary` with the names that make it readable (the loaded data's
    fields, see :class:`_Loaded`), and the ``settings`` it was computed with.

    ``complete`` False: a :meth:`AgreementService.headline` — ``summary.alpha_ci`` and
    ``summary.leave_one_out`` are NaN placeholders and ``doc_external`` is empty until
    :meth:`AgreementService.complete` fills them in."""

    settings: AgreementSettings
    summary: AgreementSummary
    complete: bool = True

    @property
    def statistic(self) -> str:
        return f"krippendorff_alpha_{self.settings.level}"

    def rows(self, by: Scope = "all") -> Iterator[tuple[Any, ...]]:
        """Rows of :data:`AGREEMENT_COLUMNS` for one scope (NaN → None: an empty cell).

        Raises:
            ValueError: an unknown scope.
        """
        scopes = {
            "all": self._rows_all,
            "query": self._rows_query,
            "annotator": self._rows_annotator,
            "pair": self._rows_pair,
            "item": self._rows_item,
        }
        if by not in scopes:
            raise ValueError(f"unknown scope {by!r}; one of {', '.join(SCOPES)}")
        yield from scopes[by]()

    def _rows_all(self) -> Iterator[tuple[Any, ...]]:
        s = self.summary
        ci = s.alpha_ci
        n = s.n_ratings
        alpha = (self.statistic, _v(s.alpha.value), _v(ci.low), _v(ci.high))
        yield ("all", "", *alpha, s.alpha.n_items, n)
        yield ("all", "", "fleiss_kappa", _v(s.fleiss.value), None, None, s.fleiss.n_items, n)
        pw = s.pairwise
        has_shared = pw.n_shared > 0  # pairs without shared items have NaN agreement
        shared = pw.n_shared[has_shared].sum()
        if shared:
            pct = float((pw.percent_agreement[has_shared] * pw.n_shared[has_shared]).sum() / shared)
            yield ("all", "", "percent_agreement", pct, None, None, s.n_items, n)

    def _rows_query(self) -> Iterator[tuple[Any, ...]]:
        pq = self.summary.per_query
        for q, name in enumerate(self.query_external):
            n_items, n = int(pq.n_items[q]), int(self.judgments_per_query[q])
            yield ("query", name, self.statistic, _v(pq.value[q]), None, None, n_items, n)

    def _rows_annotator(self) -> Iterator[tuple[Any, ...]]:
        loo = self.summary.leave_one_out
        statistic = f"{self.statistic}_without"
        for a, name in enumerate(self.annotators):
            n_items, n = int(loo.n_items[a]), int(self.judgments_per_annotator[a])
            yield ("annotator", name, statistic, _v(loo.value[a]), None, None, n_items, n)

    def _rows_pair(self) -> Iterator[tuple[Any, ...]]:
        pw = self.summary.pairwise
        for i in range(len(pw.n_shared)):
            pair = (
                self.annotators[int(pw.annotator_a[i])],
                self.annotators[int(pw.annotator_b[i])],
            )
            scope_id = "|".join(sorted(pair))
            n = int(pw.n_shared[i])
            for stat, values in (
                ("cohen_kappa", pw.kappa),
                ("cohen_kappa_linear", pw.kappa_linear),
                ("cohen_kappa_quadratic", pw.kappa_quadratic),
                ("percent_agreement", pw.percent_agreement),
            ):
                yield ("pair", scope_id, stat, _v(values[i]), None, None, n, 2 * n)

    def _rows_item(self) -> Iterator[tuple[Any, ...]]:
        sp = self.summary.spread
        stats: tuple[tuple[str, NDArray[Any]], ...] = (
            ("n_grades", sp.n_grades),
            ("mean", sp.mean),
            ("median", sp.median),
            ("min", sp.min),
            ("max", sp.max),
            ("range", sp.range),
            ("std", sp.std),
            ("disputed", sp.disputed),
        )
        for i in range(len(sp.n_grades)):
            scope_id = (
                f"{self.query_external[int(self.item_query_index[i])]}|{self.doc_external[i]}"
            )
            n = int(sp.n_grades[i])
            for stat, column in stats:
                yield ("item", scope_id, stat, _v(column[i]), None, None, 1, n)

    def disputed_items(self) -> list[DisputedItem]:
        """Items whose grade range reaches the disputed threshold, most disputed first."""
        sp = self.summary.spread
        idx = most_disputed_first(sp.range, sp.std, sp.disputed)
        r = self.ratings
        out = []
        for i in idx.tolist():
            mask = r.item == i
            grades = {
                self.annotators[int(a)]: float(g)
                for a, g in zip(r.annotator[mask].tolist(), r.grade[mask].tolist(), strict=True)
            }
            out.append(
                DisputedItem(
                    query_id=int(self.item_query[i]),
                    document_id=int(self.item_doc[i]),
                    query_external=self.query_external[int(self.item_query_index[i])],
                    doc_external=self.doc_external[i],
                    grades=grades,
                    range=float(sp.range[i]),
                    mean=float(sp.mean[i]),
                )
            )
        return out


@dataclass(frozen=True, eq=False)
class QueryAgreement:
    """Agreement per judged query (arrays of shape (n_queries,), aligned with
    ``query_external``): Krippendorff's ``alpha`` (float64, NaN where undefined, e.g. a query
    graded by one annotator), ``n_items`` (int64, judged documents), ``n_multi`` (int64,
    documents with two or more grades) and ``n_disputed`` (int64, documents whose grade range
    reaches the disputed threshold)."""

    query_external: list[str]
    alpha: NDArray[np.float64]
    n_items: NDArray[np.int64]
    n_multi: NDArray[np.int64]
    n_disputed: NDArray[np.int64]

    def by_query(self) -> dict[str, int]:
        """``{query external id: index}`` into the arrays."""
        return {q: i for i, q in enumerate(self.query_external)}


@dataclass(frozen=True)
class DisputedItem:
    """A (query, document) whose annotators disagree by ``range`` grades or more."""

    query_id: int
    document_id: int
    query_external: str
    doc_external: str
    grades: dict[str, float]
    range: float
    mean: float


def _v(value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    return nan_to_none(float(value))


class AgreementService:
    """Agreement statistics over the database's judgments."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def report(
        self,
        settings: AgreementSettings | None = None,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> AgreementReport:
        """Compute every statistic (alpha with CI, Fleiss, pairwise kappas, per query, leave
        one annotator out, per item spread)."""
        settings = settings or AgreementSettings()
        checkpoint(0, 3, progress, cancelled)
        data = self._load()
        checkpoint(2, 3, progress, cancelled)
        summary = agreement_summary(
            data.ratings,
            settings.level,
            data.item_query_index,
            len(data.query_external),
            values=GRADE_SCALE,
            n_resamples=settings.n_resamples,
            seed=settings.seed,
            disputed_range=settings.disputed_range,
        )
        checkpoint(3, 3, progress, cancelled)
        return AgreementReport(settings=settings, summary=summary, **vars(data))

    def headline(
        self,
        settings: AgreementSettings | None = None,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> AgreementReport:
        """:meth:`report` without its slow parts (the bootstrap interval, alpha without each
        annotator, the documents' ids), which :meth:`complete` adds: the same numbers."""
        settings = settings or AgreementSettings()
        checkpoint(0, 2, progress, cancelled)
        data = self._load(documents=False)
        checkpoint(1, 2, progress, cancelled)
        r, level = data.ratings, settings.level
        _, domain = encode_grades(r.grade, GRADE_SCALE)  # as agreement_summary does
        overall = alpha(r, level, values=domain)
        n_a, nan = r.n_annotators, np.full(r.n_annotators, np.nan)
        none, zeros = np.zeros(0), np.zeros(n_a, dtype=np.int64)
        summary = AgreementSummary(
            level=level,
            values=domain,
            n_items=r.n_items,
            n_annotators=n_a,
            n_ratings=r.n_ratings,
            n_queries=len(data.query_external),
            alpha=overall,
            alpha_ci=AlphaInterval(overall.value, np.nan, np.nan, 0.95, 0, 0, 0, none, None),
            fleiss=fleiss_kappa(r, values=domain),
            pairwise=pairwise_cohen_kappa(r, values=domain),
            per_query=alpha_by_group(
                r, data.item_query_index, len(data.query_external), level, values=domain
            ),
            leave_one_out=GroupAlphaResult(
                level, nan, zeros, zeros, nan, nan, zeros.astype(np.int8), (None,) * n_a
            ),
            spread=item_spread(r, disputed_range=settings.disputed_range),
        )
        checkpoint(2, 2, progress, cancelled)
        return AgreementReport(settings=settings, summary=summary, complete=False, **vars(data))

    def complete(
        self, report: AgreementReport, *, cancelled: Cancelled | None = None
    ) -> AgreementReport:
        """``report`` (a :meth:`headline`) with its bootstrap interval, alpha without each
        annotator and the documents' external ids (``report`` itself when complete)."""
        if report.complete:
            return report
        s, settings, r = report.summary, report.settings, report.ratings
        checkpoint(0, 3, None, cancelled)
        with self.db.engine.connect() as conn:
            docs = names.document_external_ids(conn, report.item_doc)
        checkpoint(1, 3, None, cancelled)
        interval = alpha_bootstrap(
            r, s.level, values=s.values, n_resamples=settings.n_resamples, seed=settings.seed
        )
        checkpoint(2, 3, None, cancelled)
        loo = alpha_leave_one_out(r, s.level, values=s.values)
        summary = replace(s, alpha_ci=interval, leave_one_out=loo)
        doc_external = _per_item(docs, report.item_doc)
        return replace(report, summary=summary, doc_external=doc_external, complete=True)

    def per_query_alpha(self, level: Level = "ordinal") -> dict[str, float]:
        """``{query external id: alpha}`` for every judged query (NaN where undefined)."""
        data = self._load(documents=False)
        result = alpha_by_group(
            data.ratings,
            data.item_query_index,
            len(data.query_external),
            level,
            values=GRADE_SCALE,
        )
        return dict(zip(data.query_external, result.value.tolist(), strict=True))

    def query_overview(
        self, level: Level = "ordinal", disputed_range: float = DEFAULT_DISPUTED_RANGE
    ) -> QueryAgreement:
        """Per judged query: alpha, number of items, of items graded twice or more, and of
        disputed items (grade range >= ``disputed_range``), from one read of the judgments.

        What the Review table shows beside each query's nDCG (no bootstrap: cheap).

        Raises:
            ValueError: ``disputed_range`` negative or not finite (from ``item_spread``).
        """
        data = self._load(documents=False)
        n_q = len(data.query_external)
        result = alpha_by_group(data.ratings, data.item_query_index, n_q, level, values=GRADE_SCALE)
        spread = item_spread(data.ratings, disputed_range=disputed_range)
        return QueryAgreement(
            query_external=data.query_external,
            alpha=result.value,
            n_items=np.bincount(data.item_query_index, minlength=n_q).astype(np.int64),
            n_multi=np.bincount(data.item_query_index[spread.n_grades >= 2], minlength=n_q).astype(
                np.int64
            ),
            n_disputed=disputed_per_group(spread.disputed, data.item_query_index, n_q),
        )

    def adjudications(self) -> dict[tuple[int, int], int]:
        """``{(query database id, document database id): adjudicated grade}`` of every item a
        lead has given a final grade (the grade that wins over the consensus in scoring)."""
        with self.db.engine.connect() as conn:
            return judgments.adjudicated_grades(conn)

    def item_text(self, query_id: int, document_id: int) -> tuple[str, str]:
        """(query text, document title) of one item by database ids ('' when unknown)."""
        with self.db.engine.connect() as conn:
            return names.item_text(conn, query_id, document_id)

    def _load(self, *, documents: bool = True) -> _Loaded:
        """Read every judgment; ``documents=False`` skips the documents' external ids
        (``doc_external`` is then empty): per-query statistics do not need them."""
        with self.db.engine.connect() as conn:
            rows = judgments.all_grades(conn)
            annotator_names = names.annotator_names(conn)
            query_names = names.query_external_ids(conn)
            item_q, item_d, item_index = _items(rows["query"], rows["doc"])
            n_items = len(item_q)
            docs = names.document_external_ids(conn, item_d) if documents else {}
        annotator_ids = distinct(rows["annotator"])
        # the items come sorted by query: each query starts where the query id changes
        # (no np.unique of the items' queries; bench_gui_scale.py Agreement)
        new_query = np.concatenate(([True], item_q[1:] != item_q[:-1]))[: len(item_q)]
        query_ids = item_q[new_query]
        item_query_index = (np.cumsum(new_query) - 1).astype(np.int64)
        annotator_index = np.searchsorted(annotator_ids, rows["annotator"]).astype(np.int64)
        # trec_eval's -1 (judged non-relevant) is grade 0 here: both say "not relevant"
        grades = np.maximum(rows["grade"], 0.0)
        ratings = Ratings.from_arrays(
            item_index, annotator_index, grades, n_items, len(annotator_ids)
        )
        return _Loaded(
            annotators=[annotator_names[int(a)] for a in annotator_ids],
            query_external=[query_names[int(q)] for q in query_ids],
            item_query_index=item_query_index,
            item_query=item_q.astype(np.int64),
            item_doc=item_d.astype(np.int64),
            doc_external=_per_item(docs, item_d) if documents else [],
            judgments_per_query=np.bincount(
                item_query_index[item_index], minlength=len(query_ids)
            ).astype(np.int64),
            judgments_per_annotator=np.bincount(
                annotator_index, minlength=len(annotator_ids)
            ).astype(np.int64),
            ratings=ratings,
        )


def _per_item(names: dict[int, str], ids: NDArray[np.int64]) -> list[str]:
    """``[names[i] for i in ids]`` for (n,) int ``ids``, by a search among the sorted keys
    rather than a dict look-up per item: a third of a million items ask a quarter of a million
    documents, whose dict does not stay in the CPU's caches (``bench_gui_scale.py``
    Agreement).

    Raises:
        KeyError: an id that ``names`` lacks.
    """
    keys = np.fromiter(names, dtype=np.int64, count=len(names))
    values = np.empty(len(names), dtype=object)
    values[:] = list(names.values())
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    wanted = np.asarray(ids, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    if len(wanted) and (len(keys) == 0 or not bool((keys[at] == wanted).all())):
        missing = wanted if len(keys) == 0 else wanted[keys[at] != wanted]
        raise KeyError(int(missing[0]))
    found: list[str] = values[at].tolist()
    return found


def _items(
    query: NDArray[np.int64], doc: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The distinct (query, document) pairs sorted (by query, then document), and each row's
    index among them.

    One int64 key per pair when both ids are below 2**31 (every database but one with
    ids set by hand); else the pairs are compared as rows (slower, any ids)."""
    if len(query) == 0 or max(int(query.max()), int(doc.max())) < 1 << 31:
        keys, index = np.unique((query << 32) | doc, return_inverse=True)
        return keys >> 32, keys & 0xFFFFFFFF, np.asarray(index, dtype=np.int64).reshape(-1)
    pairs, index = np.unique(np.stack((query, doc), axis=1), axis=0, return_inverse=True)
    return (
        np.ascontiguousarray(pairs[:, 0]),
        np.ascontiguousarray(pairs[:, 1]),
        np.asarray(index, dtype=np.int64).reshape(-1),
    )
