"""Import use cases: every file kind in ONE transaction — all of it is written, or nothing.

Readers (:mod:`ndcg_studio.io`) parse and validate the whole file (errors name file, line and
field); only a clean file is committed, through SQLAlchemy Core bulk statements
(:mod:`ndcg_studio.storage.bulk`). Run and qrels imports start creating or looking up the
documents inside the transaction while the rest of the file is still being checked; a refused
or cancelled file rolls all of it back. Queries, documents and annotators that do not exist yet are
created by their external id. Re-importing the same file changes nothing; re-importing judgments
with new grades updates them; the database records every created and changed judgment (old and
new grade and note, whose, when) in ``judgment_history``, by the same rule as the app's writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Connection, bindparam, delete, func, select, update
from sqlalchemy.exc import DataError, IntegrityError

from ndcg_studio.domain.ordering import trec_positions_of_docs
from ndcg_studio.io.errors import MAX_ISSUES, InputError, InputFileError, ParseIssue
from ndcg_studio.io.tabular import DocumentsFile, QueriesFile
from ndcg_studio.services.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.wording import count
from ndcg_studio.storage import models
from ndcg_studio.storage.bulk import (
    bulk_insert,
    bulk_insert_columns,
    bulk_transaction,
    column_by_id,
    fetch_array,
    ids_of_inserted,
    insert_distinct,
    is_empty,
    map_external_ids,
    upsert,
)
from ndcg_studio.storage.database import Database, in_memory
from ndcg_studio.vocabulary import IMPORT_KINDS


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


def _stage(progress: Progress | None, base: int, span: int) -> Progress | None:
    """Map a reader's progress (0..total) into [base, base + span] of 100 steps."""
    if progress is None:
        return None

    def report(done: int, total: int) -> None:
        progress(base + (span * done) // max(total, 1), 100)

    return report


class ImportService:
    """Imports files into one database. Each call is one transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def import_file(
        self,
        kind: str,
        path: str | Path,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        **options: Any,
    ) -> ImportSummary:
        """Dispatch to ``import_<kind>``; options are that method's keyword arguments.

        Raises:
            InputFileError: as the method, and ``FILE:0: database: ...`` when the database
                refuses a row the readers let through (a constraint or a value the server
                cannot store) — the readers' checks are meant to make that impossible; the
                transaction is rolled back either way.
        """
        if kind not in IMPORT_KINDS:
            raise ValueError(f"unknown import kind {kind!r}; one of {', '.join(IMPORT_KINDS)}")
        method: Callable[..., ImportSummary] = getattr(self, f"import_{kind}")
        try:
            return method(path, progress=progress, cancelled=cancelled, **options)
        except (IntegrityError, DataError) as exc:
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
            raise InputFileError(
                [ParseIssue(str(path), 0, "database", f"the database refused a row: {reason}")]
            ) from None

    # ------------------------------------------------------------------ runs
    def import_run(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        description: str = "",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import a TREC run ``qid Q0 docno rank score tag`` as the run ``name`` (default: the tag).

        A run of the same name is replaced (its results deleted and written anew) — the same
        file imported twice leaves the same rows.

        Raises:
            InputFileError: a malformed file (nothing written).
            InputError: several tags in the file and no ``name``.
        """
        from ndcg_studio.io.trec import read_trec_run_chunks

        if name is not None:
            _check_name(name, "--name")
        with bulk_transaction(self.db.engine) as conn, _documents_meanwhile(conn) as documents:
            # The file is read, checked and given database ids piece by piece (~1M lines):
            # only numpy columns of the whole file are kept. Each piece's documents are looked
            # up (or created) in a helper thread while this thread parses and checks the
            # piece's values and puts its results in trec_eval's order. Nothing is committed
            # before the last piece has been checked.
            parts: list[dict[str, NDArray[Any]]] = []
            tags: dict[str, None] = {}
            rank_problems: list[str | None] = []  # one per piece
            query_names: dict[int, str] = {}
            piece_queries: list[NDArray[np.int64]] = []  # the distinct queries of each piece
            q_new = d_new = 0
            for run in read_trec_run_chunks(
                path,
                progress=_stage(progress, 0, 60),
                cancelled=cancelled,
                on_doc_ids=documents.start,
            ):
                tags.update(dict.fromkeys(run.tags))
                rank_problems.append(run.rank_problem)
                q_ext, q_inv = factorize(run.query_id)
                positions = trec_positions_of_docs(q_inv, run.score, run.doc_id)
                doc_ids, created = documents.result()
                d_new += created
                q_ids, created = map_external_ids(
                    conn, models.queries, q_ext, defaults={"text": ""}
                )
                q_new += created
                query_names.update(zip(q_ids.tolist(), q_ext, strict=True))
                piece_queries.append(q_ids)
                parts.append(
                    {
                        "query": q_ids[q_inv],
                        "doc": doc_ids,
                        "rank": run.rank,
                        "usable": run.rank_usable,
                        "score": run.score,
                        "line": run.line,
                        "position": positions,
                    }
                )
                del run, q_inv, positions, doc_ids
            checkpoint(60, 100, progress, cancelled)
            if name is None:
                if len(tags) != 1:
                    tag_list = list(tags)
                    raise InputError(
                        f"{path}: the file has {len(tags)} run tags "
                        f"({', '.join(tag_list[:5])}); give the run's name with --name"
                    )
                name = next(iter(tags))
            cols = _concatenate(parts)
            if len(piece_queries) > 1:
                _refuse_repeats(
                    conn,
                    str(path),
                    (cols["query"], cols["doc"]),
                    cols["line"],
                    query_names,
                    None,
                    "appears",
                )
                _reposition_split_queries(conn, piece_queries, cols)
            rank_problem = _rank_problem(str(path), cols, rank_problems, query_names)
            n_lines = len(cols["query"])
            summary = ImportSummary("run", str(path), n_lines)
            checkpoint(65, 100, progress, cancelled)
            run_id = conn.execute(
                select(models.runs.c.id).where(models.runs.c.name == name)
            ).scalar_one_or_none()
            replaced = run_id is not None
            if run_id is None:
                run_id = conn.execute(
                    models.runs.insert().values(
                        name=name, description=description, rank_problem=rank_problem
                    )
                ).inserted_primary_key[0]  # type: ignore[index]
            else:
                conn.execute(delete(models.results).where(models.results.c.run_id == run_id))
                conn.execute(
                    update(models.runs)
                    .where(models.runs.c.id == run_id)
                    .values(rank_problem=rank_problem)
                )
            checkpoint(70, 100, progress, cancelled)
            n = 0
            for start in range(0, n_lines, _INSERT_SLICE):
                part = slice(start, start + _INSERT_SLICE)
                ranks: list[int | None] = cols["rank"][part].tolist()
                usable = cols["usable"][part]
                if not usable.all():  # ranks that are not 32-bit integers: NULL
                    ranks = [
                        r if ok else None for r, ok in zip(ranks, usable.tolist(), strict=True)
                    ]
                rows = zip(
                    cols["query"][part].tolist(),
                    cols["doc"][part].tolist(),
                    ranks,
                    cols["position"][part].tolist(),
                    cols["score"][part].tolist(),
                    strict=True,
                )
                n += bulk_insert(
                    conn,
                    models.results,
                    ("query_id", "document_id", "rank", "position", "score"),
                    rows,
                    constants={"run_id": int(run_id)},
                )
                checkpoint(
                    70 + 29 * min(n_lines, start + _INSERT_SLICE) // n_lines,
                    100,
                    progress,
                    cancelled,
                )
        summary.counts = {
            "results": n,
            "queries created": q_new,
            "documents created": d_new,
        }
        summary.notes.append(f"run {name!r} {'replaced' if replaced else 'created'}")
        return summary

    # ------------------------------------------------------------ judgments
    def import_qrels(
        self,
        path: str | Path,
        *,
        annotator: str | None = None,
        annotator_column: bool = False,
        grade_map: Mapping[int, int] | None = None,
        source: str | None = None,
        source_kind: str = "human",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import TREC qrels ``qid iter docno grade`` as judgments of ``annotator`` (default:
        the file's stem), or of the annotator named in the 2nd column; with ``source``, those
        annotators are put into that judgment source (``source_kind`` human, vendor or model,
        :func:`ndcg_studio.services.stability.assign_source`)."""
        from ndcg_studio.io.trec import read_trec_qrels_chunks

        if annotator is not None:
            _check_name(annotator, "--annotator")
        default_name = annotator or Path(path).stem
        with bulk_transaction(self.db.engine) as conn, _documents_meanwhile(conn) as documents:
            # piece by piece, as import_run: the documents of each piece are looked up in the
            # helper while this thread checks the piece's values
            parts: list[dict[str, NDArray[Any]]] = []
            query_names: dict[int, str] = {}
            annotator_names: dict[int, str] = {}
            q_new = d_new = a_new = 0
            for qrels in read_trec_qrels_chunks(
                path,
                grade_map=grade_map,
                annotator_column=annotator_column,
                progress=_stage(progress, 0, 40),
                cancelled=cancelled,
                on_doc_ids=documents.start,
            ):
                q_ext, q_inv = factorize(qrels.query_id)
                if qrels.annotator is not None:
                    a_ext, a_inv = factorize(qrels.annotator)
                else:
                    a_ext, a_inv = [default_name], np.zeros(len(qrels), dtype=np.int64)
                did, created = documents.result()
                d_new += created
                q_ids, created = map_external_ids(
                    conn, models.queries, q_ext, defaults={"text": ""}
                )
                q_new += created
                a_ids, created = map_external_ids(conn, models.annotators, a_ext, key="name")
                a_new += created
                query_names.update(zip(q_ids.tolist(), q_ext, strict=True))
                annotator_names.update(zip(a_ids.tolist(), a_ext, strict=True))
                parts.append(
                    {
                        "query": q_ids[q_inv],
                        "doc": did,
                        "annotator": a_ids[a_inv],
                        "grade": qrels.grade,
                        "line": qrels.line,
                    }
                )
                del qrels, q_inv, a_inv, did
            pieces = len(parts)
            cols = _concatenate(parts)
            if pieces > 1:
                key = (cols["query"], cols["doc"], cols["annotator"])
                by = annotator_names if annotator_column else None  # as the reader says it
                _refuse_repeats(conn, str(path), key, cols["line"], query_names, by, "is judged")
            summary = self._write_judgment_ids(
                conn,
                "qrels",
                str(path),
                cols["query"],
                cols["doc"],
                cols["annotator"],
                cols["grade"],
                None,
                progress,
                cancelled,
            )
            summary.counts.update(
                {"queries created": q_new, "documents created": d_new, "annotators created": a_new}
            )
            _into_source(conn, summary, list(annotator_names.values()), source, source_kind)
            return summary

    def import_judgments(
        self,
        path: str | Path,
        *,
        grade_map: Mapping[int, int] | None = None,
        source: str | None = None,
        source_kind: str = "human",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import a CSV/TSV with header ``query_id,doc_id,annotator,grade[,note]`` (a model's
        ``explanation`` column is kept as the note); ``source``: as :meth:`import_qrels`."""
        from ndcg_studio.io.tabular import read_judgments_csv

        j = read_judgments_csv(
            path, grade_map=grade_map, progress=_stage(progress, 0, 40), cancelled=cancelled
        )
        with bulk_transaction(self.db.engine) as conn, _documents_meanwhile(conn) as documents:
            documents.start(j.doc_id)
            summary = self._write_judgments(
                conn,
                documents,
                "judgments",
                str(path),
                j.query_id,
                j.annotator,
                j.grade,
                j.note if j.has_notes else None,  # a wide file keeps the stored notes
                progress,
                cancelled,
            )
            _into_source(conn, summary, j.annotator, source, source_kind)
            return summary

    def _write_judgments(
        self,
        conn: Connection,
        documents: _DocumentsMeanwhile,
        kind: str,
        path: str,
        query_ext: Sequence[str],
        annotator_names: Sequence[str],
        grade: NDArray[np.int64],
        note: Sequence[str | None] | None,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        """Write judgments inside the caller's transaction on ``conn``; ``documents`` has been
        started with the lines' document ids."""
        q_ext, q_inv = factorize(query_ext)
        a_ext, a_inv = factorize(annotator_names)
        checkpoint(40, 100, progress, cancelled)
        did, d_new = documents.result()
        q_ids, q_new = map_external_ids(conn, models.queries, q_ext, defaults={"text": ""})
        a_ids, a_new = map_external_ids(conn, models.annotators, a_ext, key="name")
        summary = self._write_judgment_ids(
            conn, kind, path, q_ids[q_inv], did, a_ids[a_inv], grade, note, progress, cancelled
        )
        summary.counts.update(
            {"queries created": q_new, "documents created": d_new, "annotators created": a_new}
        )
        return summary

    def _write_judgment_ids(
        self,
        conn: Connection,
        kind: str,
        path: str,
        qid: NDArray[np.int64],
        did: NDArray[np.int64],
        aid: NDArray[np.int64],
        grade: NDArray[np.int64],
        note: Sequence[str | None] | None,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        """Write judgments given by database ids (``(n,)`` int64 each) inside the caller's
        transaction; the summary's counts are the judgments'."""
        n = len(qid)
        summary = ImportSummary(kind, path, n)
        checkpoint(60, 100, progress, cancelled)
        existing = _existing_judgments(conn, np.unique(aid))
        old_key, new_key = _item_keys(
            (existing["query"], existing["doc"], existing["annotator"]), (qid, did, aid)
        )
        found, match = _match(old_key, new_key)
        old_grade = np.zeros(n, dtype=np.int64)  # meaningful where found
        old_grade[found] = existing["grade"][match[found]]
        old_id = np.full(n, -1, dtype=np.int64)
        old_id[found] = existing["id"][match[found]]
        notes = list(note) if note is not None else [None] * n
        changed = found & (old_grade != grade)
        # old notes: of every existing judgment when the file has notes (to compare), else
        # only of those whose grade changes (their note is written back unchanged)
        old_notes: dict[int, str | None] = column_by_id(
            conn, models.judgments, old_id[found if note is not None else changed], "note"
        )
        if note is not None:
            changed |= found & np.array(
                [notes[i] != old_notes.get(j) for i, j in enumerate(old_id.tolist())],
                dtype=bool,
            )
        fresh = ~found
        checkpoint(70, 100, progress, cancelled)
        idx_new = np.flatnonzero(fresh)
        # insert in the order of the unique index (query, document, annotator)
        idx_new = idx_new[np.lexsort((aid[idx_new], did[idx_new], qid[idx_new]))]
        # SQLite: one UTC timestamp for the import, written as CURRENT_TIMESTAMP writes it
        # (evaluating that default per row costs ~0.3 s a million rows); PostgreSQL's COPY
        # leaves the columns to the server's default.
        now = models.utcnow().strftime("%Y-%m-%d %H:%M:%S")
        stamps = {"created_at": now, "updated_at": now} if self.db.is_sqlite else None
        fresh_rows = {
            "query_id": qid[idx_new],
            "document_id": did[idx_new],
            "annotator_id": aid[idx_new],
            "grade": grade[idx_new],
        }
        fresh_notes = [notes[i] for i in idx_new.tolist()] if note is not None else []
        if not any(fresh_notes):  # integers only (qrels; a CSV without notes): SQLite packs them
            for start in range(0, len(idx_new), _INSERT_SLICE):  # bounded memory
                part = slice(start, start + _INSERT_SLICE)
                sliced = {c: v[part] for c, v in fresh_rows.items()}
                bulk_insert_columns(conn, models.judgments, sliced, constants=stamps)
        else:
            columns = [a.tolist() for a in fresh_rows.values()]
            columns.append(fresh_notes)
            bulk_insert(
                conn,
                models.judgments,
                [*fresh_rows, "note"],
                zip(*columns, strict=True),
                constants=stamps,
            )
        idx_chg = np.flatnonzero(changed)
        if len(idx_chg):
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
                        "jid": int(old_id[i]),
                        "new_grade": int(grade[i]),
                        "new_note": notes[i] if note is not None else old_notes[int(old_id[i])],
                    }
                    for i in idx_chg.tolist()
                ],
            )
        # The history of every created and changed judgment is written by the database's
        # triggers (migration 0004), as for the app's writes.
        checkpoint(99, 100, progress, cancelled)
        summary.counts = {
            "judgments created": len(idx_new),
            "judgments updated": len(idx_chg),
            "unchanged": int(n - len(idx_new) - len(idx_chg)),
        }
        return summary

    # ------------------------------------------------------------ catalogue
    def import_queries(
        self,
        path: str | Path,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import query texts: TREC topics TSV ``qid<TAB>text`` or CSV ``query_id,text,...``."""
        from ndcg_studio.io.tabular import read_queries

        q = read_queries(path, progress=_stage(progress, 0, 50), cancelled=cancelled)
        return self._write_queries(str(path), q, progress, cancelled)

    def import_topics(
        self,
        path: str | Path,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import a TREC topic file (``<top>`` records or ``<topic number=…>`` XML): each
        query's title as its text, with its description and narrative (io/topics.py)."""
        from ndcg_studio.io.topics import read_topics

        return self._write_queries(str(path), read_topics(path), progress, cancelled)

    def import_documents(
        self,
        path: str | Path,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import documents: CSV ``doc_id,title,text,url`` or JSONL with those keys."""
        from ndcg_studio.io.tabular import read_documents

        d = read_documents(path, progress=_stage(progress, 0, 50), cancelled=cancelled)
        return self._write_documents(str(path), d, progress, cancelled)

    def import_smart(
        self,
        path: str | Path,
        *,
        smart_kind: str | None = None,
        renumber: bool = False,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import a SMART file (Cranfield): documents ``.I .T .A .B .W`` or queries ``.I .W``.

        ``smart_kind`` None guesses: a file with ``.T`` fields holds documents.
        """
        from ndcg_studio.io.smart import read_smart_documents, read_smart_queries

        if smart_kind is None:
            head = Path(path).read_bytes()[:65536]
            smart_kind = "documents" if b"\n.T" in head or head.startswith(b".T") else "queries"
        if smart_kind == "documents":
            d = read_smart_documents(path, progress=_stage(progress, 0, 50), cancelled=cancelled)
            return self._write_documents(str(path), d, progress, cancelled)
        q = read_smart_queries(
            path, renumber=renumber, progress=_stage(progress, 0, 50), cancelled=cancelled
        )
        return self._write_queries(str(path), q, progress, cancelled)

    def _write_queries(
        self,
        path: str,
        q: QueriesFile,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        rows: dict[str, Sequence[str | None]] = {
            "text": _text(q.text),
            "description": q.description,
            "narrative": q.narrative,
        }
        return self._upsert_catalog(
            "queries", path, models.queries, q.query_id, rows, progress, cancelled
        )

    def _write_documents(
        self,
        path: str,
        d: DocumentsFile,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        rows = {"title": _text(d.title), "text": _text(d.text), "url": _text(d.url)}
        return self._upsert_catalog(
            "documents", path, models.documents, d.doc_id, rows, progress, cancelled
        )

    def _upsert_catalog(
        self,
        kind: str,
        path: str,
        table: Any,
        external_ids: Sequence[str],
        columns: Mapping[str, Sequence[Any]],
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        n = len(external_ids)
        summary = ImportSummary(kind, path, n)
        checkpoint(50, 100, progress, cancelled)
        created = 0
        with bulk_transaction(self.db.engine) as conn:
            # in slices, so that the progress moves and Cancel is heard (~0.2 s a slice)
            for start in range(0, n, _UPSERT_SLICE):
                part = slice(start, start + _UPSERT_SLICE)
                created += upsert(
                    conn,
                    table,
                    "external_id",
                    {"external_id": external_ids[part], **{c: v[part] for c, v in columns.items()}},
                )
                checkpoint(50 + 49 * min(n, start + _UPSERT_SLICE) // n, 100, progress, cancelled)
        summary.counts = {f"{kind} created": created, f"{kind} updated": n - created}
        return summary


#: Rows per insert statement of a chunked import (bounds the Python objects alive at once).
_INSERT_SLICE = 1_000_000


def _concatenate(parts: list[dict[str, NDArray[Any]]]) -> dict[str, NDArray[Any]]:
    """The pieces' columns joined, each piece's array let go as soon as its column is joined
    (so the peak holds the whole file's columns plus one column, not twice the columns)."""
    names = list(parts[0])
    columns = {}
    for name in names:
        columns[name] = np.concatenate([p.pop(name) for p in parts])
    parts.clear()
    return columns


def _refuse_repeats(
    conn: Connection,
    path: str,
    key: tuple[NDArray[np.int64], ...],
    line: NDArray[np.int64],
    query_names: Mapping[int, str],
    annotator_names: Mapping[int, str] | None,
    verb: str,
) -> None:
    """Refuse a (query, document[, annotator]) — database ids — that occurs twice in the file:
    the pieces check their own lines, this finds a repeat in two pieces. Messages as the
    readers' (``FILE:LINE: doc_id: ...``, naming the first line), at most 20.

    Raises:
        InputFileError: when there is a repeat (the caller's transaction then rolls back).
    """
    if not _any_repeat(key):
        return
    query, doc = key[0], key[1]
    third = key[2] if len(key) > 2 else np.zeros_like(query)
    (packed,) = _item_keys((query, doc, third))
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    if len(first) == len(packed):
        return
    repeat = np.ones(len(packed), dtype=bool)
    repeat[first] = False
    rows = np.flatnonzero(repeat)
    truncated = len(rows) > MAX_ISSUES
    rows = rows[:MAX_ISSUES]
    docs = column_by_id(conn, models.documents, doc[rows], "external_id")
    issues = []
    for row in rows.tolist():
        earlier = int(line[first[inverse[row]]])
        d, q = docs[int(doc[row])], query_names[int(query[row])]
        by = (
            "" if annotator_names is None else f" by annotator {annotator_names[int(third[row])]!r}"
        )
        text = f"document {d!r} {verb} twice for query {q!r}{by} (duplicate of line {earlier})"
        issues.append(ParseIssue(path, int(line[row]), "doc_id", text))
    raise InputFileError(issues, truncated=truncated)


def _any_repeat(columns: tuple[NDArray[np.int64], ...]) -> bool:
    """Whether some row of the non-negative integer ``columns`` occurs twice: one packed key
    sorted in place (one array of the rows' length alive), where numbering every row with
    ``np.unique`` held ~6 such arrays at once (the peak of a 10M-line import). Columns whose
    bits do not fit 63 together are checked by ``np.unique`` over the rows."""
    widths = [max(int(c.max()).bit_length(), 1) for c in columns]
    if sum(widths) > 63 or min(int(c.min()) for c in columns) < 0:
        rows = np.stack(columns, axis=1)
        return len(np.unique(rows, axis=0)) < len(rows)
    key = np.array(columns[0], dtype=np.int64)
    for column, width in zip(columns[1:], widths[1:], strict=True):
        key <<= width
        key |= column
    key.sort()
    return bool(np.any(key[1:] == key[:-1]))


def _reposition_split_queries(
    conn: Connection, piece_queries: list[NDArray[np.int64]], cols: dict[str, NDArray[Any]]
) -> None:
    """Positions of the queries whose lines are in several pieces (a file not grouped by
    query), worked out again over all their lines: each piece could order only its own part.
    Their document ids are read back from the database for trec_eval's tie-break."""
    queries, pieces = np.unique(np.concatenate(piece_queries), return_counts=True)
    split = queries[pieces > 1]
    if not len(split):
        return
    rows = np.flatnonzero(np.isin(cols["query"], split))
    doc = cols["doc"][rows]
    names = column_by_id(conn, models.documents, doc, "external_id")
    _, group = np.unique(cols["query"][rows], return_inverse=True)
    cols["position"][rows] = trec_positions_of_docs(
        group.reshape(-1), cols["score"][rows], [names[d] for d in doc.tolist()]
    )


def _rank_problem(
    path: str,
    cols: Mapping[str, NDArray[Any]],
    piece_problems: list[str | None],
    query_names: Mapping[int, str],
) -> str | None:
    """:attr:`RunFile.rank_problem` of the whole file from its pieces': the first rank that
    is not a usable integer (reported by its piece), else the first rank repeated for a query
    in any two lines (pieces see only their own)."""
    from ndcg_studio.io.trec import duplicate_rank_problem

    if len(piece_problems) == 1:
        return piece_problems[0]
    usable = cols["usable"]
    if not usable.all():
        bad_line = int(cols["line"][int(np.argmin(usable))])
        for problem in piece_problems:
            if problem is not None and problem.startswith(f"{path}:{bad_line}: "):
                return problem
    query, rank = cols["query"], cols["rank"]
    if not _any_repeat((query, rank - int(rank.min()))):
        return None
    (packed,) = _item_keys((query, rank - int(rank.min()), np.zeros_like(query)))
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    if len(first) == len(packed):
        return None
    repeat = np.ones(len(packed), dtype=bool)
    repeat[first] = False
    row = int(np.argmax(repeat))
    line = cols["line"]
    return f"{path}:" + duplicate_rank_problem(
        int(line[row]),
        int(rank[row]),
        query_names[int(query[row])],
        int(line[first[inverse[row]]]),
    )


_DOC_DEFAULTS = {"title": "", "text": "", "url": ""}
#: Rows per upsert statement batch of a queries or documents import (see _upsert_catalog).
_UPSERT_SLICE = 50_000


def _into_source(
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
    from ndcg_studio.services.stability import assign_source

    annotators = sorted(set(names))
    try:
        assign_source(conn, annotators, source, kind)
    except ValueError as exc:
        raise InputError(f"--source {source}: {exc}") from None
    summary.notes.append(f"{', '.join(annotators)} in {kind} source {source!r}")


def _text(values: Sequence[str | None]) -> list[str]:
    """Absent optional text becomes the empty string (the columns are NOT NULL)."""
    return [v or "" for v in values]


def factorize(values: Sequence[str]) -> tuple[list[str], NDArray[np.int64]]:
    """Distinct strings in order of first appearance and the (n,) int64 code of each value."""
    # all in C (dict.fromkeys, zip, map): a generator calling setdefault took 1.5 µs a value
    distinct = list(dict.fromkeys(values))
    code_of = dict(zip(distinct, range(len(distinct)), strict=True))
    codes = np.fromiter(map(code_of.__getitem__, values), dtype=np.int64, count=len(values))
    return distinct, codes


class _DocumentsMeanwhile:
    """Each line's document id, worked out with a helper thread on the import's connection
    while the importing thread goes on reading and preparing the file.

    SQLite and the database driver release the GIL while they work, so the database's share
    (most of it) runs beside the Python work of the importing thread. Into an empty documents
    table (a first import) the helper only inserts the documents (:func:`insert_distinct`) while
    :meth:`result` numbers the lines' documents in this thread; otherwise the helper does all of
    :func:`_document_ids`. Measured on a million run lines (``bench_end_to_end.py``, with the
    other changes of that step): 6.1 s → 4.3 s for the whole import into a new database,
    5.1 s → 4.2 s with the documents known.
    The importing thread must not use the connection between :meth:`start` and :meth:`result`.
    Made by :func:`_documents_meanwhile`.
    """

    def __init__(self, conn: Connection, helper: ThreadPoolExecutor | None) -> None:
        self._conn = conn
        self._helper = helper
        self._doc_id: Sequence[str] | None = None
        self._first_import = False
        self._job: Future[Any] | None = None

    def start(self, doc_id: Sequence[str]) -> None:
        """Begin with the document id of every line (not to be changed until :meth:`result`)."""
        if self._doc_id is not None:
            raise RuntimeError("the documents are already being looked up")
        self._doc_id = doc_id
        conn = self._conn
        self._first_import = conn.dialect.name == "sqlite" and is_empty(conn, models.documents)
        if self._helper is not None:
            work = _insert_documents if self._first_import else _document_ids
            self._job = self._helper.submit(work, conn, doc_id)

    def result(self) -> tuple[NDArray[np.int64], int]:
        """``(ids, n_created)``: the database id of each line's document, ``(n,)`` int64, and
        the number of documents created (waits for the helper; raises its error). Then
        :meth:`start` may be called again, with the next piece of a file."""
        doc_id, conn = self._doc_id, self._conn
        if doc_id is None:
            raise RuntimeError("start() was not called")
        job, self._doc_id, self._job = self._job, None, None  # ready for the next piece
        if not self._first_import:
            return job.result() if job else _document_ids(conn, doc_id)
        distinct, codes = factorize(doc_id)  # while the helper inserts them
        created = job.result() if job else _insert_documents(conn, doc_id)
        ids = ids_of_inserted(conn, models.documents, distinct, 0, created)
        return ids[codes], created


def _insert_documents(conn: Connection, doc_id: Sequence[str]) -> int:
    return insert_distinct(conn, models.documents, doc_id, defaults=_DOC_DEFAULTS)


@contextmanager
def _documents_meanwhile(conn: Connection) -> Iterator[_DocumentsMeanwhile]:
    """A :class:`_DocumentsMeanwhile` for ``conn``; on leaving, waits for its helper (also when
    the body raises, so the transaction ends only after the helper has let go of ``conn``).

    An SQLite database in memory cannot be used from another thread (SQLAlchemy gives each
    thread its own), so there the work runs in :meth:`~_DocumentsMeanwhile.result` instead.
    """
    if in_memory(conn.engine.url):
        yield _DocumentsMeanwhile(conn, None)
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-documents") as helper:
        yield _DocumentsMeanwhile(conn, helper)


def _document_ids(conn: Connection, doc_id: Sequence[str]) -> tuple[NDArray[np.int64], int]:
    """Database id of each line's document, ``(n,)`` int64, creating the documents not seen
    before (once each); also the number created. Into an empty table every document is new
    and nothing is looked up. (A first import on SQLite takes a faster way: see
    :class:`_DocumentsMeanwhile`.)"""
    if not is_empty(conn, models.documents):
        ids, _ = map_external_ids(conn, models.documents, doc_id, create=False)
        missing = np.flatnonzero(ids < 0)
    else:
        ids = np.full(len(doc_id), -1, dtype=np.int64)
        missing = np.arange(len(doc_id))
    created = 0
    if len(missing):
        m_ext, m_inv = factorize([doc_id[i] for i in missing.tolist()])
        m_ids, created = map_external_ids(conn, models.documents, m_ext, defaults=_DOC_DEFAULTS)
        ids[missing] = m_ids[m_inv]
    return ids, created


_BAD_NAME_CHAR = re.compile("[\x00-\x1f\x7f\ufeff\ud800-\udfff]")


def _check_name(value: str, option: str) -> None:
    """Refuse a blank name or one with a control character (the readers' rule for names).

    Raises:
        InputError: naming the option.
    """
    bad = _BAD_NAME_CHAR.search(value)
    if not value.strip():
        raise InputError(f"{option}: {value!r} is blank; give a name")
    if bad is not None:
        raise InputError(f"{option}: {value!r} holds the control character U+{ord(bad[0]):04X}")


def _item_keys(
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


def _match(
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
