"""The state every view shares: the open database, the current annotator, settings, undo stack.

Views never talk to each other; they subscribe to the :class:`AppContext` signals:

- ``database_changed()``: another database was opened (or closed), or its contents were
  replaced wholesale (demo loaded, import finished): reload everything.
- ``annotator_changed()``: another person is annotating.
- ``judgments_changed(object)``: grades changed; the argument is a ``frozenset`` of the affected
  query ids, or None when anything may have changed (bulk import). PySide6 also accepts a slot
  without arguments.
- ``settings_changed(str)``: the key of a changed setting (see :mod:`ndcg_studio.ui.settings`),
  e.g. ``"annotate/pool_depth"`` or ``"scoring/k"``. Scoring settings belong to the open
  database: switching databases switches them too (``database_changed`` covers that change).
- ``opening_changed(bool)``: a database is being opened (True) or the attempt ended (False);
  views say "Loading…" meanwhile rather than "No database is open."
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QUndoStack

from ndcg_studio.services.annotation.service import AnnotationService
from ndcg_studio.services.annotation.types import AnnotatorInfo
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.roles import SOLE, Rights
from ndcg_studio.ui import settings as S


def database_target(database: Database) -> str:
    """What identifies ``database`` in the settings and in Open Recent: its file's absolute
    path, or its URL without the password (passwords belong in ~/.pgpass or PGPASSWORD)."""
    url = database.url
    if database.is_sqlite:
        name = url.database or ""
        return str(Path(name).resolve()) if name and name != ":memory:" else name
    # URL.set(password=None) leaves the password as it is (None means "unchanged" there)
    return url._replace(password=None).render_as_string(hide_password=False)


class AppContext(QObject):
    """Owns the open :class:`Database` (disposed when replaced), the current annotator, the
    :class:`~ndcg_studio.ui.settings.Settings` and the app-wide ``QUndoStack``."""

    database_changed = Signal()
    annotator_changed = Signal()
    judgments_changed = Signal(object)
    settings_changed = Signal(str)
    opening_changed = Signal(bool)

    def __init__(self, qsettings: QSettings | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = S.Settings(qsettings)
        self.undo_stack = QUndoStack(self)
        self._database: Database | None = None
        self._annotator: AnnotatorInfo | None = None
        self._rights = SOLE
        self._opening = False

    # ------------------------------------------------------------------ opening
    @property
    def opening(self) -> bool:
        """Whether a database is being opened (in a worker) right now."""
        return self._opening

    def set_opening(self, opening: bool) -> None:
        """Say that a database is being opened (True) or that the attempt ended (False);
        emits ``opening_changed`` when that changes."""
        if opening != self._opening:
            self._opening = opening
            self.opening_changed.emit(opening)

    # ------------------------------------------------------------------ database
    @property
    def database(self) -> Database | None:
        return self._database

    def set_database(
        self,
        database: Database | None,
        annotator: AnnotatorInfo | None = None,
        *,
        dispose_previous: bool = True,
        rights: Rights = SOLE,
    ) -> None:
        """Switch to ``database`` (None closes) and its ``annotator`` (ids are per database; None:
        nobody yet), whose login has ``rights`` (:func:`ndcg_studio.storage.roles.rights_of`,
        read in the worker that opened it). Clears the undo stack (its commands belong to the
        old database), then emits ``database_changed`` once (and ``annotator_changed`` if the
        annotator changed). The previous database is disposed unless told otherwise."""
        previous = self._database
        annotator_changed = annotator != self._annotator
        self._database = database
        self._annotator = annotator
        self._rights = rights
        self.settings.set_database(database_target(database) if database is not None else None)
        self.undo_stack.clear()
        if annotator is not None:
            self.settings.set(S.ANNOTATOR, annotator.name)
        if previous is not None and previous is not database and dispose_previous:
            previous.dispose()
        self.database_changed.emit()
        if annotator_changed:
            self.annotator_changed.emit()

    @property
    def rights(self) -> Rights:
        """What the open database's login may do (an SQLite file: everything); the menus offer
        only that."""
        return self._rights

    def require_database(self) -> Database:
        """The open database.

        Raises:
            LookupError: no database is open.
        """
        if self._database is None:
            raise LookupError(self.tr("no database is open: use File ▸ Open database… first"))
        return self._database

    def annotation_service(self) -> AnnotationService:
        """An :class:`AnnotationService` on the open database (cheap; holds no session).

        Raises:
            LookupError: no database is open.
        """
        return AnnotationService(self.require_database())

    def notify_data_replaced(self) -> None:
        """The database's contents changed wholesale (demo or import): views reload."""
        self.undo_stack.clear()
        self.database_changed.emit()

    # ------------------------------------------------------------------ annotator
    @property
    def annotator(self) -> AnnotatorInfo | None:
        return self._annotator

    def set_annotator(self, annotator: AnnotatorInfo | None) -> None:
        """Make ``annotator`` current (remembered by name in the settings); emits
        ``annotator_changed``. The undo stack is cleared: its grades were someone else's."""
        if annotator == self._annotator:
            return
        self._annotator = annotator
        self.undo_stack.clear()
        if annotator is not None:
            self.settings.set(S.ANNOTATOR, annotator.name)
        self.annotator_changed.emit()

    def remembered_annotator_name(self) -> str:
        """The name last used on this computer ('' on first start)."""
        return self.settings.get(S.ANNOTATOR)

    # ------------------------------------------------------------------ judgments, settings
    def notify_judgments_changed(self, query_ids: Iterable[int] | None = None) -> None:
        """Tell every view that grades of ``query_ids`` (None: any query) changed."""
        self.judgments_changed.emit(None if query_ids is None else frozenset(query_ids))

    def setting(self, setting: S.Setting[Any]) -> Any:
        """The current value of ``setting``."""
        return self.settings.get(setting)

    def set_setting(self, setting: S.Setting[Any], value: Any) -> None:
        """Store ``value`` and emit ``settings_changed(key)`` if it changed.

        Raises:
            ValueError: invalid value (see :meth:`Settings.set`).
        """
        if self.settings.get(setting) == value:
            return
        self.settings.set(setting, value)
        self.settings_changed.emit(setting.key)

    def last_folder(self) -> str:
        """The folder of the last file opened or saved, if it still exists; else home."""
        folder = self.settings.get(S.LAST_FOLDER)
        return folder if folder and Path(folder).is_dir() else str(Path.home())

    @property
    def pool_depth(self) -> int:
        return self.settings.get(S.POOL_DEPTH)

    @property
    def pool_order(self) -> Any:
        """The Annotate pool's order: a
        :class:`ndcg_studio.services.annotation.pool_order.PoolOrder`
        (what decides two runs first), or None for the shuffled order."""
        from ndcg_studio.services.annotation.pool_order import PoolOrder

        return PoolOrder.from_text(self.settings.get(S.POOL_ORDER))

    @property
    def k(self) -> int:
        return self.settings.get(S.K)

    @property
    def gain(self) -> str:
        return self.settings.get(S.GAIN)

    @property
    def ideal(self) -> str:
        return self.settings.get(S.IDEAL)

    @property
    def consensus(self) -> str:
        return self.settings.get(S.CONSENSUS)

    @property
    def band_thresholds(self) -> tuple[float, float, float, float]:
        return self.settings.band_thresholds

    def scoring_settings(self) -> Any:
        """The app's scoring options as
        :class:`ndcg_studio.services.scoring.service.ScoringSettings`
        (K, gain, ideal, consensus, bands; everything else at its trec_eval default). Invalid
        band thresholds fall back to the defaults."""
        from ndcg_studio.domain.bands import BandThresholds
        from ndcg_studio.services.scoring.settings import ScoringSettings

        try:
            bands = BandThresholds(*self.band_thresholds)
        except ValueError:
            bands = BandThresholds()
        return ScoringSettings(
            k=self.k,
            gain=self.gain,  # type: ignore[arg-type]
            ideal=self.ideal,  # type: ignore[arg-type]
            consensus=self.consensus,  # type: ignore[arg-type]
            bands=bands,
        )
