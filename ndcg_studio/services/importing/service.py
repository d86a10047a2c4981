"""Import use cases: every file kind in ONE transaction — all of it is written, or nothing.

Readers (:mod:`ndcg_studio.io`) parse and validate the whole file (errors name file, line and
field); only a clean file is committed, through the bulk writes of storage
(:mod:`ndcg_studio.storage.bulk.imports` for the catalogue and runs, the one writer of judgments
:mod:`ndcg_studio.storage.judgments` for judgments). Run and qrels imports start creating or
looking up the documents inside the transaction while the rest of the file is still being
checked; a refused or cancelled file rolls all of it back. Queries, documents and annotators that
do not exist yet are created by their external id. Re-importing the same file changes nothing;
re-importing judgments with new grades updates them; the database records every created and
changed judgment in ``judgment_history`` by the one rule of :mod:`ndcg_studio.storage.judgments`,
the same as for the app's writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ndcg_studio.io.errors import InputError, InputFileError, ParseIssue
from ndcg_studio.progress import Cancelled, Progress, checkpoint
from ndcg_studio.services.importing.pieces import (
    Pieces,
    check_name,
    rank_problem,
)
from ndcg_studio.services.importing.steps import (
    ImportSummary,
    into_source,
    one_tag,
    stage,
    write_judgment_ids,
    write_results,
)
from ndcg_studio.storage.bulk.imports import (
    RowRefused,
    annotator_ids,
    documents_meanwhile,
    factorize,
    import_transaction,
    query_ids,
    replace_run,
    upsert_catalogue,
)
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.queries.names import run_names
from ndcg_studio.vocabulary import IMPORT_KINDS

if TYPE_CHECKING:
    from ndcg_studio.io.tabular import DocumentsFile, QueriesFile

__all__ = ["ImportService"]

#: Rows per upsert statement batch of a queries or documents import: the progress moves and
#: Cancel is heard between batches.
_UPSERT_SLICE = 50_000


class RunExists(InputError):
    """A run import would replace the existing run ``name`` and was not asked to."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"a run named {name!r} exists already; import this file beside it under another "
            "name (--name NEW), or replace it (--replace)"
        )
        self.name = name


class ImportService:
    """Imports files into one database. Each call is one transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def run_names(self) -> list[str]:
        """The names of the database's runs (to ask before an import would replace one)."""
        with self.db.engine.connect() as conn:
            return sorted(run_names(conn).values())

    def taken_run_name(self, path: str | Path) -> str | None:
        """The name the run file at ``path`` would get (its first tag) when a run of that name
        exists already, else None: what the app asks about before importing."""
        from ndcg_studio.io.trec.readers import first_tag

        tag = first_tag(path)
        return tag if tag is not None and tag in self.run_names() else None

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
        except RowRefused as exc:
            raise InputFileError(
                [ParseIssue(str(path), 0, "database", f"the database refused a row: {exc}")]
            ) from None

    # ------------------------------------------------------------------ runs
    def import_run(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        replace: bool = False,
        description: str = "",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> ImportSummary:
        """Import a TREC run ``qid Q0 docno rank score tag`` as the run ``name`` (default: the tag).

        A run of the same name is replaced (its results deleted and written anew) only with
        ``replace``; otherwise the import is refused before anything is written (every run of
        one toolkit may carry the same tag: "Anserini").

        Raises:
            InputFileError: a malformed file (nothing written).
            InputError: several tags in the file and no ``name``.
            RunExists: a run of that name exists and ``replace`` is False (nothing written).
        """
        from ndcg_studio.io.trec.readers import read_trec_run_chunks

        if name is not None:
            check_name(name, "--name")
            if not replace and name in self.run_names():
                raise RunExists(name)
        with import_transaction(self.db.engine) as conn, documents_meanwhile(conn) as documents:
            # The file is read, checked and given database ids piece by piece: only numpy
            # columns of the whole file are kept. Each piece's documents are looked up (or
            # created) in a helper thread while this thread parses and checks the piece's values
            # and puts its results in trec_eval's order. Nothing is committed before the last
            # piece has been checked.
            pieces = Pieces(conn, documents)
            read = 40 if documents.settles else 60  # SQLite: the documents' settle 40-60
            for run in read_trec_run_chunks(
                path,
                progress=stage(progress, 0, read),
                cancelled=cancelled,
                on_doc_ids=documents.start,
            ):
                pieces.add_run(run)
                del run
            checkpoint(read, 100, progress, cancelled)
            if name is None:
                name = one_tag(str(path), pieces.tags)
                if not replace and name in run_names(conn).values():
                    raise RunExists(name)  # rolls the transaction back
            cols = pieces.run_columns(str(path), stage(progress, read, 60 - read), cancelled)
            problem = rank_problem(str(path), cols, pieces.rank_problems, pieces.query_names)
            del cols["line"]  # checked: not written
            checkpoint(65, 100, progress, cancelled)
            run_id, replaced = replace_run(conn, name, description, problem)
            checkpoint(70, 100, progress, cancelled)
            n = write_results(conn, run_id, cols, progress, cancelled)
        summary = ImportSummary("run", str(path), len(cols["query"]))
        summary.counts = {
            "results": n,
            "queries created": pieces.q_new,
            "documents created": pieces.d_new,
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
        :func:`ndcg_studio.services.stability.service.assign_source`)."""
        from ndcg_studio.io.trec.readers import read_trec_qrels_chunks

        if annotator is not None:
            check_name(annotator, "--annotator")
        default_name = annotator or Path(path).stem
        with import_transaction(self.db.engine) as conn, documents_meanwhile(conn) as documents:
            # piece by piece, as import_run: the documents of each piece are looked up in the
            # helper while this thread checks the piece's values
            pieces = Pieces(conn, documents)
            for qrels in read_trec_qrels_chunks(
                path,
                grade_map=grade_map,
                annotator_column=annotator_column,
                progress=stage(progress, 0, 40),
                cancelled=cancelled,
                on_doc_ids=documents.start,
            ):
                pieces.add_qrels(qrels, default_name)
                del qrels
            by = pieces.annotator_names if annotator_column else None  # as the reader says it
            settling = stage(progress, 40, 20)  # SQLite: the documents after the pieces
            cols = pieces.qrels_columns(str(path), by, settling, cancelled)
            del cols["line"]  # checked: not written
            summary = write_judgment_ids(conn, "qrels", str(path), cols, None, progress, cancelled)
            summary.counts.update(pieces.created())
            names = list(pieces.annotator_names.values())
            into_source(conn, summary, names, source, source_kind)
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
        from ndcg_studio.io.judgments_csv import read_judgments_csv

        j = read_judgments_csv(
            path, grade_map=grade_map, progress=stage(progress, 0, 40), cancelled=cancelled
        )
        with import_transaction(self.db.engine) as conn, documents_meanwhile(conn) as documents:
            documents.start(j.doc_id)
            q_ext, q_inv = factorize(j.query_id)
            a_ext, a_inv = factorize(j.annotator)
            checkpoint(40, 100, progress, cancelled)
            did, d_new = documents.ids(stage(progress, 40, 20), cancelled)
            q_ids, q_new = query_ids(conn, q_ext)
            a_ids, a_new = annotator_ids(conn, a_ext)
            cols = {"query": q_ids[q_inv], "doc": did, "annotator": a_ids[a_inv], "grade": j.grade}
            notes = j.note if j.has_notes else None  # a wide file keeps the stored notes
            summary = write_judgment_ids(
                conn, "judgments", str(path), cols, notes, progress, cancelled
            )
            summary.counts.update(
                {"queries created": q_new, "documents created": d_new, "annotators created": a_new}
            )
            into_source(conn, summary, j.annotator, source, source_kind)
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

        q = read_queries(path, progress=stage(progress, 0, 50), cancelled=cancelled)
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

        d = read_documents(path, progress=stage(progress, 0, 50), cancelled=cancelled)
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
            d = read_smart_documents(path, progress=stage(progress, 0, 50), cancelled=cancelled)
            return self._write_documents(str(path), d, progress, cancelled)
        q = read_smart_queries(
            path, renumber=renumber, progress=stage(progress, 0, 50), cancelled=cancelled
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
        return self._upsert_catalog("queries", path, q.query_id, rows, progress, cancelled)

    def _write_documents(
        self,
        path: str,
        d: DocumentsFile,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        rows = {"title": _text(d.title), "text": _text(d.text), "url": _text(d.url)}
        return self._upsert_catalog("documents", path, d.doc_id, rows, progress, cancelled)

    def _upsert_catalog(
        self,
        kind: Literal["queries", "documents"],
        path: str,
        external_ids: Sequence[str],
        columns: Mapping[str, Sequence[Any]],
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ImportSummary:
        n = len(external_ids)
        summary = ImportSummary(kind, path, n)
        checkpoint(50, 100, progress, cancelled)
        created = 0
        with import_transaction(self.db.engine) as conn:
            for start in range(0, n, _UPSERT_SLICE):
                part = slice(start, start + _UPSERT_SLICE)
                sliced = {c: v[part] for c, v in columns.items()}
                created += upsert_catalogue(conn, kind, external_ids[part], sliced)
                checkpoint(50 + 49 * min(n, start + _UPSERT_SLICE) // n, 100, progress, cancelled)
        summary.counts = {f"{kind} created": created, f"{kind} updated": n - created}
        return summary


def _text(values: Sequence[str | None]) -> list[str]:
    """Absent optional text becomes the empty string (the columns are NOT NULL)."""
    return [v or "" for v in values]
