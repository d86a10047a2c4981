"""Annotate's loading: the query list with this annotator's progress, then the pool of the
open query, each in a worker (:func:`~ndcg_studio.ui.workers.run_task`; a newer load cancels the
older one). A load that started before a grade was written is stale and is redone, so the view
never shows a grade older than one it wrote. While another tab of a shown window is current, the
query list is not loaded (100,000 queries would slow that tab): it loads when Annotate is shown.
The synchronous variants serve benchmarks and scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from PySide6.QtCore import (
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    QTimer,
    SignalInstance,
    Slot,
)
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QTableView, QWidget

from ndcg_studio.services.annotation.next_unjudged import first_unfinished_query
from ndcg_studio.services.annotation.types import PoolItem, QueryProgress
from ndcg_studio.ui import errors
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.models.pool import PoolModel
from ndcg_studio.ui.models.query_columns import QueryColumns
from ndcg_studio.ui.models.query_progress import QueryFilterProxy, QueryProgressModel
from ndcg_studio.ui.views.annotate.document import DocumentPanel
from ndcg_studio.ui.views.annotate.panels import PoolPanel, QueryListPanel
from ndcg_studio.ui.workers import Task, run_task

#: where the last opened query is remembered ("database label\nquery external id")
LAST_QUERY_KEY = "annotate/last_query"


class LoadingMixin:
    """The loading half of :class:`~ndcg_studio.ui.views.annotate.view.AnnotateView` (a mixin: the
    view holds the state declared below)."""

    context: AppContext
    rows_model: QueryProgressModel
    proxy: QueryFilterProxy
    pool_model: PoolModel
    panel: DocumentPanel
    queries: QueryListPanel
    pool: PoolPanel
    query_table: QTableView
    rows_loaded: SignalInstance
    query_loaded: SignalInstance
    _query: QueryProgress | None
    _position: int
    _rows_task: Task[Any] | None
    _pool_task: Task[Any] | None
    _loading_query: int | None
    _pending_document: int | None
    _writes: int
    _reload_timer: QTimer
    _show_position: Callable[[int], None]
    _go_to_document: Callable[[int], None]
    _update_pool_title: Callable[[], None]
    _update_totals: Callable[[], None]
    _set_status: Callable[[str], None]
    #: a reload came while the view was hidden in a shown window: load when the view is shown
    _rows_due = False
    #: ranks the list's texts in the collation after the list is shown (see QueryColumns)
    _rank_task: Task[Any] | None = None

    def _widget(self) -> QWidget:
        """The view itself, as the widget it is (owner of tasks, parent of messages)."""
        return cast(QWidget, self)

    @Slot()
    def reload(self) -> None:
        """Reload the query list and the current pool (coalesced: many calls, one load)."""
        self._reload_timer.start()

    def showEvent(self, event: QShowEvent) -> None:
        """Load the query list that was put off while the view was hidden."""
        super().showEvent(event)  # type: ignore[misc]
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
        view = self._widget()
        if view.window().isVisible() and not view.isVisible():
            self._rows_due = True  # another tab is current: it starts without this list
            return
        db = self.context.database
        if db is None:
            self._clear(
                QCoreApplication.translate(
                    "LoadingMixin", "Loading…"
                )  # the database is being opened in a worker
                if self.context.opening
                else QCoreApplication.translate(
                    "LoadingMixin",
                    "No database is open.\n\nUse File ▸ New database… (Ctrl+N) or "
                    "File ▸ Open database… (Ctrl+O).",
                )
            )
            return
        if self.context.annotator is None:
            self._clear(
                QCoreApplication.translate(
                    "LoadingMixin",
                    "Who is annotating?\n\nChoose your name with Annotator ▸ Switch annotator… "
                    "(Ctrl+Shift+A).",
                )
            )
            return
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        service = self.context.annotation_service()
        self._set_status(QCoreApplication.translate("LoadingMixin", "Loading queries…"))
        writes = self._writes
        header = self.query_table.horizontalHeader()
        by_text = header.sortIndicatorSection() == QueryProgressModel.COL_TEXT

        def work(_progress: Any, _cancelled: Any) -> QueryColumns:
            columns = QueryColumns.from_progress(service.query_progress(annotator_id, depth))
            if by_text:  # the list opens sorted by text: rank the texts here, not on the GUI
                columns.warm_text_rank()
            return columns

        self._rows_task = run_task(
            work,
            on_success=lambda rows: (
                self._on_rows_loaded(rows) if writes == self._writes else self.reload()
            ),
            owner=self._widget(),
            replaces=self._rows_task,
        )

    def load_rows_now(self) -> None:
        """Load the query list synchronously (benchmarks, scripts)."""
        service = self.context.annotation_service()
        self._on_rows_loaded(service.query_progress(self._annotator_id(), self.context.pool_depth))

    def _clear(self, message: str) -> None:
        self.rows_model.set_rows([])
        self.pool_model.set_items([])
        self._query = None
        self._position = -1
        self.panel.show_message(message)
        self.panel.show_query("", "")
        self.queries.totals_label.setText("")
        self.pool.pool_title.setText(QCoreApplication.translate("LoadingMixin", "Pool"))
        self._set_status("")

    def _on_rows_loaded(self, rows: Sequence[QueryProgress]) -> None:
        keep = self._query.query_id if self._query is not None else self._remembered_query(rows)
        self.rows_model.set_rows(rows)
        self._update_totals()
        self._set_status("")
        if not rows:
            self._clear(
                QCoreApplication.translate(
                    "LoadingMixin",
                    "This database has no queries yet.\n\nImport queries, documents and runs "
                    "with File ▸ Import…, or start the app with --demo for the Cranfield "
                    "collection.",
                )
            )
            self.rows_loaded.emit()
            return
        query_id = keep if keep is not None and self.rows_model.row_of(keep) is not None else None
        document_id = self._pending_document if query_id is not None else None
        if query_id is None:
            query_id = self._first_unfinished_query()
        self._query = None  # force a reload of the pool (grades may have changed)
        self._select_query(query_id, document_id)
        if isinstance(rows, QueryColumns):  # ready before the user sorts by text
            self._rank_task = run_task(
                lambda _p, _c: rows.warm_text_rank(), owner=self._widget(), replaces=self._rank_task
            )
        self.rows_loaded.emit()

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

    def _listed(self, proxy_row: int) -> QueryProgress:
        """The query shown at ``proxy_row`` of the (filtered, sorted) list."""
        source = self.proxy.mapToSource(self.proxy.index(proxy_row, 0))
        return self.rows_model.query_at(source.row())

    def _first_unfinished_query(self) -> int:
        found = first_unfinished_query(self.proxy.rowCount(), self._listed)
        return found if found is not None else self.rows_model.query_at(0).query_id

    def _select_query(self, query_id: int, document_id: int | None = None) -> None:
        """Select ``query_id`` in the list (if it passes the filter) and open its pool."""
        self._pending_document = document_id
        source_row = self.rows_model.row_of(query_id)
        if source_row is not None:
            proxy_index = self.proxy.mapFromSource(self.rows_model.index(source_row, 0))
            if proxy_index.isValid():
                selection = self.query_table.selectionModel()
                selection.setCurrentIndex(
                    proxy_index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.query_table.scrollTo(proxy_index)
        self.open_query(query_id, document_id)

    @Slot(QModelIndex, QModelIndex)
    def _on_query_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        query_id = self.proxy.data(current, QueryProgressModel.QueryIdRole)
        if isinstance(query_id, int):
            self.open_query(query_id, self._pending_document)

    def open_query(self, query_id: int, document_id: int | None = None) -> None:
        """Show the pool of ``query_id`` (loaded in a worker), at ``document_id`` or at its first
        unjudged document."""
        if self._query is not None and self._query.query_id == query_id:
            if document_id is not None:
                self._go_to_document(document_id)
            return
        if self._loading_query == query_id:
            self._pending_document = document_id
            return
        annotator_id, depth = self._annotator_id(), self.context.pool_depth
        order = self.context.pool_order
        service = self.context.annotation_service()
        self._loading_query = query_id
        self._pending_document = document_id
        self._set_status(QCoreApplication.translate("LoadingMixin", "Loading…"))
        writes = self._writes
        self._pool_task = run_task(
            lambda _progress, _cancelled: service.pool(query_id, annotator_id, depth, order),
            on_success=lambda items: self._on_pool_loaded(query_id, items, writes),
            on_failure=self._on_pool_failed,
            owner=self._widget(),
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
            self._widget(),
            action=QCoreApplication.translate("LoadingMixin", "Loading the pool"),
        )

    def _on_pool_loaded(
        self, query_id: int, items: list[PoolItem], writes: int | None = None
    ) -> None:
        if self._loading_query != query_id:
            return  # an older load
        self._loading_query = None
        if writes is not None and writes != self._writes:
            self.open_query(query_id, self._pending_document)  # read before a grade: again
            return
        progress = self.rows_model.progress_of(query_id)
        if progress is None:
            return
        self._query = progress
        document_id, self._pending_document = self._pending_document, None
        self.pool_model.set_items(items)
        self.rows_model.set_judged(query_id, self.pool_model.judged_count())
        self._update_totals()
        self.panel.show_query(
            progress.external_id,
            progress.text or QCoreApplication.translate("LoadingMixin", "(no text)"),
        )
        self._remember_query(progress)
        self._set_status("")
        if not items:
            self._position = -1
            self.panel.show_message(
                QCoreApplication.translate(
                    "LoadingMixin",
                    "Nothing to judge for this query: no run returned a document for it.",
                )
            )

            self._update_pool_title()
        else:
            row = self.pool_model.row_of(document_id) if document_id is not None else None
            if row is None:
                row = next((i for i, it in enumerate(items) if it.grade is None), 0)
            self._show_position(row)
        self.query_loaded.emit(query_id)

    def _remember_query(self, progress: QueryProgress) -> None:
        db = self.context.database
        if db is not None:
            self.context.settings.qsettings.setValue(
                LAST_QUERY_KEY, f"{db.label}\n{progress.external_id}"
            )
