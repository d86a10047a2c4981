"""File ▸ Fetch from a search engine…: the GUI of ``ndcg-studio fetch-run``.

Choose (or write) an endpoint file, whose text is shown and may be edited and saved; choose the
queries file, the run's name, K and how many requests go at once. "Try one query" sends the
first query (or the text typed) through the same sender and mapping a fetch uses and shows the
mapped list, or what went wrong in plain words; "Fetch" runs
:class:`~ndcg_studio.services.fetching.service.FetchService` with a progress dialog and Cancel
(the lists fetched stay in the journal, so the next Fetch sends only the missing queries), then
shows what it did. The table under it lists the snapshots of the run
(:func:`~ndcg_studio.services.fetching.snapshots.snapshots`, as ``runs --snapshots`` does).

The endpoint is read from the file, so an edited text is saved before Try and Fetch use it (the
run's description records the file's template hash). Reading files, sending and storing run in
workers, never on the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_studio.io.endpoints.mapping import Hit
from ndcg_studio.io.errors import InputError
from ndcg_studio.progress import Cancelled, OperationCancelled, Progress
from ndcg_studio.services.fetching.sender import QueryFailed
from ndcg_studio.services.fetching.service import FetchOutcome
from ndcg_studio.services.fetching.snapshots import Snapshot
from ndcg_studio.services.importing.service import RunExists
from ndcg_studio.storage.database import Database
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, plural
from ndcg_studio.ui.widgets import column, selectable_text
from ndcg_studio.ui.workers import Task, run_task

#: The text of a new endpoint file: a generic JSON API (docs/live-engine.md has one per engine).
NEW_ENDPOINT = """\
name = "my engine"
url = "http://localhost:9200/my-index/_search"
method = "POST"
body = '{"query": {"match": {"text": "{query_text}"}}, "size": {k}}'

[headers]
# Authorization = "ApiKey ${ENGINE_KEY}"

[response]
hits = "hits.hits"
id = "_id"
score = "_score"
title = "_source.title"
"""

#: Answers quoted in a failure: the first this many characters.
QUOTED = 200
#: Failures listed in the report; the rest are counted.
LISTED_FAILURES = 20


@dataclass(frozen=True)
class NameState:
    """What the run name holds now: ``fetched`` (a new fetch keeps it as a snapshot, ``kept``
    the name it gets), ``imported`` (a run from a file: replaced only when the person says so),
    or neither; and the name's ``snapshots``."""

    fetched: bool
    imported: bool
    kept: str
    snapshots: list[Snapshot]


def name_state(context: AppContext, name: str) -> NameState:
    """The :class:`NameState` of ``name`` (reads the database: call it in a worker)."""
    from ndcg_studio.services.fetching.snapshots import SNAPSHOT_MARK, is_fetched, snapshots
    from ndcg_studio.services.importing.service import ImportService

    db = context.require_database()
    found = snapshots(db, name) if name else []
    fetched = bool(name) and is_fetched(db, name)
    imported = bool(name) and not fetched and name in ImportService(db).run_names()
    current = next((s for s in found if s.current), None)
    kept = f"{name}{SNAPSHOT_MARK}{current.at}" if current is not None else ""
    return NameState(fetched, imported, kept, found)


class FetchDialog(QDialog):
    """The dialog (module docstring); ``show_message`` is the main window's status line."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fetch_dialog")
        self.setWindowTitle(self.tr("Fetch from a search engine"))
        self.context = context
        self.outcome: FetchOutcome | None = None
        self._name_task: Task[Any] | None = None
        self._endpoint_path = ""
        self._saved_text = ""  # the endpoint file's text as last read or written
        self._build()
        self.resize(820, 640)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        self.endpoint_edit = QLineEdit()
        self.endpoint_edit.setReadOnly(True)
        self.endpoint_edit.setPlaceholderText(self.tr("a new endpoint file (not saved yet)"))
        choose_endpoint = QPushButton(self.tr("Choose…"))
        choose_endpoint.clicked.connect(self._choose_endpoint)
        self.save_button = QPushButton(self.tr("&Save"))
        self.save_button.clicked.connect(self._on_save_clicked)
        save_as = QPushButton(self.tr("Save &as…"))
        save_as.clicked.connect(lambda: self.save_endpoint(ask=True))
        self.endpoint_text = QPlainTextEdit()
        self.endpoint_text.setObjectName("endpoint_text")
        self.endpoint_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.endpoint_text.setPlainText(NEW_ENDPOINT)
        self.queries_edit = QLineEdit()
        self.queries_edit.setPlaceholderText(self.tr("TREC topics, cran.qry or a queries TSV"))
        choose_queries = QPushButton(self.tr("Choose…"))
        choose_queries.clicked.connect(self._choose_queries)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("fetch_run_name")
        self.name_edit.textChanged.connect(self._on_name_changed)
        self.name_note = QLabel()
        self.name_note.setWordWrap(True)
        self.k_spin = QSpinBox()
        self.k_spin.setRange(1, 10_000)
        self.k_spin.setValue(100)
        self.concurrency_spin = QSpinBox()
        self.concurrency_spin.setRange(1, 64)
        self.concurrency_spin.setValue(4)
        form = QFormLayout()
        form.addRow(
            self.tr("Endpoint file:"),
            _row(self.endpoint_edit, choose_endpoint, self.save_button, save_as),
        )
        settings = QFormLayout()
        settings.addRow(self.tr("Queries file:"), _row(self.queries_edit, choose_queries))
        settings.addRow(self.tr("Run name:"), self.name_edit)
        settings.addRow("", self.name_note)
        settings.addRow(self.tr("Hits per query (K):"), _row(self.k_spin))
        settings.addRow(self.tr("Requests at once:"), _row(self.concurrency_spin))
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(column(form, self.endpoint_text, settings))
        splitter.addWidget(self._build_results())
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        layout.addWidget(self._build_buttons())

    def _build_results(self) -> QWidget:
        self.try_edit = QLineEdit()
        self.try_edit.setPlaceholderText(self.tr("a query (empty: the first of the queries file)"))
        self.try_button = QPushButton(self.tr("&Try one query"))
        self.try_button.clicked.connect(self.try_query)
        self.report = selectable_text(name="fetch_report")
        self.hits_table = _table(
            [self.tr("Rank"), self.tr("Document"), self.tr("Score"), self.tr("Title")]
        )
        self.snapshots_label = QLabel()
        self.snapshots_table = _table([self.tr("Run"), self.tr("Fetched at (UTC)"), self.tr("URL")])
        tables = QSplitter(Qt.Orientation.Horizontal)
        tables.addWidget(self.hits_table)
        tables.addWidget(column(self.snapshots_label, self.snapshots_table))
        return column(_row(self.try_edit, self.try_button), self.report, tables, stretch=tables)

    def _build_buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox()
        self.fetch_button = QPushButton(self.tr("&Fetch"))
        self.fetch_button.setDefault(True)
        self.fetch_button.clicked.connect(self._on_fetch_clicked)
        buttons.addButton(self.fetch_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        return buttons

    # ------------------------------------------------------------------ files
    def set_endpoint_file(self, path: str) -> None:
        """Show the endpoint file ``path`` (its text, and its stem as the run's name when the
        name is empty or was the previous file's stem)."""
        previous = Path(self._endpoint_path).stem if self._endpoint_path else ""
        text = Path(path).read_text(encoding="utf-8", errors="replace")  # a small file
        self._endpoint_path = path
        self.endpoint_edit.setText(path)
        self.endpoint_text.setPlainText(text)
        self._saved_text = text
        if not self.name_edit.text().strip() or self.name_edit.text().strip() == previous:
            self.name_edit.setText(Path(path).stem)

    def set_queries_file(self, path: str) -> None:
        self.queries_edit.setText(path)

    def _choose_endpoint(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Endpoint file"),
            self.context.last_folder(),
            self.tr("Endpoint files (*.toml);;All files (*)"),
        )
        if path:
            self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
            self.set_endpoint_file(path)

    def _choose_queries(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Queries file"), self.context.last_folder(), self.tr("All files (*)")
        )
        if path:
            self.context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
            self.set_queries_file(path)

    def save_endpoint(self, ask: bool = False) -> bool:
        """Write the text to the endpoint file (asking where when there is none yet, or
        ``ask``); False when the person cancelled or the file cannot be written."""
        path = self._endpoint_path
        if ask or not path:
            folder = str(Path(path).parent) if path else self.context.last_folder()
            path, _ = QFileDialog.getSaveFileName(
                self,
                self.tr("Save the endpoint file"),
                str(Path(folder) / (Path(path).name if path else "endpoint.toml")),
                self.tr("Endpoint files (*.toml);;All files (*)"),
            )
            if not path:
                return False
        text = self.endpoint_text.toPlainText()
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            self._say(arg(self.tr("The endpoint file could not be saved: %1"), str(exc)))
            return False
        self._endpoint_path = path
        self.endpoint_edit.setText(path)
        self._saved_text = text
        return True

    def _on_save_clicked(self) -> None:
        self.save_endpoint()

    def _endpoint_ready(self) -> bool:
        """The endpoint file holds the text shown (saved first when it was edited)."""
        if self._endpoint_path and self.endpoint_text.toPlainText() == self._saved_text:
            return True
        return self.save_endpoint()

    # ------------------------------------------------------------------ run name
    def _on_name_changed(self, _text: str) -> None:
        name = self.name_edit.text().strip()
        self._name_task = run_task(
            lambda _progress, _cancelled: name_state(self.context, name),
            on_success=self._show_name_state,
            owner=self,
            replaces=self._name_task,
        )

    def _show_name_state(self, state: NameState) -> None:
        name = self.name_edit.text().strip()
        if state.fetched:
            note = arg(
                self.tr("A new snapshot: the current run is kept as “%1”."),
                state.kept,
            )
        elif state.imported:
            note = self.tr("A run imported from a file has this name: Fetch asks to replace it.")
        else:
            note = ""
        self.name_note.setText(note)
        self.snapshots_label.setText(arg(self.tr("Snapshots of %1"), name))
        current = self.tr("%1 (current)")
        _fill(
            self.snapshots_table,
            [[arg(current, s.name) if s.current else s.name, s.at, s.url] for s in state.snapshots],
        )

    def refresh_name(self) -> None:
        """Read the run name's state again (after a fetch)."""
        self._on_name_changed(self.name_edit.text())

    # ------------------------------------------------------------------ try
    def try_query(self) -> None:
        """Send one query (the text typed, else the queries file's first) and show its list."""
        if not self._endpoint_ready():
            return
        endpoint_path, queries_path = self._endpoint_path, self.queries_edit.text().strip()
        typed, k = self.try_edit.text().strip(), self.k_spin.value()
        if not typed and not queries_path:
            self._say(self.tr("Type a query, or choose the queries file to try its first."))
            return
        self.try_button.setEnabled(False)
        self._say(self.tr("Sending one query…"))
        _fill(self.hits_table, [])
        run_task(
            lambda _progress, _cancelled: _try(endpoint_path, queries_path, typed, k),
            on_success=self._show_hits,
            on_failure=self._show_failure,
            owner=self,
        )

    def _show_hits(self, found: tuple[str, list[Hit]]) -> None:
        query_id, hits = found
        self.try_button.setEnabled(True)
        self._say(
            arg(plural(self.tr("Query %1: %n hit(s) mapped.", "", len(hits)), len(hits)), query_id)
        )
        rows = [[str(n), h.doc_id, f"{h.score:g}", h.title or ""] for n, h in enumerate(hits, 1)]
        _fill(self.hits_table, rows)

    def _show_failure(self, exc: BaseException) -> None:
        self.try_button.setEnabled(True)
        self.fetch_button.setEnabled(True)
        self._say(self.failure_text(exc))

    def failure_text(self, exc: BaseException) -> str:
        """``exc`` in plain words: the endpoint file's line, the engine's status and answer."""
        if isinstance(exc, QueryFailed):
            answer = exc.answer[:QUOTED]
            if answer:
                return arg(self.tr("The engine answered %1: %2"), exc.status, answer)
            return arg(self.tr("The engine answered %1."), exc.status)
        if isinstance(exc, InputError):
            return arg(self.tr("Nothing was sent: %1"), str(exc))
        if isinstance(exc, OSError):
            return arg(self.tr("A file could not be read: %1"), str(exc))
        return arg(self.tr("Failed: %1"), str(exc))

    def _say(self, text: str) -> None:
        self.report.setText(text)

    # ------------------------------------------------------------------ fetch
    def fetch(self, replace: bool = False) -> None:
        """Fetch every query into the run; ``replace``: the imported run of that name."""
        name, queries_path = self.name_edit.text().strip(), self.queries_edit.text().strip()
        if not name or not queries_path:
            self._say(self.tr("Choose the queries file and give the run a name."))
            return
        if not self._endpoint_ready():
            return
        endpoint_path = self._endpoint_path
        k, concurrency = self.k_spin.value(), self.concurrency_spin.value()
        db = self.context.require_database()
        self.fetch_button.setEnabled(False)
        self._say(arg(self.tr("Fetching %1…"), name))

        def work(progress: Progress, cancelled: Cancelled) -> FetchOutcome:
            request = (endpoint_path, queries_path, name, k, concurrency, replace)
            return _fetch(db, *request, progress=progress, cancelled=cancelled)

        task = run_task(
            work,
            on_success=self._fetched,
            on_failure=lambda exc: self._fetch_failed(exc, name),
            owner=self,
            label=arg(self.tr("Fetching %1…"), name),
        )
        task.signals.cancelled.connect(self._fetch_cancelled)

    def _on_fetch_clicked(self) -> None:
        self.fetch()

    def _fetch_cancelled(self) -> None:
        self.fetch_button.setEnabled(True)
        self._say(self.tr("Cancelled. The lists fetched are kept: Fetch again sends the rest."))

    def _fetch_failed(self, exc: BaseException, name: str) -> None:
        if isinstance(exc, RunExists) and self.confirm_replace(name):
            self.fetch(replace=True)
            return
        self._show_failure(exc)

    def confirm_replace(self, name: str) -> bool:
        """Ask whether the run ``name``, imported from a file, is to be replaced."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Run exists"))
        box.setText(
            arg(
                self.tr(
                    "The database holds a run named “%1” imported from a file. Replace its "
                    "results with the engine's? (It is not kept as a snapshot.)"
                ),
                name,
            )
        )
        replace = box.addButton(
            arg(self.tr("&Replace “%1”"), name), QMessageBox.ButtonRole.DestructiveRole
        )
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is replace

    def _fetched(self, outcome: FetchOutcome) -> None:
        self.outcome = outcome
        self.fetch_button.setEnabled(True)
        self._say(self.summary(outcome))
        if outcome.stored:
            self.context.notify_data_replaced()
        self.refresh_name()

    def summary(self, outcome: FetchOutcome) -> str:
        """What a fetch did, in the interface language; the failures one a line."""
        failed = len(outcome.failures)
        fetched = outcome.queries - failed
        if outcome.stored:
            lines = [
                arg(
                    plural(self.tr("Run “%1” stored: %n ranked list(s).", "", fetched), fetched),
                    outcome.name,
                )
            ]
            if outcome.kept:
                lines.append(arg(self.tr("The earlier fetch is kept as “%1”."), outcome.kept))
            if failed:
                lines.append(plural(self.tr("%n request(s) failed, left out:", "", failed), failed))
        else:
            lines = [
                arg(
                    plural(
                        self.tr(
                            "Queries: %1; %n request(s) failed, so nothing was stored. "
                            "The lists fetched are kept: Fetch again sends only the missing "
                            "queries.",
                            "",
                            failed,
                        ),
                        failed,
                    ),
                    str(outcome.queries),
                )
            ]
        for failure in outcome.failures[:LISTED_FAILURES]:
            answer = failure.answer[:QUOTED].replace("\n", " ")
            lines.append(f"{failure.query_id}: {failure.status}: {answer}".rstrip(": "))
        if failed > LISTED_FAILURES:
            more = failed - LISTED_FAILURES
            lines.append(plural(self.tr("… and %n more", "", more), more))
        return "\n".join(lines)


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget, 1 if isinstance(widget, QLineEdit) else 0)
    if not any(isinstance(widget, QLineEdit) for widget in widgets):
        row.addStretch(1)  # a number box keeps its own width
    return row


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _fill(table: QTableWidget, rows: list[list[str]]) -> None:
    """Show ``rows`` (K rows at most: the K the person chose)."""
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(value))


def _try(endpoint_path: str, queries_path: str, typed: str, k: int) -> tuple[str, list[Hit]]:
    """The id and mapped hits of one query (worker thread)."""
    from ndcg_studio.io.endpoints.file import read_endpoint
    from ndcg_studio.services.fetching.sender import Policy, Query
    from ndcg_studio.services.fetching.service import Limits, read_query_file, try_query

    endpoint = read_endpoint(endpoint_path)
    if typed:
        query = Query("try", typed)
    else:
        queries = read_query_file(queries_path)
        if not queries:
            raise InputError(f"{queries_path}: no queries")
        query = queries[0]
    limits = Limits(k=k, concurrency=1, policy=Policy(retries=1))
    return query.query_id, try_query(endpoint, query, limits)


def _fetch(
    db: Database,
    endpoint_path: str,
    queries_path: str,
    name: str,
    k: int,
    concurrency: int,
    replace: bool,
    *,
    progress: Progress,
    cancelled: Cancelled,
) -> FetchOutcome:
    """Fetch the run (worker thread); a cancel stops it at the next answer (the journal keeps
    the lists fetched so far)."""
    from ndcg_studio.io.endpoints.file import read_endpoint
    from ndcg_studio.services.fetching.journal import Journal, journal_folder, journal_path
    from ndcg_studio.services.fetching.service import FetchService, Limits, read_query_file

    endpoint = read_endpoint(endpoint_path)
    queries = read_query_file(queries_path)

    def report(done: int, total: int) -> None:
        progress(done, total)
        if cancelled():
            raise OperationCancelled()

    journal = Journal(journal_path(journal_folder(), name, endpoint.template_hash(), db.label))
    return FetchService(db).fetch(
        endpoint,
        queries,
        name=name,
        journal=journal,
        limits=Limits(k=k, concurrency=concurrency),
        replace=replace,
        progress=report,
    )
