"""The Chinese and Russian interface (#21.1): complete translations, placeholders kept, no text
that lupdate cannot collect, and the app actually showing them.

(a) every message of both ``.ts`` files is finished, numerus messages carry the language's number
of forms (zh_CN 1, ru 3); (b) every placeholder of a source is in every form of its translation;
(c) ``pyside6-lupdate`` over today's sources adds no unfinished message, every literal message the
code passes to ``tr`` / ``translate`` / ``QT_TRANSLATE_NOOP`` is in the files, and the committed
``.qm`` are what ``pyside6-lrelease`` makes of the ``.ts``; (d) nothing is formatted inside a
``tr`` call; (e) literal text handed to a Qt text setter in ``ndcg_studio/ui`` goes through ``tr``
(files not converted yet are listed); (f) ``--lang zh_CN`` shows Chinese, with a real
``QTranslator`` load.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox, QMenu, QMessageBox, QWidget

from ndcg_studio.ui import language
from ndcg_studio.ui import settings as S

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ndcg_studio"
I18N = ROOT / "resources" / "i18n"
#: translated languages and the number of plural forms Qt uses for each
FORMS = {"zh_CN": 1, "ru": 3}
PLACEHOLDER = re.compile(r"%(?:n|[1-9])")
TRANSLATING = {"tr", "translate", "QT_TRANSLATE_NOOP"}

#: ui files whose text is not yet converted (empty since phase 2 of #21.1: every ui file is)
NOT_YET_CONVERTED: set[str] = set()


def _messages(language_code: str, folder: Path = I18N) -> list[tuple[str, ET.Element]]:
    tree = ET.parse(folder / f"ndcg_studio_{language_code}.ts")
    return [
        (context.findtext("name", ""), message)
        for context in tree.getroot().iter("context")
        for message in context.iter("message")
    ]


def _forms(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    assert translation is not None
    if message.get("numerus") == "yes":
        return [form.text or "" for form in translation.iter("numerusform")]
    return [translation.text or ""]


def _lupdate() -> str:
    tool = Path(sys.executable).with_name("pyside6-lupdate")
    found = str(tool) if tool.exists() else shutil.which("pyside6-lupdate")
    if found is None:
        pytest.skip("pyside6-lupdate is not installed (it comes with the PySide6 wheel)")
    return found


# ---------------------------------------------------------------------------- (a) and (b)
@pytest.mark.parametrize("code", sorted(FORMS))
def test_every_message_is_translated_with_the_languages_plural_forms(code: str) -> None:
    messages = _messages(code)
    assert len(messages) > 100  # the files hold the app's text, not a stub
    for context, message in messages:
        source = message.findtext("source")
        translation = message.find("translation")
        assert translation is not None
        where = f"{code} {context}: {source!r}"
        assert translation.get("type") is None, f"unfinished: {where}"
        forms = _forms(message)
        if message.get("numerus") == "yes":
            assert len(forms) == FORMS[code], f"{len(forms)} plural forms: {where}"
        assert all(form.strip() for form in forms), f"empty translation: {where}"


@pytest.mark.parametrize("code", sorted(FORMS))
def test_every_translation_keeps_the_placeholders_of_its_source(code: str) -> None:
    for context, message in _messages(code):
        source = message.findtext("source", "")
        wanted = sorted(set(PLACEHOLDER.findall(source)))
        for form in _forms(message):
            found = sorted(set(PLACEHOLDER.findall(form)))
            assert found == wanted, f"{code} {context}: {source!r} -> {form!r}"


def test_the_placeholder_check_catches_a_lost_placeholder(tmp_path: Path) -> None:
    """The check above reads what it should: a translation without its %1 is found."""
    broken = (I18N / "ndcg_studio_ru.ts").read_text(encoding="utf-8")
    broken = broken.replace(
        "<translation>Команда: %1</translation>", "<translation>Команда</translation>"
    )
    (tmp_path / "ndcg_studio_ru.ts").write_text(broken, encoding="utf-8")
    lost = [
        message.findtext("source")
        for _context, message in _messages("ru", tmp_path)
        if PLACEHOLDER.findall(message.findtext("source", ""))
        and not PLACEHOLDER.findall(_forms(message)[0])
    ]
    assert lost == ["Team: %1"]


# ---------------------------------------------------------------------------- (c)
@pytest.mark.slow
def test_lupdate_on_the_current_sources_finds_nothing_untranslated(tmp_path: Path) -> None:
    """A string wrapped in tr but not translated fails here (run
    ``python scripts/update_translations.py`` and translate what it adds)."""
    tool = _lupdate()
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import update_translations as U
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    for code in FORMS:
        copy = tmp_path / f"ndcg_studio_{code}.ts"
        shutil.copy(I18N / copy.name, copy)
        assert Path(U.tool("pyside6-lupdate")).name == Path(tool).name
        U.lupdate(copy, code)
        unfinished = [
            f"{context}: {message.findtext('source')!r}"
            for context, message in _messages(code, tmp_path)
            if message.find("translation") is not None
            and message.find("translation").get("type") == "unfinished"  # type: ignore[union-attr]
        ]
        assert unfinished == [], f"{code}: untranslated text; run scripts/update_translations.py"
        assert len(_messages(code, tmp_path)) == len(_messages(code)), "obsolete messages left"


def _literal_messages() -> set[tuple[str | None, str]]:
    """(context or None for ``self.tr``, source) of every call to tr / translate /
    QT_TRANSLATE_NOOP with literal text in ndcg_studio."""
    found: set[tuple[str | None, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            args = node.args
            if name == "tr" and args and isinstance(args[0], ast.Constant):
                found.add((None, str(args[0].value)))
            elif (
                name in {"translate", "QT_TRANSLATE_NOOP"}
                and len(args) >= 2
                and isinstance(args[0], ast.Constant)
                and isinstance(args[1], ast.Constant)
            ):
                found.add((str(args[0].value), str(args[1].value)))
    return found


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def test_every_literal_message_in_the_code_is_in_the_ts_files() -> None:
    """pyside6-lupdate silently skips some calls it cannot parse (a 4th argument that is an
    expression); such text would never be translated."""
    in_ts = {(context, message.findtext("source", "")) for context, message in _messages("ru")}
    sources = {source for _context, source in in_ts}
    missing = [
        (context, text)
        for context, text in sorted(_literal_messages(), key=str)
        if (context is None and text not in sources)
        or (context is not None and (context, text) not in in_ts)
    ]
    assert missing == []


@pytest.mark.parametrize("code", sorted(FORMS))
def test_the_committed_qm_files_are_compiled_from_the_ts_files(code: str, tmp_path: Path) -> None:
    tool = Path(_lupdate()).with_name("pyside6-lrelease")
    if not tool.exists():
        pytest.skip("pyside6-lrelease is not installed")
    fresh = tmp_path / "fresh.qm"
    subprocess.run(
        [str(tool), "-silent", str(I18N / f"ndcg_studio_{code}.ts"), "-qm", str(fresh)], check=True
    )
    committed = I18N / f"ndcg_studio_{code}.qm"
    assert committed.read_bytes() == fresh.read_bytes(), "run scripts/update_translations.py"


# ---------------------------------------------------------------------------- (d) and (e)
def _formatted(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    )


def _formatting_inside_tr(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and _call_name(node) in TRANSLATING
            and any(_formatted(arg) for arg in node.args[:2])
        ):
            lines.append(node.lineno)
    return lines


def test_nothing_is_formatted_inside_a_tr_call() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in _formatting_inside_tr(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_formatting_check_sees_fstrings_format_and_percent() -> None:
    bad = (
        'self.tr(f"{n} runs")\n'
        'QCoreApplication.translate("C", "{} runs".format(n))\n'
        'self.tr("%d runs" % n)\n'
        'self.tr("%1 runs")\n'
    )
    assert _formatting_inside_tr(bad) == [1, 2, 3]


#: calls whose string arguments a user reads (Qt text setters and constructors)
TEXT_CALLS = {
    "setText",
    "setWindowTitle",
    "setToolTip",
    "setStatusTip",
    "setPlaceholderText",
    "setSuffix",
    "setPrefix",
    "setTitle",
    "addAction",
    "addMenu",
    "addItem",
    "addRow",
    "addTab",
    "setTabText",
    "setHorizontalHeaderLabels",
    "showMessage",
    "QLabel",
    "QPushButton",
    "QToolButton",
    "QCheckBox",
    "QRadioButton",
    "QGroupBox",
    "QAction",
    "information",
    "warning",
    "critical",
    "question",
}
_MARKUP = re.compile(r"<[^>]*>|&\w+;")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _readable(node: ast.AST) -> bool:
    """A literal or f-string with words outside HTML markup."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_WORD.search(_MARKUP.sub("", node.value)))
    if isinstance(node, ast.JoinedStr):
        text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
        return bool(_WORD.search(_MARKUP.sub("", text)))
    return False


def _untranslated_text(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and _call_name(node) in TEXT_CALLS
            and any(_readable(arg) for arg in node.args)
        ):
            lines.append(node.lineno)
    return lines


def test_text_handed_to_qt_goes_through_tr() -> None:
    offenders = []
    for path in sorted((PACKAGE / "ui").rglob("*.py")):
        name = str(path.relative_to(PACKAGE))
        if name in NOT_YET_CONVERTED:
            continue
        offenders += [f"{name}:{line}" for line in _untranslated_text(path.read_text("utf-8"))]
    assert offenders == []


def test_the_untranslated_text_check_sees_literals_and_fstrings() -> None:
    code = (
        'QLabel("Runs")\n'
        'self.status.setText(f"No comparison: {exc}.")\n'
        'box.setText(self.tr("Runs"))\n'
        'label.setText(f"<b>{title}</b>")\n'
        'combo.addItem("—", None)\n'
    )
    assert _untranslated_text(code) == [1, 2]


def test_the_list_of_files_not_yet_converted_names_existing_files() -> None:
    assert all((PACKAGE / name).is_file() for name in NOT_YET_CONVERTED)


# ---------------------------------------------------------------------------- choosing
def test_the_language_follows_lang_then_the_stored_choice_then_the_system(
    qapp: Any, qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = S.Settings(qsettings)
    assert language.system_language(QLocale("zh_CN")) == "zh_CN"
    assert language.system_language(QLocale("ru_RU")) == "ru"
    assert language.system_language(QLocale("de_DE")) == "en"
    monkeypatch.setattr(language, "system_language", lambda locale=None: "ru")
    assert language.resolve_language(None, settings) == "ru"
    settings.set(S.LANGUAGE, "zh_CN")
    assert language.resolve_language(None, settings) == "zh_CN"
    assert language.resolve_language("en", settings) == "en"
    with pytest.raises(ValueError, match="--lang"):
        language.resolve_language("de", settings)


def test_lang_on_the_command_line_reaches_the_gui(monkeypatch: pytest.MonkeyPatch) -> None:
    from ndcg_studio import app
    from ndcg_studio.ui import application

    seen: dict[str, Any] = {}
    monkeypatch.setattr(application, "run_gui", lambda **kwargs: seen.update(kwargs) or 0)
    assert app.main(["--lang", "zh_CN"]) == 0
    assert seen == {"db": None, "demo": False, "lang": "zh_CN"}


def test_the_language_menu_stores_the_choice_and_answers_in_that_language(
    qapp: Any, qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fonts for both scripts, whatever this machine has installed
    monkeypatch.setattr(language, "_script_families", lambda code: ["Noto Sans"])
    settings = S.Settings(qsettings)
    menu = QMenu()
    submenu = language.add_language_menu(menu, settings)
    names = [action.text() for action in submenu.actions()]
    assert names == ["English", "中文", "Русский"]
    assert [a.isChecked() for a in submenu.actions()] == [True, False, False]
    submenu.actions()[2].trigger()
    assert settings.get(S.LANGUAGE) == "ru"
    assert QSettings(qsettings.fileName(), QSettings.Format.IniFormat).value("ui/language") == "ru"
    # the running interface is English; the answer is in the language just chosen
    assert language.choose_language("ru", settings) == (
        "Язык сменится при следующем запуске NDCG Studio."
    )
    assert language.choose_language("zh_CN", settings) == "语言将在下次启动 NDCG Studio 时生效。"
    assert language.choose_language("en", settings).startswith("The language changes")


def test_a_language_no_installed_font_can_show_is_explained_in_english(
    qapp: Any, qsettings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Qt's own font database answers: the same as asking it
    from PySide6.QtGui import QFontDatabase

    chinese = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    assert (language.missing_font_message("zh_CN") is None) == bool(chinese)
    monkeypatch.setattr(language, "_script_families", lambda code: [])
    message = language.missing_font_message("zh_CN")
    assert message is not None
    assert "Chinese characters" in message and "sudo apt install fonts-noto-cjk" in message
    assert "google-noto-sans-cjk-fonts" in message and "View ▸ Language" in message
    assert "dejavu-sans-fonts" in (language.missing_font_message("ru") or "")
    assert language.missing_font_message("en") is None
    monkeypatch.setattr(language, "_script_families", lambda code: ["Noto Sans CJK SC"])
    assert language.missing_font_message("zh_CN") is None
    # choosing it in the menu: the restart sentence and the reason, both readable
    monkeypatch.setattr(language, "_script_families", lambda code: [] if code == "zh_CN" else ["X"])
    settings = S.Settings(qsettings)
    assert language.choose_language("zh_CN", settings) == (
        "The language changes when NDCG Studio is started again. " + message
    )
    assert settings.get(S.LANGUAGE) == "zh_CN"
    menu_parent = QWidget()
    language.choose_language("zh_CN", settings, menu_parent)
    told = menu_parent.findChild(QMessageBox)
    assert told is not None and told.windowTitle() == "Chinese" and told.text().endswith(message)
    told.close()
    menu_parent.deleteLater()
    assert language.choose_language("ru", settings).startswith("Язык")
    # at start: a window-modal box over the window, its text selectable to copy the command
    parent = QWidget()
    box = language.warn_missing_font("zh_CN", parent)
    assert box is not None and box.isVisible()
    assert box.windowModality() == Qt.WindowModality.WindowModal
    assert box.text() == message and box.parent() is parent
    assert box.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert language.warn_missing_font("ru", parent) is None
    box.close()
    # under the Chinese translators, its button stays English (Qt's "确定" would be boxes)
    undo = language.apply_language("zh_CN")
    try:
        box = language.warn_missing_font("zh_CN", parent)
        assert box is not None and [b.text() for b in box.buttons()] == ["OK"]
        box.close()
    finally:
        undo()
    parent.deleteLater()


def test_apply_language_loads_the_apps_and_qts_translations_and_undoes_them(qapp: Any) -> None:
    from ndcg_studio.ui.bands import band_name
    from ndcg_studio.ui.models.grades import grade_name

    before = QLocale().name()
    undo = language.apply_language("zh_CN")
    try:
        assert [band_name(b) for b in (4, 3, 2, 1, 0)] == ["优秀", "良好", "一般", "差", "很差"]
        assert QLocale().name() == "zh_CN"
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == "取消"  # qtbase_zh_CN
    finally:
        undo()
    assert grade_name(4) == "Perfect" and QLocale().name() == before
    undo = language.apply_language("ru")
    try:
        from ndcg_studio.ui.team import TeamText

        text = TeamText()
        assert [text.judgments(n) for n in (1, 3, 5, 21)] == [
            "%1: 1 оценка",
            "%1: 3 оценки",
            "%1: 5 оценок",
            "%1: 21 оценка",
        ]
        assert grade_name(0) == "Нерелевантный"
    finally:
        undo()
    assert QCoreApplication.translate("Bands", "Excellent") == "Excellent"


# ---------------------------------------------------------------------------- (f)
def _run_in(lang: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """Start the app with ``--lang`` on a fresh database; what its window shows."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    from ndcg_studio.ui.application import run_gui
    from ndcg_studio.ui.views.annotate.document import GradeLegend
    from ndcg_studio.ui.window.main_window import MainWindow

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("dora", True))
    seen: dict[str, Any] = {}

    def poll() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        if windows and windows[0].context.database is not None:
            window = windows[0]
            bar = window.menuBar()
            seen["menus"] = [a.text() for a in bar.actions()]
            view = next(a.menu() for a in bar.actions() if a.text() in ("&View", "视图(&V)"))
            seen["view"] = [a.text() for a in view.actions()]
            legend = window.findChildren(GradeLegend)[0]
            seen["grades"] = [legend.buttons[g].text() for g in sorted(legend.buttons)]
            QApplication.quit()

    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(poll)
    timer.start()
    QTimer.singleShot(60_000, QApplication.quit)
    try:
        assert run_gui(db=str(tmp_path / "studio.sqlite"), lang=lang) == 0
    finally:
        timer.stop()
    return seen


@pytest.mark.slow
def test_lang_zh_cn_shows_chinese_menus_and_grade_buttons(
    qapp: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.question", lambda *a, **k: 0x4000)
    seen = _run_in("zh_CN", monkeypatch, tmp_path)
    assert "语言(&L)" in seen["view"]
    assert seen["grades"] == ["完全不相关", "稍微相关", "相关", "非常相关", "完美匹配"]
    # the language is undone when the app's event loop ends
    assert QCoreApplication.translate("Grades", "perfect") == "perfect"


@pytest.mark.slow
def test_lang_zh_cn_translates_every_top_level_menu(
    qapp: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("PySide6.QtWidgets.QMessageBox.question", lambda *a, **k: 0x4000)
    seen = _run_in("zh_CN", monkeypatch, tmp_path)
    assert all(re.search(r"[\u4e00-\u9fff]", title) for title in seen["menus"]), seen["menus"]


def test_the_translations_stay_installed_when_the_undo_is_dropped(qapp: Any) -> None:
    """scripts/screenshots.py ignores what apply_language returns: the translators must not go
    with it."""
    import gc

    from PySide6.QtCore import QTranslator

    before = QLocale()
    language.apply_language("zh_CN")  # the undo is dropped at once
    gc.collect()
    try:
        assert QCoreApplication.translate("StabilityView", "Runs") == "运行"
    finally:
        for translator in qapp.findChildren(QTranslator):
            QCoreApplication.removeTranslator(translator)
            translator.setParent(None)
        QLocale.setDefault(before)
        language._running[0] = "en"
    assert QCoreApplication.translate("StabilityView", "Runs") == "Runs"


def test_the_consensus_names_cover_the_vocabulary_and_are_translated(qapp: Any) -> None:
    from ndcg_studio.services.scoring.settings import ScoringSettings
    from ndcg_studio.ui.dialogs import scoring_settings
    from ndcg_studio.vocabulary import CONSENSUS_METHODS

    assert set(scoring_settings._CONSENSUS_NAMES) == set(CONSENSUS_METHODS)
    undo = language.apply_language("ru")
    try:
        text = scoring_settings.headline(ScoringSettings(consensus="median"))
    finally:
        undo()
    assert "согласование: медиана" in text
    assert "consensus: median" in scoring_settings.headline(ScoringSettings(consensus="median"))


def test_review_headers_are_translated_with_their_cutoff(qapp: Any) -> None:
    """Judged@K and the condensed table's headers in Russian (they were English there)."""
    from ndcg_studio.ui.models.condensed import CondensedTableModel
    from ndcg_studio.ui.models.scores import COL_JUDGED, ScoresTableModel

    undo = language.apply_language("ru")
    try:
        scores, condensed = ScoresTableModel(), CondensedTableModel()
        horizontal = Qt.Orientation.Horizontal
        judged = scores.headerData(COL_JUDGED, horizontal)
        condensed_headers = [condensed.headerData(c, horizontal) for c in (0, 1, 5)]
    finally:
        undo()
    assert judged.startswith("Оценено@"), judged
    assert condensed_headers[:2] == ["Запрос", "Прогон"], condensed_headers
    assert condensed_headers[2].startswith("Оценено@"), condensed_headers
