"""Reading one scoring's data: results and judgments from storage, mapped to dense indices,
annotators' grades reduced to one consensus grade per (query, document).

The rows come from :mod:`ndcg_studio.storage.queries.scoring_input` as numpy arrays of
database ids; here they are mapped to dense indices, reduced by
:func:`ndcg_studio.domain.consensus.consensus_qrels` (an adjudicated grade wins) and assembled
into the domain's :class:`~ndcg_studio.domain.metrics.measures.RankedLists` and
:class:`~ndcg_studio.domain.metrics.measures.Qrels`.

Groups: every selected run × every query that has a result in a selected run or a judgment,
run by run (names ascending), queries by database id; group = run_index * n_queries + q.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoreTable, score
from ndcg_studio.io.errors import InputError
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.freed_memory import return_freed_memory
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import in_memory
from ndcg_studio.storage.queries import names
from ndcg_studio.storage.queries import scoring_input as rows

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

__all__ = ["ScoringData", "complete_rr", "load_scoring_data"]


@dataclass(frozen=True, eq=False)
class ScoringData:
    """Everything read from the database for one scoring, as dense-index numpy arrays.

    Attributes:
        query_ids: (n_queries,) int64 database ids of the scored queries (ascending).
        query_external: external ids of those queries.
        run_ids: (n_runs,) int64 database ids of the runs (in name order); run_names likewise.
        doc_ids: (n_docs,) int64 database ids of the documents seen.
        lists: the ranked lists, one group per (run, query): group = run_index * n_queries + q.
            Positions encode the run order; ``lists.score`` holds the run's scores only when
            whole lists were read (``truncated_at`` None), else zeros.
        qrels: one grade per judged (query, document) after consensus/adjudication.
        judgments: the raw judgments (query index, doc index, annotator id, grade).
        n_annotators: (n_queries,) int64 distinct annotators who judged each query.
        n_returned: (n_groups,) int64 length of each group's whole list (counted in SQL).
        truncated_at: K when ``lists`` holds only each list's top K (default ideal), else None.
        order_column: ``position`` (trec_eval order) or ``rank`` (the file's rank column).
        query_text: each query's text ('' when it has none), read only when asked for.
    """

    query_ids: NDArray[np.int64]
    query_external: list[str]
    run_ids: NDArray[np.int64]
    run_names: list[str]
    doc_ids: NDArray[np.int64]
    lists: RankedLists
    qrels: Qrels
    judgments: NDArray[Any]
    n_annotators: NDArray[np.int64]
    n_returned: NDArray[np.int64]
    truncated_at: int | None = None
    order_column: str = "position"
    #: the text of each query (``query_ids`` order) when read with ``texts=True``, else None
    query_text: list[str] | None = None

    @property
    def n_queries(self) -> int:
        return int(self.query_ids.shape[0])


@dataclass(frozen=True)
class ScoringRead:
    """What one scoring reads: the runs, grades and cutoff of ``settings``, optionally only the
    queries ``query_ids`` (database ids), and how much of each list (see
    :func:`load_scoring_data`): ``whole`` every result, ``lengths`` a count of every whole list,
    ``texts`` the queries' texts, ``lean`` freed memory given back between the steps."""

    settings: ScoringSettings
    query_ids: Sequence[int] | None = None
    whole: bool = False
    lengths: bool = True
    texts: bool = False
    lean: bool = False


def load_scoring_data(
    conn: Connection,
    read: ScoringRead,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    *,
    engine: Engine | None = None,
) -> ScoringData:
    """Read and index everything the scoring ``read`` describes, on the caller's connection.

    With the default ideal (all judged documents) only results within the cutoff are read
    (``position <= K``), with each list's length counted in SQL; the lists of groups whose
    first relevant document lies below K are read in full afterwards (for RR, see
    :func:`complete_rr`). ``ideal="list"``, ``order="rank"`` and ``query_ids`` (the per-query
    breakdown) need every result and read them all, with the run's scores. ``whole=True``
    reads every result too, without the scores (measures that look below K,
    :mod:`ndcg_studio.services.scoring.incomplete`).

    ``engine``: the list lengths, judgments, adjudications and query names (``texts=True``:
    and texts, :attr:`ScoringData.query_text`) are read on a second connection of it in a
    helper thread while ``conn`` reads the results, and the consensus computed there (SQLite
    and numpy sorts run without the GIL; ``bench_gui_scale.py`` Review; not for a database in
    memory). ``lean``: freed memory given back (:mod:`~ndcg_studio.services.freed_memory`).

    ``lengths=False``: no SQL count of every whole list; with the top K read, ``n_returned``
    counts each list down to K (not enough for the RR of :func:`complete_rr`).

    Raises:
        LookupError: an unknown run or annotator name (the message lists the known ones).
        InputError: ``order="rank"`` for a run whose ranks cannot order it.
    """
    settings, query_ids, whole = read.settings, read.query_ids, read.whole
    lengths, texts, lean = read.lengths, read.texts, read.lean
    run_names_by_id = names.run_names(conn)
    run_ids = _lookup(run_names_by_id, settings.runs, "run") if settings.runs else []
    run_ids = run_ids or sorted(run_names_by_id, key=lambda i: run_names_by_id[i])
    checkpoint(0, 4, progress, cancelled)
    order = _order_column(conn, settings, run_ids)
    # The breakdown and the whole-list measures read whole lists; scoring everything the top
    # K, by position (ranks as written may start anywhere and leave gaps: not the top K).
    truncated = settings.ideal == "judged" and query_ids is None and order == "position"
    truncated = truncated and not whole
    single = _single_annotator(conn, settings)
    how = _How(truncated, whole, single, lengths or not truncated, texts, lean)
    res, beside = _read_rows(conn, engine, settings, run_ids, query_ids, how, progress, cancelled)
    checkpoint(2, 4, progress, cancelled)
    data = _assemble(res, beside, run_ids)
    del res, beside  # the rows as read (copied into ``data``), before the caller scores
    if lean:
        return_freed_memory()
    checkpoint(3, 4, progress, cancelled)
    return replace(
        data,
        run_names=[run_names_by_id[i] for i in run_ids],
        truncated_at=settings.k if truncated else None,
        order_column=order,
    )


def _order_column(
    conn: Connection, settings: ScoringSettings, run_ids: list[int]
) -> rows.OrderColumn:
    """The column that orders the lists: ``position`` (trec_eval's order) or ``rank``.

    Raises:
        InputError: ``order="rank"`` for a run whose ranks cannot order it.
    """
    if settings.order == "score":
        return "position"
    problem = rows.rank_problem(conn, run_ids)
    if problem is not None:
        raise InputError(f"{problem[1]} (run {problem[0]!r}: --order rank is not possible)")
    return "rank"


@dataclass(frozen=True)
class _How:
    """How :func:`load_scoring_data` reads (internal)."""

    truncated: bool  # each list's top K only
    whole: bool  # every result, without the scores
    single: int | None  # the one annotator whose judgments are read (None: all of them)
    lengths: bool  # count the lists' lengths in SQL
    texts: bool  # read the queries' texts with their names
    lean: bool  # return freed memory to the system between the steps


@dataclass(frozen=True, eq=False)
class _Beside:
    """What is read (and computed) beside the results (internal): the lists' lengths (None:
    not counted), the judgments and adjudications as read (database ids), the consensus
    grades of the judgments by database ids, and the queries' names (and texts)."""

    counts: NDArray[Any] | None
    jud: NDArray[Any]
    adj: NDArray[Any]
    qrels: Qrels
    query_names: dict[int, str]
    query_texts: dict[int, str] | None


def _read_rows(
    conn: Connection,
    engine: Engine | None,
    settings: ScoringSettings,
    run_ids: list[int],
    query_ids: Sequence[int] | None,
    how: _How,
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> tuple[dict[str, NDArray[Any]], _Beside]:
    """The results, and what goes beside them (:class:`_Beside`), as :func:`load_scoring_data`
    reads them: with an ``engine`` (a file), the latter on a second connection in a helper
    thread."""
    chosen = run_ids if settings.runs else None  # all runs: no filter (see read_results)

    def beside_results(other: Connection) -> _Beside:
        counts = None
        if how.lengths:
            counts = (
                rows.count_results(other, chosen, query_ids)
                if run_ids
                else np.zeros(0, rows.COUNT_DTYPE)
            )
        jud = rows.read_judgments(other, query_ids=query_ids, annotator=how.single)
        adj = (
            rows.read_adjudications(other, query_ids=query_ids)
            if settings.annotator is None
            else np.zeros(0, rows.ADJUDICATION_DTYPE)
        )
        # by database ids: they order as the dense indices do (see _assemble)
        qrels = _qrels(jud, adj, settings)
        if how.lean:
            return_freed_memory()  # the texts read and the consensus's temporaries
        if how.texts:
            query_names, texts = names.query_names_and_texts(other)
            return _Beside(counts, jud, adj, qrels, query_names, texts)
        return _Beside(counts, jud, adj, qrels, names.query_external_ids(other), None)

    if engine is None or in_memory(engine.url):
        res = _read_results(conn, settings, run_ids, query_ids, how.truncated, how.whole)
        checkpoint(1, 4, progress, cancelled)
        return res, beside_results(conn)
    with ThreadPoolExecutor(max_workers=1) as pool:
        beside = pool.submit(_on_own_connection, engine, beside_results)
        res = _read_results(conn, settings, run_ids, query_ids, how.truncated, how.whole)
        checkpoint(1, 4, progress, cancelled)
        return res, beside.result()


def _on_own_connection(engine: Engine, read: Any) -> Any:
    """``read(conn)`` on a connection of its own (a helper thread's)."""
    with engine.connect() as conn:
        return read(conn)


def _read_results(
    conn: Connection,
    settings: ScoringSettings,
    run_ids: list[int],
    query_ids: Sequence[int] | None,
    truncated: bool,
    whole: bool,
) -> dict[str, NDArray[Any]]:
    """The results to score, as columns (empty without runs)."""
    if not run_ids:
        return {name: np.zeros(0, dtype) for name, dtype in rows.RESULT_DTYPE}
    # Some runs: filtered by id. All runs: no filter (see read_results).
    chosen = run_ids if settings.runs else None
    return rows.read_results(
        conn,
        chosen,
        order="position" if settings.order == "score" else "rank",
        query_ids=query_ids,
        top_k=settings.k if truncated else None,
        # only whole lists (the breakdown shows them) read the run's scores
        with_scores=not truncated and not whole,
    )


def _single_annotator(conn: Connection, settings: ScoringSettings) -> int | None:
    """The one annotator whose judgments are read: ``settings.annotator``'s id, or the
    database's only annotator (then no annotator column is read); None for several."""
    if settings.annotator is not None:
        (single,) = _lookup(names.annotator_names(conn), [settings.annotator], "annotator")
        return single
    return rows.single_annotator(conn)


def _assemble(res: dict[str, NDArray[Any]], beside: _Beside, run_ids: list[int]) -> ScoringData:
    """Dense indices, ranked lists, consensus qrels, annotator counts and query names (and
    texts) of the rows read (run names, truncation and order column: the caller's).
    ``beside.counts`` None: the lists' lengths are those of ``res`` (every list has its first
    result there). ``res`` (the results' columns) is emptied: each column read is let go once
    used, or kept as is.

    The consensus was computed on database ids; dense indices keep their order (``_dense``),
    so mapping its rows gives what it returns on the dense indices."""
    counts, jud, adj = beside.counts, beside.jud, beside.adj
    listed = res["query"] if counts is None else counts["query"]
    query_ids_arr, q_lookup = _dense(listed, jud["query"], adj["query"])
    del listed
    doc_ids, d_lookup = _dense(res["doc"], jud["doc"], adj["doc"])
    n_q, n_runs = len(query_ids_arr), len(run_ids)
    run_lookup = _lookup_table(np.array(run_ids, dtype=np.int64))
    group = run_lookup[res.pop("run")]
    group *= n_q
    group += q_lookup[res.pop("query")]
    lists = RankedLists(
        group=group,
        doc=d_lookup[res.pop("doc")],
        score=res.pop("score"),
        rank=res.pop("position"),
        group_query=np.tile(np.arange(n_q, dtype=np.int64), n_runs),
        doc_key=np.zeros(len(doc_ids), dtype=np.int64),
    )
    if counts is None:
        n_returned = np.bincount(lists.group, minlength=n_q * n_runs).astype(np.int64)
    else:
        n_returned = np.zeros(n_q * n_runs, dtype=np.int64)
        n_returned[run_lookup[counts["run"]] * n_q + q_lookup[counts["query"]]] = counts["n"]
    jq, jd = q_lookup[jud["query"]], d_lookup[jud["doc"]]
    judgments = np.zeros(len(jud), dtype=rows.JUDGMENT_DTYPE)
    judgments["query"], judgments["doc"] = jq, jd
    judgments["annotator"], judgments["grade"] = jud["annotator"], jud["grade"]
    q, ids, texts = beside.qrels, query_ids_arr.tolist(), beside.query_texts
    return ScoringData(
        query_ids=query_ids_arr,
        query_external=[beside.query_names[i] for i in ids],
        run_ids=np.array(run_ids, dtype=np.int64),
        run_names=[],
        doc_ids=doc_ids,
        lists=lists,
        qrels=Qrels(query=q_lookup[q.query], doc=d_lookup[q.doc], grade=q.grade),
        judgments=judgments,
        n_annotators=_annotators_per_query(jq, jud["annotator"], n_q),
        n_returned=n_returned,
        query_text=None if texts is None else [texts.get(i, "") for i in ids],
    )


def _qrels(jud: NDArray[Any], adj: NDArray[Any], settings: ScoringSettings) -> Qrels:
    """One grade per judged (query, document) of the judgments ``jud`` and adjudications
    ``adj`` as read: the consensus, an adjudicated grade winning (database ids)."""
    if not len(adj) and len(jud) and jud["annotator"].min() == jud["annotator"].max():
        # One annotator: each item has one grade (a unique constraint), which every consensus
        # method returns unchanged; skip the per-item reduction.
        return Qrels(
            query=np.ascontiguousarray(jud["query"]),
            doc=np.ascontiguousarray(jud["doc"]),
            grade=jud["grade"],
        )
    adjudicated = None
    if len(adj):
        adjudicated = Qrels(query=adj["query"], doc=adj["doc"], grade=adj["grade"])
    return consensus_qrels(
        jud["query"],
        jud["doc"],
        jud["annotator"],
        jud["grade"],
        method=settings.consensus,
        adjudicated=adjudicated,
    )


def _annotators_per_query(
    jq: NDArray[np.int64], annotator: NDArray[np.int64], n_q: int
) -> NDArray[np.int64]:
    """(n_q,) int64 distinct annotators who judged each query (``jq``: dense query index of
    each judgment, ``annotator``: its annotator id)."""
    _, a_index = _dense(annotator)
    n_a = int(a_index.max(initial=-1)) + 1
    seen = np.zeros(n_q * max(n_a, 1), dtype=bool)
    seen[jq * n_a + a_index[annotator]] = True
    counts: NDArray[np.int64] = seen.reshape(n_q, max(n_a, 1)).sum(axis=1).astype(np.int64)
    return counts


def complete_rr(
    conn: Connection, data: ScoringData, table: ScoreTable, settings: ScoringSettings
) -> ScoreTable:
    """Fill in RR (and n_returned) for lists that were read only down to K.

    RR needs the first relevant document of the WHOLE list: for the groups with no relevant
    document in their top K but a longer list, the rest of their lists is read and those groups
    are scored again in full.
    """
    n_returned = data.n_returned
    if data.truncated_at is None:
        return table
    k = data.truncated_at
    need = np.flatnonzero(table.has_judgments & (table.rr == 0) & (n_returned > k))
    rr = table.rr.copy()
    if len(need):
        n_q = data.n_queries
        runs, queries = need // max(n_q, 1), need % max(n_q, 1)
        rest = rows.read_results_below(
            conn,
            sorted(set(data.run_ids[runs].tolist())),
            sorted(set(data.query_ids[queries].tolist())),
            k,
            order="position" if data.order_column == "position" else "rank",
        )
        full, qrels = _lists_with_rest(data, need, rest)
        rr[need] = score(full, qrels, settings.params()).rr[need]
    return replace(table, rr=rr, n_returned=n_returned)


def _lists_with_rest(
    data: ScoringData, need: NDArray[np.intp], rest: NDArray[Any]
) -> tuple[RankedLists, Qrels]:
    """The whole lists of the groups ``need`` (their top K from ``data``, the ``rest`` read
    below K) and the qrels re-indexed to the documents of both."""
    n_q = data.n_queries
    q_lookup, run_lookup = _lookup_table(data.query_ids), _lookup_table(data.run_ids)
    group = run_lookup[rest["run"]] * n_q + q_lookup[rest["query"]]
    keep = np.isin(group, need)
    rest, group = rest[keep], group[keep]
    doc_ids, d_lookup = _dense(data.doc_ids, rest["doc"])
    old = np.searchsorted(doc_ids, data.doc_ids)
    in_need = np.isin(data.lists.group, need)
    full = RankedLists(
        group=np.concatenate([data.lists.group[in_need], group]),
        doc=np.concatenate([old[data.lists.doc[in_need]], d_lookup[rest["doc"]]]),
        score=np.concatenate([data.lists.score[in_need], rest["score"]]),
        rank=np.concatenate([data.lists.rank[in_need], rest["position"]]),
        group_query=data.lists.group_query,
        doc_key=np.zeros(len(doc_ids), dtype=np.int64),
    )
    qrels = Qrels(query=data.qrels.query, doc=old[data.qrels.doc], grade=data.qrels.grade)
    return full, qrels


# -------------------------------------------------------------------- index helpers
def _lookup(names_by_id: dict[int, str], wanted: Sequence[str], what: str) -> list[int]:
    by_name = {v: k for k, v in names_by_id.items()}
    missing = [w for w in wanted if w not in by_name]
    if missing:
        known = ", ".join(sorted(by_name)) or "none"
        raise LookupError(f"unknown {what} {', '.join(map(repr, missing))}; known: {known}")
    return [by_name[w] for w in wanted]


def _lookup_table(ids: NDArray[np.int64]) -> NDArray[np.int64]:
    """Lookup table database id -> position of that id in ``ids`` (-1 for other ids)."""
    lookup = np.full(int(ids.max(initial=0)) + 1, -1, dtype=np.int64)
    lookup[ids] = np.arange(len(ids), dtype=np.int64)
    return lookup


def _dense(*arrays: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Sorted distinct database ids of ``arrays`` and a lookup table id -> dense index (-1 for
    absent ids). O(n + max id): faster than ``np.unique`` + ``searchsorted`` on millions of
    rows (``bench_end_to_end.py``)."""
    top = max((int(a.max()) for a in arrays if len(a)), default=-1)
    present = np.zeros(top + 1, dtype=bool)
    for a in arrays:
        present[a] = True
    ids = np.flatnonzero(present).astype(np.int64)
    return ids, _lookup_table(ids)
