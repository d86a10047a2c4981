"""Fetch a run from a live search engine: send every query of a queries file to the endpoint
(in ``concurrency`` threads, at most ``rate`` requests a second), keep each answered query's
ranked list in the journal as it arrives, and store the run once at the end through the run
import (:meth:`~ndcg_studio.services.importing.service.ImportService.import_run`): ranks are the
engine's order, scores as returned, ``k`` hits at most per query.

Queries that fail after their retries are reported (id, status, the start of the answer); then
nothing is stored unless ``keep_partial``, and the journal stays, so the same command again sends
only the queries still missing. An answer the ``[response]`` mapping cannot read stops the fetch
as bad input (the endpoint file is wrong, not the engine). The run's description records the
engine, the URL without credentials, the template's hash and the time, as one JSON object.

A run name that holds an earlier fetch is not refused: the earlier run is kept as a snapshot
named by its fetch time (:mod:`~ndcg_studio.services.fetching.snapshots`); ``replace`` replaces
it without keeping it.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ndcg_studio.io.endpoints.file import Endpoint
from ndcg_studio.io.endpoints.mapping import Hit, MappingError
from ndcg_studio.io.endpoints.template import MissingVariable
from ndcg_studio.io.errors import InputError, InputFileError, ParseIssue
from ndcg_studio.progress import Progress
from ndcg_studio.services.fetching.journal import Journal
from ndcg_studio.services.fetching.sender import Policy, Query, QueryFailed, Sender
from ndcg_studio.services.fetching.snapshots import SNAPSHOT_MARK, is_fetched, keep_snapshot
from ndcg_studio.services.importing.pieces import check_name
from ndcg_studio.services.importing.service import ImportService, RunExists
from ndcg_studio.services.judges.pacing import Pacer
from ndcg_studio.storage.bulk.imports import fill_empty_text, import_transaction
from ndcg_studio.storage.database import Database

__all__ = [
    "Failure",
    "FetchOutcome",
    "FetchService",
    "Limits",
    "read_query_file",
    "try_query",
]


@dataclass(frozen=True)
class Failure:
    """A query without a ranked list: its id, the status and the start of the answer."""

    query_id: str
    status: str
    answer: str


@dataclass
class FetchOutcome:
    """What a fetch did: queries ``sent`` now and ``reused`` from the journal, the ``failures``,
    whether the run was ``stored`` (with ``results`` rows), where the journal is, and the
    name the earlier fetch of the run was ``kept`` under (None: there was none)."""

    name: str
    queries: int
    sent: int = 0
    reused: int = 0
    results: int = 0
    stored: bool = False
    failures: list[Failure] = field(default_factory=list)
    journal: Path | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    kept: str | None = None


def read_query_file(path: str | Path, *, renumber: bool = False) -> list[Query]:
    """The queries of a file in any form ``import`` reads: a TREC topic file (classic or XML,
    with descriptions), a SMART queries file (Cranfield's ``cran.qry``; ``renumber`` numbers
    them 1..n), or a queries TSV/CSV.

    Raises:
        InputFileError: the reader's problems.
    """
    from ndcg_studio.io.smart import read_smart_queries
    from ndcg_studio.io.tabular import read_queries
    from ndcg_studio.io.topics import looks_like_topics, read_topics

    head = Path(path).read_bytes()[:65536].decode("utf-8", errors="replace")
    if looks_like_topics(head):
        q = read_topics(path)
    elif head.lstrip().startswith(".I"):
        q = read_smart_queries(path, renumber)
    else:
        q = read_queries(path)
    return [Query(*row) for row in zip(q.query_id, q.text, q.description, strict=True)]


@dataclass(frozen=True)
class Limits:
    """How a fetch may load the engine: ``k`` hits per query, ``concurrency`` requests at
    once, at most ``rate`` a second (None: unbounded), each under ``policy``."""

    k: int = 100
    concurrency: int = 4
    rate: float | None = None
    policy: Policy = field(default_factory=Policy)


class FetchService:
    """Fetches runs into one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def fetch(
        self,
        endpoint: Endpoint,
        queries: Sequence[Query],
        *,
        name: str,
        journal: Journal,
        limits: Limits = Limits(),
        keep_partial: bool = False,
        replace: bool = False,
        progress: Progress | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> FetchOutcome:
        """Fetch ``queries`` from ``endpoint`` and store them as the run ``name`` (module
        docstring).

        Raises:
            RunExists: a run ``name`` imported from a file exists and not ``replace`` (nothing
                sent); a fetched one is kept as a snapshot instead.
            InputFileError: an ``${ENV_NAME}`` that is not set (nothing sent), or an answer the
                mapping cannot read (nothing stored).
            InputError: a blank name; no hit for any query.
        """
        check_name(name, "--name")
        snapshot = not replace and name in ImportService(self.db).run_names()
        if snapshot and not is_fetched(self.db, name):
            raise RunExists(name)
        started = time.monotonic()
        sender = _sender(endpoint, limits, environ)
        outcome = FetchOutcome(name, len(queries), journal=journal.path)
        done = {
            qid: entry.hits
            for qid, entry in journal.load().items()
            if any(q.query_id == qid and q.text == entry.text for q in queries)
        }
        outcome.reused = len(done)
        todo = [q for q in queries if q.query_id not in done]
        try:
            for query, result in _answers(sender, todo, limits.concurrency):
                outcome.sent += 1
                if isinstance(result, QueryFailed):
                    outcome.failures.append(Failure(query.query_id, result.status, result.answer))
                else:
                    hits = _top(result, limits.k, outcome.notes, query.query_id)
                    journal.add(query.query_id, query.text, hits)
                    done[query.query_id] = hits
                if progress is not None:
                    progress(len(done) + len(outcome.failures), len(queries))
        finally:
            sender.close()
            journal.close()
        outcome.seconds = time.monotonic() - started
        if outcome.failures and not keep_partial:
            return outcome
        lists = {q.query_id: done[q.query_id] for q in queries if q.query_id in done}
        if snapshot:  # stored beside the earlier fetch, then the names change in one step
            fresh = f"{name}{SNAPSHOT_MARK}fetching"
            outcome.results = self._store(endpoint, fresh, True, lists, queries, limits.k)
            outcome.kept = keep_snapshot(self.db, name, fresh)
        else:
            outcome.results = self._store(endpoint, name, replace, lists, queries, limits.k)
        outcome.stored = True
        journal.remove()
        return outcome

    def _store(
        self,
        endpoint: Endpoint,
        name: str,
        replace: bool,
        lists: Mapping[str, list[Hit]],
        queries: Sequence[Query],
        k: int,
    ) -> int:
        """Store the lists as the run ``name``, then the texts the database lacks."""
        if not any(lists.values()):
            raise InputError(
                f"{endpoint.path}: the engine returned no hits for any of the "
                f"{len(lists)} queries fetched; nothing was stored"
            )
        description = json.dumps(
            {
                "fetched": endpoint.engine,
                "endpoint": endpoint.name,
                "url": endpoint.shown_url(),
                "template_sha256": endpoint.template_hash(),
                "k": k,
                "at": datetime.now(UTC).isoformat(timespec="seconds"),
            },
            separators=(",", ":"),
        )
        with tempfile.TemporaryDirectory(prefix="ndcg-fetch-") as folder:
            path = Path(folder) / f"{endpoint.engine}.run"
            with open(path, "w", encoding="utf-8") as handle:
                handle.writelines(_trec_lines(lists))
            summary = ImportService(self.db).import_run(
                path, name=name, replace=replace, description=description
            )
        _fill_texts(self.db, lists, queries)
        return summary.counts.get("results", 0)


def _trec_lines(lists: Mapping[str, list[Hit]]) -> Iterator[str]:
    for qid, hits in lists.items():
        for rank, hit in enumerate(hits, start=1):
            yield f"{qid} Q0 {hit.doc_id} {rank} {hit.score!r} fetch\n"


def _fill_texts(db: Database, lists: Mapping[str, list[Hit]], queries: Sequence[Query]) -> None:
    """The fetched titles and texts, and the queries' texts, where the database has none."""
    docs: dict[str, Hit] = {}
    for hits in lists.values():
        for hit in hits:
            if hit.title or hit.text:
                docs.setdefault(hit.doc_id, hit)
    asked = [q for q in queries if q.query_id in lists]
    with import_transaction(db.engine) as conn:
        if docs:
            ids = list(docs)
            columns = {"title": [docs[d].title for d in ids], "text": [docs[d].text for d in ids]}
            fill_empty_text(conn, "documents", ids, columns)
        fill_empty_text(
            conn,
            "queries",
            [q.query_id for q in asked],
            {"text": [q.text for q in asked], "description": [q.description for q in asked]},
        )


def _top(answer: list[Hit], k: int, notes: list[str], query_id: str) -> list[Hit]:
    """The first ``k`` distinct documents of a mapped answer (a repeated document keeps its
    first place, and a note says so)."""
    seen: set[str] = set()
    hits: list[Hit] = []
    for hit in answer:
        if hit.doc_id in seen:
            notes.append(f"query {query_id}: document {hit.doc_id} repeated; first place kept")
            continue
        seen.add(hit.doc_id)
        hits.append(hit)
    return hits[:k]


def _unreadable(
    endpoint: Endpoint, exc: MappingError, query: Query, answer: object
) -> InputFileError:
    """The endpoint file's problem when its ``[response]`` mapping cannot read ``answer``:
    ``FILE:LINE: response.FIELD: message (the answer to query ID: …)``."""
    quoted = json.dumps(answer, ensure_ascii=False)[:200]
    issue = ParseIssue(
        endpoint.path,
        endpoint.lines.get(exc.field, 0),
        f"response.{exc.field}",
        f"{exc.message} (the answer to query {query.query_id}: {quoted})",
    )
    return InputFileError([issue])


def _sender(endpoint: Endpoint, limits: Limits, environ: Mapping[str, str] | None) -> Sender:
    """The sender of ``endpoint``.

    Raises:
        InputFileError: an ``${ENV_NAME}`` of the file is not set.
    """
    try:
        return Sender(
            endpoint,
            limits.k,
            limits.policy,
            Pacer(limits.rate),
            connections=limits.concurrency,
            environ=environ,
        )
    except MissingVariable as exc:
        issue = ParseIssue(endpoint.path, 0, f"${{{exc.name}}}", "not set in the environment")
        raise InputFileError([issue]) from None


def try_query(
    endpoint: Endpoint,
    query: Query,
    limits: Limits = Limits(),
    environ: Mapping[str, str] | None = None,
) -> list[Hit]:
    """Send one query as a fetch would (the same request, retries and mapping) and return its
    ranked hits, the first ``limits.k`` distinct documents; nothing is stored.

    Raises:
        QueryFailed: no usable answer (the status and the start of the answer).
        InputFileError: an ``${ENV_NAME}`` that is not set, or an answer the mapping cannot
            read (``FILE:LINE: response.FIELD: …``).
    """
    sender = _sender(endpoint, limits, environ)
    try:
        answer = sender.answer(query)
    finally:
        sender.close()
    try:
        hits = endpoint.mapping.hits(answer)
    except MappingError as exc:
        raise _unreadable(endpoint, exc, query, answer) from None
    return _top(hits, limits.k, [], query.query_id)


def _answers(
    sender: Sender, queries: Sequence[Query], concurrency: int
) -> Iterator[tuple[Query, list[Hit] | QueryFailed]]:
    """Each query with its mapped hits or its failure, as they complete.

    Raises:
        InputFileError: an answer the mapping cannot read (the requests not yet sent are
            dropped).
    """
    stop = threading.Event()

    def one(query: Query) -> list[Hit] | QueryFailed:
        if stop.is_set():
            return QueryFailed("not sent")
        try:
            answer = sender.answer(query)
        except QueryFailed as failure:
            return failure
        try:
            return sender.endpoint.mapping.hits(answer)
        except MappingError as exc:
            stop.set()
            raise _unreadable(sender.endpoint, exc, query, answer) from None

    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="fetch") as pool:
        pending: dict[Future[list[Hit] | QueryFailed], Query] = {}
        queue = iter(queries)
        try:
            for query in queue:
                pending[pool.submit(one, query)] = query
                if len(pending) >= 2 * concurrency:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    query = pending.pop(future)
                    yield query, future.result()
                    following = next(queue, None)
                    if following is not None:
                        pending[pool.submit(one, following)] = following
        finally:
            stop.set()
            for future in pending:
                future.cancel()
