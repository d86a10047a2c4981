"""The interface language: which one, loading its translations, and View ▸ Language.

The language is, in this order: ``--lang`` on the command line (this run only), the choice
stored by View ▸ Language (:data:`~ndcg_studio.ui.settings.LANGUAGE`, the app-wide QSettings,
not per database), the system locale (``QLocale.system()``) when it is Chinese or Russian, else
English. A change in the menu takes effect at the next start (the views build their text once).

Translations are Qt's: the app's ``ndcg_studio_<lang>.qm`` (compiled by ``pyside6-lrelease``
from ``resources/i18n/ndcg_studio_<lang>.ts``, shipped in the wheel under
``ndcg_studio/_resources/i18n``) and Qt's own ``qtbase_<lang>.qm`` from the PySide6 wheel (the
standard dialogs' buttons: OK, Cancel, …). ``scripts/update_translations.py`` regenerates both
``.ts`` and ``.qm``; ``tests/ui/test_translations.py`` fails on an untranslated string.

Text defined below ``ui`` is marked with :func:`ndcg_studio.translatable.QT_TRANSLATE_NOOP` and
shown through :func:`label`; placeholders ``%1`` … ``%9`` are filled after translation with
:func:`arg` (never an f-string inside ``tr``: the translation could not be found).

Source: "Internationalization with Qt" and the ``QTranslator`` / ``QLocale`` documentation, Qt 6.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, Qt, QTranslator
from PySide6.QtGui import QAction, QActionGroup, QFontDatabase
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from ndcg_studio._paths import resources_dir
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui import settings as S
from ndcg_studio.vocabulary import INTERFACE_LANGUAGES

__all__ = [
    "LANGUAGES",
    "add_language_menu",
    "apply_language",
    "arg",
    "choose_language",
    "counted",
    "label",
    "missing_font_message",
    "number",
    "plural",
    "resolve_language",
    "translations_dir",
    "warn_missing_font",
]

#: the interface languages: code and name, each in its own language (the menu shows these)
LANGUAGES: tuple[tuple[str, str], ...] = (("en", "English"), ("zh_CN", "中文"), ("ru", "Русский"))
CODES: tuple[str, ...] = INTERFACE_LANGUAGES
#: the context of this module's own messages in the .ts files
CONTEXT = "Language"
_RESTART = QT_TRANSLATE_NOOP("Language", "The language changes when NDCG Studio is started again.")
#: the language the running application shows (set by :func:`apply_language`)
_running = ["en"]
#: the script each language but English is written in, which some installed font must cover
_SCRIPTS = {
    "zh_CN": QFontDatabase.WritingSystem.SimplifiedChinese,
    "ru": QFontDatabase.WritingSystem.Cyrillic,
}
#: (English name, Debian/Ubuntu package, Fedora package) of a font for each script
#: (docs/install.md names the same)
_FONTS = {
    "zh_CN": ("Chinese", "fonts-noto-cjk", "google-noto-sans-cjk-fonts"),
    "ru": ("Russian", "fonts-dejavu-core", "dejavu-sans-fonts"),
}
# In English, not translated: without a font for its script the language itself is unreadable.
_NO_FONT_TITLE = "No font for the interface language"
_NO_FONT_OK = "OK"  # Qt's own translation of its button would be boxes as well
_NO_FONT = (
    "No font on this system has %1 characters, so %1 text shows as empty boxes. Install one "
    "(Debian/Ubuntu: sudo apt install %2; Fedora: sudo dnf install %3) and start NDCG Studio "
    "again, or choose English in View ▸ Language."
)


def label(context: str, text: str) -> str:
    """``text`` (marked with ``QT_TRANSLATE_NOOP(context, text)``, e.g. below ``ui``) in the
    interface language."""
    return QCoreApplication.translate(context, text)


def arg(text: str, *values: object) -> str:
    """Fill the placeholders ``%1`` … ``%9`` of a translated ``text`` with ``values`` (in the
    order of their numbers, wherever the translation put them), like ``QString::arg``."""
    for number in range(len(values), 0, -1):  # %1 must not eat the start of %10
        text = text.replace(f"%{number}", str(values[number - 1]))
    return text


def plural(text: str, n: int) -> str:
    """English plural of a ``%n … (s)`` message Qt returned untranslated (no translator, or the
    English interface): "(s)" goes for n = 1, becomes "s" otherwise. Translations carry their
    own numerus forms and no "(s)", so they pass unchanged.

    Use as ``plural(self.tr("%n judgment(s)", "", n), n)``."""
    return text.replace("(s)", "" if n == 1 else "s")


def number(n: int) -> str:
    """A count with the interface language's digit grouping: "1,400" in English, "1 400" in
    Russian, "1,400" in Chinese (``QLocale.toString`` of the default locale set by
    :func:`apply_language`; English keeps the comma whatever the system locale)."""
    return f"{n:,}" if _running[0] == "en" else QLocale().toString(n)


class Counts(QObject):
    """Counted nouns in the interface language (context "Counts"): "1 judgment", "3 оценки",
    "1,400 documents". The count is ``%1``, not ``%n``, to keep the language's digit grouping;
    ``self.tr(…, "", n)`` still picks the plural form (lupdate collects a numerus only from
    ``self.tr`` with a variable count)."""

    def text(self, noun: str, n: int) -> str:
        """``n`` and ``noun`` (annotators, documents, items, judgments, queries, rows or runs) in
        the interface language."""
        forms = {
            "annotators": lambda: self.tr("%1 annotator(s)", "", n),
            "documents": lambda: self.tr("%1 document(s)", "", n),
            "items": lambda: self.tr("%1 item(s)", "", n),
            "judgments": lambda: self.tr("%1 judgment(s)", "", n),
            "queries": lambda: self.tr("%1 query(ies)", "", n),
            "rows": lambda: self.tr("%1 row(s)", "", n),
            "runs": lambda: self.tr("%1 run(s)", "", n),
        }
        text = plural(forms[noun](), n).replace("query(ies)", "query" if n == 1 else "queries")
        return arg(text, number(n))


def counted(n: int, noun: str) -> str:
    """``n`` ``noun`` in the interface language with its plural form and digit grouping, like
    :func:`ndcg_studio.services.wording.count` in English: ``counted(1837, "judgments")`` is
    "1,837 judgments", "1 837 оценок", "1,837 条判断"."""
    return Counts().text(noun, n)


def translations_dir() -> Path:
    """The folder of the app's ``.qm`` files (``ndcg_studio/_resources/i18n`` in a wheel)."""
    return resources_dir() / "i18n"


def system_language(locale: QLocale | None = None) -> str:
    """ "zh_CN" for a Chinese system locale, "ru" for a Russian one, else "en"."""
    language = (locale if locale is not None else QLocale.system()).language()
    if language == QLocale.Language.Chinese:
        return "zh_CN"
    if language == QLocale.Language.Russian:
        return "ru"
    return "en"


def resolve_language(requested: str | None, settings: S.Settings) -> str:
    """The language to run in: ``requested`` (``--lang``) if given, else the stored choice,
    else :func:`system_language`.

    Raises:
        ValueError: ``requested`` is not one of :data:`CODES`.
    """
    if requested:
        if requested not in CODES:
            raise ValueError(f"--lang: {requested!r} is not one of {', '.join(CODES)}")
        return requested
    return settings.get(S.LANGUAGE) or system_language()


def _translator(
    name: str, folder: str | Path, parent: QCoreApplication | None = None
) -> QTranslator | None:
    # parented to the application, so it lives as long as the app, whoever keeps the undo
    translator = QTranslator(parent)
    if translator.load(name, str(folder)):
        return translator
    if parent is not None:
        translator.setParent(None)  # freed with the Python object
    return None


def apply_language(code: str) -> Callable[[], None]:
    """Install the translators of ``code`` on the running application and make
    ``QLocale(code)`` the default locale (numbers, dates and collation follow); English keeps the
    system locale. Returns a function that undoes both (tests; embedding)."""
    app = QCoreApplication.instance()
    installed: list[QTranslator] = []
    previous, previous_code = QLocale(), _running[0]
    _running[0] = code
    if code != "en" and app is not None:
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        for name, folder in (
            (f"qtbase_{code}", qt_dir),
            (f"ndcg_studio_{code}", translations_dir()),
        ):
            translator = _translator(name, folder, app)
            if translator is not None and app.installTranslator(translator):
                installed.append(translator)
        QLocale.setDefault(QLocale(code))

    def undo() -> None:
        for translator in installed:
            QCoreApplication.removeTranslator(translator)
            translator.deleteLater()
        QLocale.setDefault(previous)
        _running[0] = previous_code

    return undo


def _script_families(code: str) -> list[str]:
    """The installed font families that cover the script of ``code`` (needs a QGuiApplication;
    ``QFontDatabase.families``, Qt 6)."""
    return list(QFontDatabase.families(_SCRIPTS[code]))


def missing_font_message(code: str) -> str | None:
    """In English, that no installed font covers the script of ``code`` and which package to
    install; None when one does, or for English (asks Qt's font database: needs a
    QGuiApplication)."""
    if code not in _SCRIPTS or _script_families(code):
        return None
    return arg(_NO_FONT, *_FONTS[code])


def _open_box(icon: QMessageBox.Icon, title: str, text: str, parent: QWidget) -> QMessageBox:
    """A message box over ``parent``, window-modal without blocking the event loop
    (``QDialog.open``), deleted when closed."""
    box = QMessageBox(icon, title, text)
    box.setParent(parent, box.windowFlags())
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def warn_missing_font(code: str, parent: QWidget) -> QMessageBox | None:
    """When no installed font covers the script of ``code``, say so in a window-modal box over
    ``parent`` (its text selectable, to copy the command). Returns the box, else None."""
    message = missing_font_message(code)
    if message is None:
        return None
    # window-modal: it has the keys, Enter or Esc closes it; a box that is not modal left the
    # keys with the window shown just before it (xcb, openbox)
    box = _open_box(QMessageBox.Icon.Warning, _NO_FONT_TITLE, message, parent)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.button(QMessageBox.StandardButton.Ok).setText(_NO_FONT_OK)
    return box


def restart_message(code: str) -> str:
    """The "takes effect after restart" sentence in the language ``code`` (not the running
    one: the user reads it in the language just chosen)."""
    if code != "en":
        translator = _translator(f"ndcg_studio_{code}", translations_dir())
        if translator is not None:
            text = translator.translate(CONTEXT, _RESTART)
            if text:
                return text
    return _RESTART


def choose_language(code: str, settings: S.Settings, parent: QWidget | None = None) -> str:
    """Store ``code`` as the interface language and tell the user, in that language, that it
    applies at the next start (a non-blocking message box); in English with
    :func:`missing_font_message` when no installed font can show that language. Returns the
    message."""
    settings.set(S.LANGUAGE, code)
    settings.sync()
    missing = missing_font_message(code)
    message = restart_message(code) if missing is None else f"{_RESTART} {missing}"
    if parent is not None:
        title = dict(LANGUAGES)[code] if missing is None else _FONTS[code][0]  # readable
        _open_box(QMessageBox.Icon.Information, title, message, parent)
    return message


def add_language_menu(menu: QMenu, settings: S.Settings, parent: QWidget | None = None) -> QMenu:
    """Add View ▸ Language to ``menu``: English, 中文, Русский (each in its own language,
    checkable; the stored choice, else the running language, is checked). Choosing one calls
    :func:`choose_language`. Returns the submenu."""
    menu.addSeparator()
    submenu = menu.addMenu(QCoreApplication.translate("Language", "&Language"))
    group = QActionGroup(submenu)
    checked = settings.get(S.LANGUAGE) or _running[0]
    for code, name in LANGUAGES:
        action = QAction(name, submenu)
        action.setCheckable(True)
        action.setChecked(code == checked)
        action.setData(code)
        action.triggered.connect(lambda _on=False, c=code: choose_language(c, settings, parent))
        group.addAction(action)
        submenu.addAction(action)
    return submenu
