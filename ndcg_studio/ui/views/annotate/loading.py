"""Annotate's loading: the query list with this annotator's progress, then the pool of the
open query, each in a worker (:func:`~ndcg_studio.ui.workers.run_task`; a newer load cancels the
older one). A load that started before a grade was written is stale and is redone, so the view
never shows a grade older than one it wrote. While another tab of a shown window is current, the
query list is not loaded (100,000 queries would slow that tab): it loads when Annotate is shown.
The synchronous variants serve benchmarks and scripts. :class:`AnnotateLoader` is an object the
view owns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import (
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QTimer,
    Slot,
)

from ndcg_studio.services.annotation.next_unjudged import first_unfinished_query
from ndcg_studio.services.annotation.types import PoolItem, QueryProgress
from ndcg_studio.ui import errors
from ndcg_studio.ui.models.query_columns import QueryColumns
from ndcg_studio.ui.models.query_progress import QueryProgressModel
from ndcg_studio.ui.workers import Task, run_task

if TYPE_CHECKING:
    from ndcg_studio.ui.views.annotate.view import AnnotateView

#: where the last opened query is remembered ("database label\nquery external id")
LAST_QUERY_KEY = "annotate/last_query"


class AnnotateLoader(QObject):
    """Loads the query list and the open query's pool of ``view`` (which owns it), in workers;
    the view shows what arrives through its public methods and signals."""

    def __init__(self, view: AnnotateView) -> None:
        super().__init__(view)
        self._view = view
        self.context = view.context
        self._rows_task: Task[Any] | None = None
        self._pool_task: Task[Any] | None = None
        #: ranks the list's texts in the collation after the list is shown (see QueryColumns)
        self._rank_task: Task[Any] | None = None
        self._loading_query: int | None = None
        #: the query opened as the first of the list before its pools were counted (the counts
        #: then say whether it is the first unfinished one): see :meth:`_on_rows_listed`
        self._provisional: int | None = None
        #: a reload came while the list was counted: the open pool is read again with the counts
        self._pool_stale = False
        #: the document to show when the loading query's pool arrives
        self.pending_document: int | None = None
        #: a reload came while the view was hidden in a shown window: load when it is shown
        self._rows_due = False
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(0)
        self._reload_timer.timeout.connect(self._start_reload)

    @Slot()
    def reload(self) -> None:
        """Reload the query list and the current pool (coalesced: many calls, one load)."""
        self._reload_timer.start()

    def shown(self) -> None:
        """The view was shown: load the query list that was put off while it was hidden."""
        if self._rows_due:
            self._rows_due = False
            self.reload()

    def is_loading(self) -> bool:
        """Whether the query list is still loading, or its texts are still being ranked for
        sorting (``benchmarks/bench_gui_scale.py`` times the tab until this turns False)."""
        return any(t is not None and not t.done for t in (self._rows_task, self._rank_task))

    def _annotator_id(self) -> int | None:
        annotator = self.context.annotator
        return None if annotator is None else annotator.id

    def _start_reload(self) -> None:
        view = self._view
        if view.window().isVisible() and not view.isVisible():
            self._rows_due = True  # another tab is current: it starts without this list
            return
        db = self.context.database
        if db is None:
            self._clear(
                QCoreApplication.translate(
                    "AnnotateLoader", "Loading…"
                )  # the database is being opened in a worker
                if self.context.opening
                else QCoreApplication.translate(
                    "AnnotateLoader",
                    "No database is open.\n\nUse File ▸ New database… (Ctrl+N) or "
                    "File ▸ Open database… (Ctrl+O).",
                )
            )
            return
        # nobody annotating yet: the pool is shown all the same (no grades), and a grade key
        # asks who is annotating (AnnotateView.annotator_wanted); an analyst is never asked
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        service = self.context.annotation_service()
        self._view.set_status(QCoreApplication.translate("AnnotateLoader", "Loading queries…"))
        writes = self._view.grader.writes
        header = self._view.queries.query_table.horizontalHeader()
        by_text = header.sortIndicatorSection() == QueryProgressModel.COL_TEXT

        def work(_progress: Any, _cancelled: Any) -> QueryColumns:
            columns = QueryColumns.from_progress(service.query_progress(annotator_id, depth))
            if by_text:  # the list opens sorted by text: rank the texts here, not on the GUI
                columns.warm_text_rank()
            return columns

        def count() -> None:
            self._rows_task = run_task(
                work,
                on_success=lambda rows: (
                    self._on_rows_loaded(rows)
                    if writes == self._view.grader.writes
                    else self.reload()
                ),
                owner=self._view,
                replaces=self._rows_task,
            )

        if self._view.rows_model.rowCount():
            self._pool_stale = True  # a reload: the open pool is read again with the counts
            count()  # the list stays as it is until the new counts arrive
            return

        # The first list of a database: the queries at once (one scan), then their pools
        # counted (a GROUP BY over every result and judgment: seconds at 100,000 queries,
        # ``bench_gui_scale.py`` Annotate), so nobody waits for a blank list.
        def listed(_progress: Any, _cancelled: Any) -> QueryColumns:
            return QueryColumns.from_progress(service.query_list(), counted=False)

        def shown(rows: QueryColumns) -> None:
            count()  # first: the view is loading until the counts are in (is_loading)
            self._on_rows_listed(rows)

        self._rows_task = run_task(
            listed, on_success=shown, owner=self._view, replaces=self._rows_task
        )

    def load_rows_now(self) -> None:
        """Load the query list synchronously (benchmarks, scripts)."""
        service = self.context.annotation_service()
        self._on_rows_loaded(service.query_progress(self._annotator_id(), self.context.pool_depth))

    def _clear(self, message: str) -> None:
        self._view.rows_model.set_rows([])
        self._view.pool_model.set_items([])
        self._view.set_current_query(None)
        self._view.panel.show_message(message)
        self._view.panel.show_query("", "")
        self._view.queries.totals_label.setText("")
        self._view.pool.pool_title.setText(QCoreApplication.translate("AnnotateLoader", "Pool"))
        self._view.set_status("")

    def _on_rows_listed(self, rows: QueryColumns) -> None:
        """Show the list before its pools are counted and open a query at once: the one
        remembered from the last time, else the first of the list.

        The first of the list is the first unfinished one (what the counted list opens) when
        its pool turns out to have a document left to grade, and the list's order does not
        depend on the counts (not sorted by progress; hiding complete queries cannot hide the
        first unfinished one). :meth:`_on_rows_loaded` moves on from it when the counts say
        otherwise. So an annotator grades at once instead of after the count (seconds at
        100,000 queries: ``benchmarks/bench_gui_scale.py``, Annotate's first pool)."""
        if not rows:
            return  # the counted list says the database has no query
        self._view.rows_model.set_rows(rows)
        self._view.update_totals()
        if self._view.current_query is None:
            remembered = self._remembered_query(rows)
            header = self._view.queries.query_table.horizontalHeader()
            by_counts = header.sortIndicatorSection() == QueryProgressModel.COL_PROGRESS
            if remembered is not None:
                self.select_query(remembered)
            elif not by_counts and self._view.proxy.rowCount():
                self._provisional = self.listed(0).query_id
                self.select_query(self._provisional)
        self._view.rows_shown.emit()

    def _on_rows_loaded(self, rows: Sequence[QueryProgress]) -> None:
        counted_before = self._view.rows_model.counted()
        current = self._view.current_query
        provisional, self._provisional = self._provisional, None
        pool_stale, self._pool_stale = self._pool_stale, False
        keep = current.query_id if current is not None else self._remembered_query(rows)
        self._view.rows_model.set_rows(rows)
        self._view.update_totals()
        self._view.set_status("")
        if not rows:
            self._clear(
                QCoreApplication.translate(
                    "AnnotateLoader",
                    "This database has no queries yet.\n\nImport queries, documents and runs "
                    "with File ▸ Import…, or start the app with --demo for the Cranfield "
                    "collection.",
                )
            )
            self._view.rows_shown.emit()  # the list (empty) and its message are shown
            self._view.rows_loaded.emit()
            return
        query_id = (
            keep if keep is not None and self._view.rows_model.row_of(keep) is not None else None
        )
        if query_id is not None and query_id == provisional:
            # the first listed query, opened before the counts: kept if it is the first
            # unfinished one (the counts say whether it is complete)
            query_id = query_id if self._first_unfinished_query() == query_id else None
        document_id = self.pending_document if query_id is not None else None
        if query_id is None:
            query_id = self._first_unfinished_query()
        if counted_before or pool_stale:  # a reload: grades may have changed: read the pool again
            self._view.set_current_query(None)
        elif current is not None:  # the pool opened on the uncounted list: its counts now
            self._view.set_current_query(self._view.rows_model.progress_of(current.query_id))
        self.select_query(query_id, document_id)
        if isinstance(rows, QueryColumns):  # ready before the user sorts by text
            self._rank_task = run_task(
                lambda _p, _c: rows.warm_text_rank(), owner=self._view, replaces=self._rank_task
            )
        self._view.rows_shown.emit()
        self._view.rows_loaded.emit()

    def _remembered_query(self, rows: Sequence[QueryProgress]) -> int | None:
        db = self.context.database
        raw = self.context.settings.qsettings.value(LAST_QUERY_KEY, "", type=str)
        label, _, external_id = str(raw).partition("\n")
        if db is None or label != db.label:
            return None
        if isinstance(rows, QueryColumns):  # one array comparison, no row objects
            found = np.flatnonzero(rows.external_id == external_id)
            return int(rows.query_id[found[0]]) if found.size else None
        return next((r.query_id for r in rows if r.external_id == external_id), None)

    def listed(self, proxy_row: int) -> QueryProgress:
        """The query shown at ``proxy_row`` of the (filtered, sorted) list."""
        source = self._view.proxy.mapToSource(self._view.proxy.index(proxy_row, 0))
        return self._view.rows_model.query_at(source.row())

    def _first_unfinished_query(self) -> int:
        found = first_unfinished_query(self._view.proxy.rowCount(), self.listed)
        return found if found is not None else self._view.rows_model.query_at(0).query_id

    def select_query(self, query_id: int, document_id: int | None = None) -> None:
        """Select ``query_id`` in the list (if it passes the filter) and open its pool."""
        self.pending_document = document_id
        source_row = self._view.rows_model.row_of(query_id)
        if source_row is not None:
            proxy_index = self._view.proxy.mapFromSource(self._view.rows_model.index(source_row, 0))
            if proxy_index.isValid():
                selection = self._view.queries.query_table.selectionModel()
                selection.setCurrentIndex(
                    proxy_index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self._view.queries.query_table.scrollTo(proxy_index)
        self.open_query(query_id, document_id)

    @Slot(QModelIndex, QModelIndex)
    def on_query_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        query_id = self._view.proxy.data(current, QueryProgressModel.QueryIdRole)
        if isinstance(query_id, int):
            self.open_query(query_id, self.pending_document)

    def open_query(self, query_id: int, document_id: int | None = None) -> None:
        """Show the pool of ``query_id`` (loaded in a worker), at ``document_id`` or at its first
        unjudged document."""
        current = self._view.current_query
        if current is not None and current.query_id == query_id:
            if document_id is not None:
                self._view.go_to_document(document_id)
            return
        if self._loading_query == query_id:
            self.pending_document = document_id
            return
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        order = self.context.pool_order
        service = self.context.annotation_service()
        self._loading_query = query_id
        self.pending_document = document_id
        self._view.set_status(QCoreApplication.translate("AnnotateLoader", "Loading…"))
        writes = self._view.grader.writes
        self._pool_task = run_task(
            lambda _progress, _cancelled: service.pool(query_id, annotator_id, depth, order),
            on_success=lambda items: self._on_pool_loaded(query_id, items, writes),
            on_failure=self._on_pool_failed,
            owner=self._view,
            replaces=self._pool_task,
        )

    def open_query_now(self, query_id: int) -> None:
        """Open a query synchronously (benchmarks, scripts)."""
        service = self.context.annotation_service()
        items = service.pool(
            query_id, self._annotator_id(), self.context.pool_depth, self.context.pool_order
        )
        self._loading_query = query_id
        self._on_pool_loaded(query_id, items)

    def _on_pool_failed(self, exc: BaseException) -> None:
        self._loading_query = None
        errors.show_error(
            exc,
            self._view,
            action=QCoreApplication.translate("AnnotateLoader", "Loading the pool"),
        )

    def _on_pool_loaded(
        self, query_id: int, items: list[PoolItem], writes: int | None = None
    ) -> None:
        if self._loading_query != query_id:
            return  # an older load
        self._loading_query = None
        if writes is not None and writes != self._view.grader.writes:
            self.open_query(query_id, self.pending_document)  # read before a grade: again
            return
        progress = self._view.rows_model.progress_of(query_id)
        if progress is None:
            return
        self._view.set_current_query(progress)
        document_id, self.pending_document = self.pending_document, None
        self._view.pool_model.set_items(items)
        self._view.rows_model.set_judged(query_id, self._view.pool_model.judged_count())
        self._view.update_totals()
        self._view.panel.show_query(
            progress.external_id,
            progress.text or QCoreApplication.translate("AnnotateLoader", "(no text)"),
        )
        self._remember_query(progress)
        self._view.set_status("")
        if not items:
            self._view.panel.show_message(
                QCoreApplication.translate(
                    "AnnotateLoader",
                    "Nothing to judge for this query: no run returned a document for it.",
                )
            )

            self._view.update_pool_title()
        else:
            row = self._view.pool_model.row_of(document_id) if document_id is not None else None
            if row is None:
                row = next((i for i, it in enumerate(items) if it.grade is None), 0)
            self._view.show_position(row)
        self._view.query_loaded.emit(query_id)

    def _remember_query(self, progress: QueryProgress) -> None:
        db = self.context.database
        if db is not None:
            self.context.settings.qsettings.setValue(
                LAST_QUERY_KEY, f"{db.label}\n{progress.external_id}"
            )
