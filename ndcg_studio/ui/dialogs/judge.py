"""The Judge dialog: grade pooled items with a machine judge (an OpenAI-compatible server or the
local model), with a preview of one prompt, the requests and tokens a run would take, and a run
with progress, ETA and Cancel.

Everything that reads the database or grows with the items — the plan, the preview and
estimate, the run — is a task on :func:`ndcg_studio.ui.workers.run_task`; the GUI thread only
shows the counts. Cancel stops asking and keeps every answer already stored (see
:mod:`ndcg_studio.services.judges.job`); the same settings run again continue where it stopped.
The API key is read from the environment or the keyring by the service, never typed here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QWidget,
)

from ndcg_studio.ui.language import arg
from ndcg_studio.ui.workers import Task, run_task

__all__ = ["JudgeDialog", "install_judge"]

_SHIPPED = ("umbrela", "thomas")


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    minutes, secs = divmod(int(seconds + 0.5), 60)
    return f"{minutes}:{secs:02d}"


class JudgeDialog(QDialog):
    """Set up, preview and run a machine judge on the context's database."""

    def __init__(self, context: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judge_dialog")
        self.setWindowTitle(self.tr("Machine judge"))
        self.resize(820, 640)
        self.context = context
        self.task: Task[Any] | None = None
        self.state: Any = None
        # the run's latest progress, written by the worker, read here on progress signals
        self._latest: dict[str, Any] = {}
        self.template_file = ""
        form = QFormLayout(self)
        self._add_judge_rows(form)
        self._add_item_rows(form)
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("judge_preview")
        form.addRow(self.tr("Prompt of one item"), self.preview)
        self.estimate = QLabel(self.tr("Preview to see the requests a run would make."), self)
        self.estimate.setObjectName("judge_estimate")
        self.estimate.setWordWrap(True)
        form.addRow(self.estimate)
        self.progress = QProgressBar(self)
        self.status = QLabel("", self)
        self.status.setObjectName("judge_status")
        self.status.setWordWrap(True)
        form.addRow(self.progress)
        form.addRow(self.status)
        row = QHBoxLayout()
        self.preview_button = QPushButton(self.tr("&Preview and estimate"), self)
        self.run_button = QPushButton(self.tr("&Run"), self)
        self.cancel_button = QPushButton(self.tr("&Cancel run"), self)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.cancel_button.setEnabled(False)
        for button in (self.preview_button, self.run_button, self.cancel_button, self.close_button):
            row.addWidget(button)
        form.addRow(row)
        self.preview_button.clicked.connect(self.start_preview)
        self.run_button.clicked.connect(self.start_run)
        self.cancel_button.clicked.connect(self.cancel_run)
        self.close_button.clicked.connect(self.reject)
        self.backend.currentIndexChanged.connect(self._on_backend_changed)
        self._on_backend_changed()

    # ------------------------------------------------------------------ layout
    def _add_judge_rows(self, form: QFormLayout) -> None:
        self.source = QLineEdit("llm-judge", self)
        form.addRow(self.tr("Model source"), self.source)
        self.backend = QComboBox(self)
        backends = (self.tr("OpenAI-compatible server"), self.tr("Local model (offline)"))
        for text, key in zip(backends, ("openai", "local"), strict=True):
            self.backend.addItem(text, key)
        form.addRow(self.tr("Backend"), self.backend)
        self.base_url = QLineEdit("http://127.0.0.1:8000/v1", self)
        form.addRow(self.tr("Server URL"), self.base_url)
        self.model = QLineEdit("", self)
        self.model.setPlaceholderText(self.tr("the model's name on the server"))
        form.addRow(self.tr("Model"), self.model)
        self.template = QComboBox(self)
        self.template.setObjectName("judge_template")
        templates = (
            self.tr("UMBRELA (Upadhyay et al. 2024)"),
            self.tr("Thomas et al. 2023"),
            self.tr("From a file…"),
        )
        for text, key in zip(templates, (*_SHIPPED, "file"), strict=True):
            self.template.addItem(text, key)
        self.template.activated.connect(self._on_template_chosen)
        form.addRow(self.tr("Template"), self.template)
        row = QHBoxLayout()
        self.concurrency = QSpinBox(self)
        self.concurrency.setRange(1, 64)
        self.concurrency.setValue(4)
        self.max_requests = QSpinBox(self)
        self.max_requests.setRange(0, 10_000_000)
        self.max_requests.setSpecialValueText(self.tr("no limit"))
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        for text, widget in (
            (self.tr("concurrent"), self.concurrency),
            (self.tr("at most requests"), self.max_requests),
            (self.tr("temperature"), self.temperature),
        ):
            row.addWidget(QLabel(text, self))
            row.addWidget(widget)
        form.addRow(self.tr("Requests"), row)

    def _add_item_rows(self, form: QFormLayout) -> None:
        from ndcg_studio.services.campaigns.service import CampaignService

        self.runs = QListWidget(self)
        self.runs.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        self.runs.setMaximumHeight(100)
        db = self.context.database
        self.runs.addItems(CampaignService(db).run_names() if db is not None else [])
        self.depth_box = QSpinBox(self)
        self.depth_box.setRange(1, 1000)
        self.depth_box.setValue(10)
        row = QHBoxLayout()
        row.addWidget(self.runs, 1)
        row.addWidget(QLabel(self.tr("pool depth"), self))
        row.addWidget(self.depth_box)
        form.addRow(self.tr("Items: the pool of"), row)

    # ------------------------------------------------------------------ slots
    def _on_backend_changed(self) -> None:
        remote = self.backend.currentData() == "openai"
        for widget in (self.base_url, self.model, self.template, self.concurrency):
            widget.setEnabled(remote)

    def _on_template_chosen(self) -> None:
        if self.template.currentData() != "file":
            return
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Template"), "", self.tr("Templates (*.toml);;All files (*)")
        )
        if path:
            self.template_file = path
            self.template.setItemText(2, path)
        else:
            self.template.setCurrentIndex(0)

    def settings(self) -> dict[str, Any]:
        """What the dialog asks for, as plain values (read on the GUI thread)."""
        choice = self.template.currentData()
        return {
            "source": self.source.text().strip(),
            "backend": self.backend.currentData(),
            "base_url": self.base_url.text().strip(),
            "model": self.model.text().strip(),
            "prompt": self.template_file if choice == "file" else choice,
            "runs": [i.text() for i in self.runs.selectedItems()],
            "depth": self.depth_box.value(),
            "concurrency": self.concurrency.value(),
            "max_requests": self.max_requests.value() or None,
            "temperature": self.temperature.value(),
        }

    def _busy(self, busy: bool) -> None:
        self.preview_button.setEnabled(not busy)
        self.run_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)

    def _failed(self, exc: BaseException) -> None:
        self._busy(False)
        self.status.setText(arg(self.tr("Not done: %1"), str(exc)))

    def start_preview(self) -> None:
        """Plan in a task; show the prompt of the first item and the estimate."""
        settings = self.settings()
        db = self.context.database
        self._busy(True)
        self.task = run_task(
            lambda progress, cancelled: _preview(db, settings),
            on_success=self._show_preview,
            on_failure=self._failed,
            owner=self,
        )

    def _show_preview(self, result: tuple[Any, Any, str]) -> None:
        self._busy(False)
        d, plan, template = result
        text = "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in d.messages)
        self.preview.setPlainText(text or self.tr("(nothing left to grade)"))
        text = self.tr(
            "%1 items to grade (%2 already graded with this template and model); %3 requests, "
            "about %4 prompt + at most %5 completion tokens. Template %6."
        )
        self.estimate.setText(
            arg(
                text, f"{len(plan.todo):,}", f"{plan.skipped:,}", f"{d.requests:,}",
                f"{d.prompt_tokens:,}", f"{d.completion_tokens:,}", template,
            )
        )  # fmt: skip

    def start_run(self) -> None:
        """Run the job in a task, with progress and Cancel."""
        settings = self.settings()
        db = self.context.database
        self._busy(True)
        self.progress.setValue(0)

        latest = self._latest
        latest.clear()

        def job(progress: Any, cancelled: Any) -> Any:
            def report(state: Any) -> None:
                latest["state"] = state
                progress(state.done, max(state.total, 1))

            return _run(db, settings, report, cancelled)

        self.task = run_task(
            job,
            on_success=self._finished,
            on_failure=self._failed,
            on_progress=self._on_progress,
            owner=self,
        )

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(total)
        self.progress.setValue(done)
        s = self.state = self._latest.get("state")
        if s is not None:
            text = self.tr("%1 of %2 items; %3 requests, %4 tokens; %5 unparsed, %6 failed; ETA %7")
            tokens = s.prompt_tokens + s.completion_tokens
            self.status.setText(
                arg(
                    text, f"{s.done:,}", f"{s.total:,}", f"{s.requests:,}", f"{tokens:,}",
                    f"{s.unparsed:,}", f"{s.failed:,}", _eta(s.eta),
                )
            )  # fmt: skip

    def cancel_run(self) -> None:
        """Stop asking; answers already stored stay."""
        if self.task is not None:
            self.task.cancel()
        self._busy(False)
        s = self.state
        done = s.done if s is not None else 0
        text = self.tr("Cancelled: %1 answers stored; run again to continue.")
        self.status.setText(arg(text, f"{done:,}"))

    def _finished(self, state: Any) -> None:
        self._busy(False)
        self.state = state
        self.progress.setMaximum(max(state.total, 1))
        self.progress.setValue(state.done)
        text = arg(
            self.tr("Done: %1 graded, %2 unparsed, %3 failed; %4 requests."),
            f"{state.graded:,}",
            f"{state.unparsed:,}",
            f"{state.failed:,}",
            f"{state.requests:,}",
        )
        if state.stopped:
            text += " " + arg(self.tr("Stopped: %1"), state.stopped)
        if len(state.models) > 1:
            text += " " + arg(self.tr("Labels of more than one model: %1"), ", ".join(state.models))
        self.status.setText(text)


def _backend(db: Any, s: dict[str, Any]) -> Any:
    from ndcg_studio.domain.judges.templates import shipped_template
    from ndcg_studio.io.errors import InputError
    from ndcg_studio.io.judge_files import read_template

    if s["backend"] == "local":
        from ndcg_studio.services.judges.local import local_judge

        return local_judge(db)
    if not s["base_url"] or not s["model"]:
        raise InputError("give the server's URL and the model's name")
    from ndcg_studio.services.judges.keys import api_key
    from ndcg_studio.services.judges.remote import RemoteJudge

    prompt = s["prompt"]
    template = shipped_template(prompt) if prompt in _SHIPPED else read_template(prompt)
    key, _ = api_key(s["base_url"])
    return RemoteJudge(
        s["base_url"], s["model"], template, api_key=key, temperature=s["temperature"]
    )


def _items(db: Any, s: dict[str, Any]) -> list[tuple[int, int]]:
    from ndcg_studio.io.errors import InputError
    from ndcg_studio.services.judges.items import job_items

    if not s["runs"]:
        raise InputError("choose the runs whose pool to grade")
    return job_items(db, runs=s["runs"], depth=s["depth"])


def _preview(db: Any, s: dict[str, Any]) -> tuple[Any, Any, str]:
    """(dry run, plan, template label) — on a worker thread."""
    from ndcg_studio.services.judges.job import dry_run, plan_job

    backend = _backend(db, s)
    try:
        plan = plan_job(db, s["source"], backend, _items(db, s))
        label = f"{backend.template.name} {backend.template.digest[:12]}"
        return dry_run(plan, backend), plan, label
    finally:
        backend.close()


def _run(db: Any, s: dict[str, Any], report: Any, cancelled: Any) -> Any:
    """Run the job — on a worker thread."""
    from ndcg_studio.services.judges.job import plan_job, run_job
    from ndcg_studio.services.judges.source import open_model_source

    backend = _backend(db, s)
    try:
        items = _items(db, s)
        annotator = open_model_source(db, s["source"])
        plan = plan_job(db, s["source"], backend, items, annotator_id=annotator)
        concurrency = s["concurrency"] if backend.kind != "local" else 1
        return run_job(
            db, plan, backend, concurrency=concurrency, max_requests=s["max_requests"],
            progress=report, cancelled=cancelled,
        )  # fmt: skip
    finally:
        backend.close()


def install_judge(window: Any, menu: QMenu) -> None:
    """Add "Machine judge…" to ``menu`` of ``window`` (a MainWindow)."""
    action = menu.addAction(QCoreApplication.translate("JudgeMenu", "&Machine judge…"))
    action.setObjectName("judge_action")
    action.setShortcut(QKeySequence("Ctrl+Shift+J"))

    def open_dialog() -> None:
        JudgeDialog(window.context, window).exec()

    action.triggered.connect(open_dialog)
