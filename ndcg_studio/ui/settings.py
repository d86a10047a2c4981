"""Typed access to the app's QSettings: scoring options, pool depth, annotator name, recent files.

Values always come back from QSettings with ``type=`` (otherwise an INI or native backend returns
strings in the next process). Each setting is a :class:`Setting` constant naming its key, default
and type, so views read ``settings.get(POOL_DEPTH)`` and never spell a key twice. Window geometry
and splitter states are stored by the widgets themselves under ``window/`` and ``<view>/``.

Scoring settings and the pool depth belong to a database (``per_database``): they are stored
under ``databases/<digest of the database's path or URL>/`` (see :meth:`Settings.set_database`),
so a second database opened starts from the defaults (K=10, linear gain, …), not from the
choices made on the first. They are kept in the user's QSettings rather than in the database:
they are one analyst's view of the data (two people on a team server may look at nDCG@5 and
nDCG@20 at the same time), opening a database never writes to it, and no schema migration is
needed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QByteArray, QSettings

from ndcg_studio.vocabulary import (
    CONSENSUS_METHODS,
    DEFAULT_CONSENSUS,
    DEFAULT_GAIN,
    DEFAULT_IDEAL,
    GAINS,
    IDEALS,
    INTERFACE_LANGUAGES,
)

T = TypeVar("T", int, float, str, bool)


@dataclass(frozen=True)
class Setting(Generic[T]):
    """A named QSettings key with its default and Python type (int, float, str or bool)."""

    key: str
    default: T
    type: type[T]
    #: allowed values (None: any value of ``type``); invalid stored values fall back to default
    choices: tuple[T, ...] | None = None
    minimum: T | None = None
    maximum: T | None = None
    #: stored per database (see :meth:`Settings.set_database`), not once for the app
    per_database: bool = False


# scoring (read by the Review / Compare views and the scoring service)
K = Setting("scoring/k", 10, int, minimum=1, maximum=10_000, per_database=True)
GAIN = Setting("scoring/gain", str(DEFAULT_GAIN), str, choices=GAINS, per_database=True)
IDEAL = Setting("scoring/ideal", str(DEFAULT_IDEAL), str, choices=IDEALS, per_database=True)
CONSENSUS = Setting(
    "scoring/consensus",
    str(DEFAULT_CONSENSUS),
    str,
    choices=CONSENSUS_METHODS,
    per_database=True,
)
#: NDCG quality bands, lower bounds of excellent / good / fair / poor (bad below the last)
BAND_EXCELLENT = Setting("bands/excellent", 0.9, float, minimum=0.0, maximum=1.0, per_database=True)
BAND_GOOD = Setting("bands/good", 0.8, float, minimum=0.0, maximum=1.0, per_database=True)
BAND_FAIR = Setting("bands/fair", 0.7, float, minimum=0.0, maximum=1.0, per_database=True)
BAND_POOR = Setting("bands/poor", 0.6, float, minimum=0.0, maximum=1.0, per_database=True)
#: the machine source Compare and Review estimate from ("" = the first; see
#: :mod:`ndcg_studio.services.screens.estimate`)
ESTIMATE_SOURCE = Setting("estimate/machine_source", "", str, per_database=True)
# annotation
POOL_DEPTH = Setting("annotate/pool_depth", 10, int, minimum=1, maximum=1000, per_database=True)
#: "" = the shuffled pool; else :meth:`ndcg_studio.services.annotation.pool_order.PoolOrder.to_text`
POOL_ORDER = Setting("annotate/pool_order", "", str, per_database=True)
ANNOTATOR = Setting("user/annotator", "", str)
#: the interface language chosen in View ▸ Language ("" = follow the system locale); app-wide,
#: not per database (see :mod:`ndcg_studio.ui.language`)
LANGUAGE = Setting("ui/language", "", str, choices=("", *INTERFACE_LANGUAGES))
#: the colour theme chosen in View ▸ Theme: "system" (follow the desktop), "light" or "dark";
#: app-wide (see :mod:`ndcg_studio.ui.theme`)
THEME = Setting("ui/theme", "system", str, choices=("system", "light", "dark"))
# files
LAST_FOLDER = Setting("files/last_folder", "", str)
RECENT_DATABASES_KEY = "files/recent_databases"
MAX_RECENT = 8


class Settings:
    """The app's settings over one :class:`QSettings` (the native one by default; tests pass an
    INI file under tmp_path)."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.qsettings = qsettings if qsettings is not None else QSettings()
        self._prefix = ""

    # ------------------------------------------------------------------ per-database scope
    @staticmethod
    def database_group(target: str) -> str:
        """The QSettings group of the database at ``target`` (a path or a URL without
        password): ``databases/<16 hex digits of its SHA-1>`` (a path's slashes and a URL's
        colons cannot be part of a key)."""
        digest = hashlib.sha1(target.encode("utf-8"), usedforsecurity=False).hexdigest()
        return f"databases/{digest[:16]}"

    def set_database(self, target: str | None) -> None:
        """Read and write the ``per_database`` settings of the database at ``target`` from now
        on (None: no database open; the app-wide keys). The target is written beside them so
        the settings file says which database they belong to."""
        if not target:
            self._prefix = ""
            return
        group = self.database_group(target)
        self._prefix = group + "/"
        self.qsettings.setValue(f"{group}/target", target)

    def key_of(self, setting: Setting[Any]) -> str:
        """Where ``setting`` is stored now (per-database settings under the open database)."""
        return self._prefix + setting.key if setting.per_database else setting.key

    def get(self, setting: Setting[T]) -> T:
        """The stored value converted to the setting's type, or its default when missing or
        invalid (out of range, not a choice)."""
        try:
            value = self.qsettings.value(self.key_of(setting), setting.default, type=setting.type)
        except (TypeError, ValueError):
            return setting.default
        if not isinstance(value, setting.type):
            return setting.default
        if setting.choices is not None and value not in setting.choices:
            return setting.default
        if setting.minimum is not None and value < setting.minimum:
            return setting.default
        if setting.maximum is not None and value > setting.maximum:
            return setting.default
        return value

    def set(self, setting: Setting[T], value: T) -> None:
        """Store ``value``.

        Raises:
            ValueError: not of the setting's type, not one of its choices, or out of range.
        """
        if isinstance(value, bool) and setting.type is not bool:
            raise ValueError(f"{setting.key}: expected {setting.type.__name__}, got {value!r}")
        if setting.type is float and isinstance(value, int):
            value = float(value)  # type: ignore[assignment]
        if not isinstance(value, setting.type):
            raise ValueError(f"{setting.key}: expected {setting.type.__name__}, got {value!r}")
        if setting.choices is not None and value not in setting.choices:
            raise ValueError(f"{setting.key}: {value!r} is not one of {setting.choices}")
        if (setting.minimum is not None and value < setting.minimum) or (
            setting.maximum is not None and value > setting.maximum
        ):
            raise ValueError(
                f"{setting.key}: {value!r} is outside {setting.minimum}–{setting.maximum}"
            )
        self.qsettings.setValue(self.key_of(setting), value)

    # ------------------------------------------------------------------ typed shortcuts
    @property
    def band_thresholds(self) -> tuple[float, float, float, float]:
        """Lower bounds of the excellent, good, fair and poor NDCG bands (default
        0.9, 0.8, 0.7, 0.6; bad below the last)."""
        return (
            self.get(BAND_EXCELLENT),
            self.get(BAND_GOOD),
            self.get(BAND_FAIR),
            self.get(BAND_POOR),
        )

    def recent_databases(self) -> list[str]:
        """Recently opened databases (paths or URLs), newest first."""
        raw = self.qsettings.value(RECENT_DATABASES_KEY, "", type=str)
        return [line for line in str(raw).split("\n") if line]

    def add_recent_database(self, target: str) -> None:
        """Put ``target`` first in the recent list (at most :data:`MAX_RECENT` entries)."""
        items = [target, *(r for r in self.recent_databases() if r != target)][:MAX_RECENT]
        self.qsettings.setValue(RECENT_DATABASES_KEY, "\n".join(items))

    def clear_recent_databases(self) -> None:
        self.qsettings.remove(RECENT_DATABASES_KEY)

    # ------------------------------------------------------------------ widget state
    def byte_array(self, key: str) -> QByteArray | None:
        """A saved widget state (geometry, splitter), or None."""
        value = self.qsettings.value(key, None, type=QByteArray)
        if isinstance(value, QByteArray) and not value.isEmpty():
            return value
        return None

    def set_byte_array(self, key: str, value: QByteArray) -> None:
        self.qsettings.setValue(key, value)

    def sync(self) -> None:
        self.qsettings.sync()
