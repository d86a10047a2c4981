"""File ▸ Import… and File ▸ Export… of the main window: choose a kind and a file, then run
the import or export service in a worker with a progress dialog and Cancel.

The dialogs take the :class:`~ndcg_studio.ui.context.AppContext`, the parent widget and where
to show the one-line result (the main window's status bar); they know no main window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QWidget,
)

from ndcg_studio.services.exporting.service import ExportRequest, ExportService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S
from ndcg_studio.ui.context import AppContext
from ndcg_studio.ui.language import arg, plural
from ndcg_studio.ui.workers import run_task

K = TypeVar("K")

#: shows a one-line result for some milliseconds (``MainWindow.show_message``)
ShowMessage = Callable[[str, int], None]

#: the context of this module's messages
CONTEXT = "Transfer"
#: import kinds: (label, file-dialog filter), both translated in context "Transfer"
IMPORT_KINDS = {
    "run": (
        QT_TRANSLATE_NOOP("Transfer", "A run (TREC run file)"),
        QT_TRANSLATE_NOOP("Transfer", "TREC run (*.txt *.run *.trec);;All files (*)"),
    ),
    "qrels": (
        QT_TRANSLATE_NOOP("Transfer", "Judgments as TREC qrels"),
        QT_TRANSLATE_NOOP("Transfer", "TREC qrels (*.txt *.qrels);;All files (*)"),
    ),
    "judgments": (
        QT_TRANSLATE_NOOP("Transfer", "Judgments as CSV"),
        QT_TRANSLATE_NOOP("Transfer", "CSV (*.csv);;All files (*)"),
    ),
    "queries": (
        QT_TRANSLATE_NOOP("Transfer", "Queries (TSV, CSV)"),
        QT_TRANSLATE_NOOP("Transfer", "Queries (*.tsv *.csv *.txt);;All files (*)"),
    ),
    "documents": (
        QT_TRANSLATE_NOOP("Transfer", "Documents (CSV, JSONL)"),
        QT_TRANSLATE_NOOP("Transfer", "Documents (*.csv *.jsonl);;All files (*)"),
    ),
    "smart": (
        QT_TRANSLATE_NOOP("Transfer", "A SMART collection file (Cranfield)"),
        QT_TRANSLATE_NOOP("Transfer", "All files (*)"),
    ),
    "topics": (
        QT_TRANSLATE_NOOP("Transfer", "TREC topics (title, description, narrative)"),
        QT_TRANSLATE_NOOP("Transfer", "TREC topics (*.txt *.xml *.topics);;All files (*)"),
    ),
}
#: export kinds and their labels (translated in context "Transfer")
EXPORT_KINDS = {
    "report": QT_TRANSLATE_NOOP("Transfer", "NDCG report (CSV)"),
    "judgments": QT_TRANSLATE_NOOP("Transfer", "Judgments (CSV)"),
    "qrels": QT_TRANSLATE_NOOP("Transfer", "Consensus qrels (TREC)"),
    "agreement": QT_TRANSLATE_NOOP("Transfer", "Agreement (CSV)"),
    "compare": QT_TRANSLATE_NOOP("Transfer", "Run comparison (CSV)"),
}


def ask_item(parent: QWidget, title: str, label: str, items: list[str]) -> tuple[str, bool]:
    """Like ``QInputDialog.getItem`` (not editable, first item current), but wide enough for
    its window title and every item: the static version opened too narrow on a window
    manager, "Expor… Studio" with "Consensus qrels (TREC" cut. Returns (item, accepted)."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setComboBoxItems(items)
    dialog.setComboBoxEditable(False)
    dialog.setTextValue(items[0] if items else "")
    metrics = dialog.fontMetrics()
    # the title bar shows "title — NDCG Studio" plus the window manager's buttons; the dialog
    # sizes itself to its layout, so the combo box carries the width
    title_width = metrics.horizontalAdvance(title + " — NDCG Studio") + 140
    items_width = max((metrics.horizontalAdvance(i) for i in items), default=0) + 60
    for combo in dialog.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        combo.setMinimumWidth(max(320, title_width, items_width))
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return dialog.textValue(), accepted


def ask_choice(
    parent: QWidget, title: str, question: str, choices: Mapping[K, str]
) -> tuple[K, str] | None:
    """Which of ``choices`` (key: its label, untranslated, context "Transfer") the person picks
    in :func:`ask_item`: the key and the label as shown, or None when cancelled."""
    labels = [QCoreApplication.translate("Transfer", label) for label in choices.values()]
    choice, ok = ask_item(parent, title, question, labels)
    if not ok or choice not in labels:  # not editable: an accepted answer is one of the labels
        return None
    return list(choices)[labels.index(choice)], choice


def import_file(context: AppContext, parent: QWidget, show_message: ShowMessage) -> None:
    """File ▸ Import…: choose a kind, then a file; runs
    ``ImportService(database).import_file(kind, path, progress=..., cancelled=...)`` of
    :mod:`ndcg_studio.services.importing.service` in a worker (progress dialog with Cancel; the
    import
    is one transaction, so a cancelled import writes nothing), then every view reloads.
    """
    # on a team database only the owner imports runs, queries and documents; an annotator or a
    # lead imports its own judgments (the server refuses the rest: not offered)
    kinds = [k for k in IMPORT_KINDS if context.rights.owner or k in ("qrels", "judgments")]
    chosen = ask_choice(
        parent,
        QCoreApplication.translate("Transfer", "Import"),
        QCoreApplication.translate("Transfer", "What does the file hold?"),
        {k: IMPORT_KINDS[k][0] for k in kinds},
    )
    if chosen is None:
        return
    kind, choice = chosen
    path, _ = QFileDialog.getOpenFileName(
        parent,
        arg(
            QCoreApplication.translate("Transfer", "Import %1"), choice[:1].lower() + choice[1:]
        ),  # "Import judgments as CSV"
        context.last_folder(),
        QCoreApplication.translate("Transfer", IMPORT_KINDS[kind][1]),
    )
    if not path:
        return
    context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
    service = ImportService(context.require_database())
    if kind == "run":  # a run of the same name is replaced only when the person says so
        run_task(
            lambda _progress, _cancelled: (service.taken_run_name(path), service.run_names()),
            on_success=lambda found: _import_run(context, parent, show_message, path, *found),
            owner=parent,
        )
        return
    options = (
        ask_source(parent, context, Path(path), kind) if kind in ("qrels", "judgments") else {}
    )
    if options is None:
        return
    _import(context, parent, show_message, kind, path, options)


def _import_run(
    context: AppContext,
    parent: QWidget,
    show_message: ShowMessage,
    path: str,
    taken: str | None,
    names: list[str],
) -> None:
    """Import the run file ``path``; when its tag ``taken`` names a run already, ask first
    (:class:`~ndcg_studio.ui.dialogs.run_name.RunNameDialog`)."""
    options: dict[str, Any] = {}
    if taken is not None:
        from ndcg_studio.ui.dialogs.run_name import RunNameDialog

        dialog = RunNameDialog(Path(path), taken, set(names), parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        options = {"replace": True} if dialog.replace else {"name": dialog.name}
    _import(context, parent, show_message, "run", path, options)


def _import(
    context: AppContext,
    parent: QWidget,
    show_message: ShowMessage,
    kind: str,
    path: str,
    options: dict[str, Any],
) -> None:
    """Run the import in a worker; one line in the status bar when it is done."""
    service = ImportService(context.require_database())

    def done(summary: Any) -> None:
        context.notify_data_replaced()
        # one line that fits the status bar: the file's name and what became of it (the
        # counts are the tooltip's: 'queries created', 'results' … do not fit at 1024 px)
        show_message(short_summary(summary), 15000)

    run_task(
        lambda progress, cancelled: service.import_file(
            kind, path, progress=progress, cancelled=cancelled, **options
        ),
        on_success=done,
        owner=parent,
        label=arg(QCoreApplication.translate("Transfer", "Importing %1…"), Path(path).name),
    )


def short_summary(summary: Any) -> str:
    """'run.txt: 1,000 lines imported; run 'bm25' replaced' — the file's name, the lines and
    the notes of an :class:`~ndcg_studio.services.importing.steps.ImportSummary`, without the
    per-table counts."""
    text = TransferText().imported(summary.rows, Path(summary.path).name)
    return "; ".join([text, *summary.notes])


#: Who made the judgments of an imported file: no source (a human annotator), or a source kind
#: (labels translated in context "Transfer").
SOURCE_CHOICES = {
    QT_TRANSLATE_NOOP("Transfer", "Annotators (no judgment source)"): None,
    QT_TRANSLATE_NOOP("Transfer", "A vendor's judgments"): "vendor",
    QT_TRANSLATE_NOOP("Transfer", "A model's (LLM) judgments"): "model",
    QT_TRANSLATE_NOOP("Transfer", "A team of human assessors"): "human",
}


def ask_source(
    parent: QWidget, context: AppContext, path: Path, kind: str
) -> dict[str, str] | None:
    """For qrels and judgments: whether the file is a judgment source's (a vendor's, a
    model's, a team's) and its name; for qrels of annotators, whose (the file has no
    annotator column: asked, never taken from the file's name). ``{}`` for a judgments file of
    annotators, the import options otherwise, None when cancelled."""
    chosen = ask_choice(
        parent,
        QCoreApplication.translate("Transfer", "Import"),
        QCoreApplication.translate("Transfer", "Whose judgments are these?"),
        {source_kind: label for label, source_kind in SOURCE_CHOICES.items()},
    )
    if chosen is None:
        return None
    source_kind = chosen[0]
    if source_kind is None:
        if kind == "judgments":  # a judgments file names its annotators
            return {}
        return _ask_qrels_annotator(parent, context)
    name = _ask_name(
        parent, QCoreApplication.translate("Transfer", "Name of the judgment source:"), path.stem
    )
    return None if name is None else {"source": name, "source_kind": source_kind}


def _ask_qrels_annotator(parent: QWidget, context: AppContext) -> dict[str, str] | None:
    """Whose grades a qrels file holds (proposed: the current annotator; on a team database
    the login, the only name it may import under); None when cancelled."""
    current = context.annotator.name if context.annotator is not None else ""
    name = _ask_name(
        parent,
        QCoreApplication.translate("Transfer", "Annotator whose grades these are:"),
        context.rights.login or current if context.rights.team else current,
    )
    return None if name is None else {"annotator": name}


def _ask_name(parent: QWidget, prompt: str, proposed: str) -> str | None:
    """A name typed in the Import dialog under ``prompt`` (``proposed`` filled in), stripped;
    None when cancelled or left blank."""
    name, ok = QInputDialog.getText(
        parent, QCoreApplication.translate("Transfer", "Import"), prompt, text=proposed
    )
    return name.strip() if ok and name.strip() else None


def export_file(context: AppContext, parent: QWidget, show_message: ShowMessage) -> None:
    """File ▸ Export…: choose what, then where; writes an
    :class:`~ndcg_studio.services.exporting.service.ExportRequest` of that kind and path, with the
    app's scoring settings, in a worker. A comparison asks for the two
    runs."""
    chosen = ask_choice(
        parent,
        QCoreApplication.translate("Transfer", "Export"),
        QCoreApplication.translate("Transfer", "What to export?"),
        EXPORT_KINDS,
    )
    if chosen is None:
        return
    kind, choice = chosen
    if kind == "compare":  # the run names are read off the GUI thread, then asked for
        names_service = ExportService(context.require_database())
        run_task(
            lambda _progress, _cancelled: names_service.run_names(),
            on_success=lambda names: _export_compare(context, parent, show_message, choice, names),
            owner=parent,
        )
        return
    _export_to(context, parent, show_message, kind, choice, None)


def _export_compare(
    context: AppContext, parent: QWidget, show_message: ShowMessage, choice: str, names: list[str]
) -> None:
    runs = _ask_two_runs(parent, names)
    if runs is not None:
        _export_to(context, parent, show_message, "compare", choice, runs)


def _export_to(
    context: AppContext,
    parent: QWidget,
    show_message: ShowMessage,
    kind: str,
    choice: str,
    runs: list[str] | None,
) -> None:
    """Ask where, then write the export in a worker."""
    suffix = ".txt" if kind == "qrels" else ".csv"
    plain = (
        QCoreApplication.translate("Transfer", "TREC qrels (*.txt)")
        if kind == "qrels"
        else QCoreApplication.translate("Transfer", "CSV (*.csv)")
    )
    path, chosen = QFileDialog.getSaveFileName(
        parent,
        arg(QCoreApplication.translate("Transfer", "Export %1"), choice),
        str(Path(context.last_folder()) / f"{kind}{suffix}"),
        ";;".join(
            (
                plain,
                QCoreApplication.translate("Transfer", XLSX_FILTER),
                QCoreApplication.translate("Transfer", "All files (*)"),
            )
        ),
    )
    if not path:
        return
    file_format = export_format(path, chosen)
    if file_format == "xlsx" and not path.lower().endswith(".xlsx"):
        path = str(Path(path).with_suffix(".xlsx"))
    context.settings.set(S.LAST_FOLDER, str(Path(path).parent))
    service = ExportService(context.require_database())
    settings = context.scoring_settings()
    run_task(
        lambda progress, cancelled: service.write(
            ExportRequest(kind, path, settings=settings, runs=runs, file_format=file_format),
            progress=progress,
            cancelled=cancelled,
        ),
        on_success=lambda n: show_message(_exported(n, path), 15000),
        owner=parent,
        label=arg(QCoreApplication.translate("Transfer", "Exporting %1…"), Path(path).name),
    )


class TransferText(QObject):
    """The context of this module's ``%n`` plurals (pyside6-lupdate collects a plural from
    ``self.tr`` with a variable count, not from ``QCoreApplication.translate``)."""

    def imported(self, n: int, name: str) -> str:
        """'%1: %n line(s) imported' in the interface language."""
        return arg(plural(self.tr("%1: %n line(s) imported", "", n), n), name)

    def exported(self, n: int, path: str) -> str:
        """'Exported %n row(s) to %1' in the interface language."""
        return arg(plural(self.tr("Exported %n row(s) to %1", "", n), n), path)


def _exported(n: int, path: str) -> str:
    return TransferText().exported(n, path)


#: The Export dialog's filter for an Excel workbook (untranslated; the dialog shows it
#: translated in context "Transfer").
XLSX_FILTER = QT_TRANSLATE_NOOP("Transfer", "Excel workbook (*.xlsx)")


def export_format(path: str, chosen_filter: str) -> str | None:
    """The format of an export from its save dialog: ``"xlsx"`` when the workbook filter was
    chosen or the name ends in ``.xlsx``, else None (the kind's own: CSV, TREC qrels)."""
    if chosen_filter in (
        XLSX_FILTER,
        QCoreApplication.translate("Transfer", XLSX_FILTER),
    ) or path.lower().endswith(".xlsx"):
        return "xlsx"
    return None


def _ask_two_runs(parent: QWidget, names: list[str]) -> list[str] | None:
    """Run A and run B among ``names`` (the database's runs, ascending); None if cancelled."""
    if len(names) < 2:
        QMessageBox.information(
            parent,
            QCoreApplication.translate("Transfer", "Export"),
            QCoreApplication.translate("Transfer", "A comparison needs two runs in the database."),
        )
        return None
    first, ok = ask_item(
        parent,
        QCoreApplication.translate("Transfer", "Compare runs"),
        QCoreApplication.translate("Transfer", "Run A:"),
        names,
    )
    if not ok:
        return None
    rest = [n for n in names if n != first]
    second, ok = ask_item(
        parent,
        QCoreApplication.translate("Transfer", "Compare runs"),
        QCoreApplication.translate("Transfer", "Run B:"),
        rest,
    )

    return [first, second] if ok else None
