"""The packaging's parts that need no build: what the bundle leaves out
(``packaging/bundle_contents.py``), the .deb's ``Depends:`` and menu entry
(``scripts/build_deb.py``, ``packaging/linux``) and the icon (``resources/icons``)."""

from __future__ import annotations

import configparser
import struct
from pathlib import Path

import PySide6
import pytest

from ndcg_studio.ui.system_libraries import DEBIAN_PACKAGES
from tests.packaging.conftest import ROOT, load

contents = load("packaging/bundle_contents.py")
build_deb = load("scripts/build_deb.py")
render_icon = load("scripts/render_icon.py")

README = (ROOT / "README.md").read_text(encoding="utf-8")
PLUGINS = "PySide6/Qt/plugins/"


def test_depends_is_exactly_readmes_list_of_qts_xcb_libraries() -> None:
    """README's list is the one .ci/run installs; the app's own check of Qt's xcb plugin
    (DEBIAN_PACKAGES) names the same packages, so the three cannot drift apart."""
    assert build_deb.readme_packages(README)[-1] == "python3-venv"
    assert build_deb.depends(README) == build_deb.readme_packages(README)[:-1]
    assert set(build_deb.depends(README)) == set(DEBIAN_PACKAGES.values())
    control = build_deb.control("1.2.3", "amd64", 1000, README)
    assert f"Depends: {', '.join(build_deb.depends(README))}\n" in control
    assert "Package: ndcg-studio\nVersion: 1.2.3\nArchitecture: amd64\n" in control


def test_menu_entry_starts_the_command_on_path_with_the_icon() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(ROOT / "packaging" / "linux" / f"{build_deb.APP_ID}.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Exec"] == "ndcg-studio" and section["Icon"] == "ndcg-studio"
    assert section["Type"] == "Application" and section["Terminal"] == "false"
    metainfo = (ROOT / "packaging" / "linux" / f"{build_deb.APP_ID}.metainfo.xml").read_text()
    assert f'<launchable type="desktop-id">{build_deb.APP_ID}.desktop</launchable>' in metainfo


@pytest.mark.parametrize("size", render_icon.SIZES)
def test_icon_png_sizes_are_there_and_that_size(size: int) -> None:
    png = render_icon.png_path(size).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (size, size)


def test_window_icon_has_every_size(qapp: object) -> None:
    from ndcg_studio.ui.app_icon import app_icon

    sizes = {(s.width(), s.height()) for s in app_icon().availableSizes()}
    assert sizes == {(n, n) for n in render_icon.SIZES}


def _entry(dest: str, typecode: str = "BINARY") -> tuple[str, str, str]:
    return (dest, f"/src/{dest}", typecode)


def test_prune_keeps_what_is_linked_and_drops_plugins_system_libraries_and_orphans() -> None:
    links = {
        "/src/PySide6/QtWidgets.abi3.so": ["libQt6Widgets.so.6"],
        "/src/PySide6/Qt/lib/libQt6Widgets.so.6": ["libQt6Gui.so.6"],
        "/src/PySide6/Qt/lib/libQt6Gui.so.6": ["libfontconfig.so.1", "libz.so.1"],
        "/src/libfontconfig.so.1": ["libexpat.so.1"],
        f"/src/{PLUGINS}platforms/libqxcb.so": ["libQt6Gui.so.6", "libxcb.so.1"],
        f"/src/{PLUGINS}platforminputcontexts/libqtvirtualkeyboardplugin.so": [
            "PySide6/Qt/lib/libQt6Quick.so.6"
        ],
        "/src/PySide6/Qt/lib/libQt6Quick.so.6": ["libQt6Gui.so.6"],
    }
    binaries = [
        _entry("libpython3.11.so.1.0"),
        _entry("PySide6/QtWidgets.abi3.so", "EXTENSION"),
        _entry("PySide6/Qt/lib/libQt6Widgets.so.6"),
        _entry("PySide6/Qt/lib/libQt6Gui.so.6"),
        _entry("PySide6/Qt/lib/libQt6Quick.so.6"),
        _entry("libfontconfig.so.1"),
        _entry("libexpat.so.1"),
        _entry("libz.so.1"),
        _entry("libxcb.so.1"),
        _entry(f"{PLUGINS}platforms/libqxcb.so"),
        _entry(f"{PLUGINS}platforminputcontexts/libqtvirtualkeyboardplugin.so"),
        _entry(f"{PLUGINS}generic/libqevdevmouseplugin.so"),
    ]
    kept, dropped = contents.prune_binaries(
        binaries,
        DEBIAN_PACKAGES,
        lambda src: links.get(src, []),
        keep=["libpython3.11.so.1.0"],
    )
    assert [dest for dest, _src, _type in kept] == [
        "libpython3.11.so.1.0",
        "PySide6/QtWidgets.abi3.so",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6Gui.so.6",
        "libz.so.1",
        f"{PLUGINS}platforms/libqxcb.so",
    ]
    assert sorted(kept + dropped) == sorted(binaries)
    datas = [
        ("libQt6Quick.so.6", "PySide6/Qt/lib/libQt6Quick.so.6", "SYMLINK"),
        ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
        ("ndcg_studio/_resources/i18n/ndcg_studio_ru.ts", "/src/ru.ts", "DATA"),
        ("ndcg_studio/_resources/i18n/ndcg_studio_ru.qm", "/src/ru.qm", "DATA"),
        ("ndcg_studio/_migrations/versions/__pycache__/x.pyc", "/src/x.pyc", "DATA"),
    ]
    assert [dest for dest, _src, _type in contents.prune_datas(datas, dropped)] == [
        "libQt6Gui.so.6",
        "ndcg_studio/_resources/i18n/ndcg_studio_ru.qm",
    ]


def test_elf_needed_reads_what_a_library_links() -> None:
    qxcb = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not qxcb.is_file():
        pytest.skip("not a Linux wheel of PySide6")
    needed = contents.elf_needed(qxcb)
    assert "libQt6XcbQpa.so.6" in needed and "libxcb.so.1" in needed
    assert contents.elf_needed(ROOT / "README.md") == []
    # the wheel's binaries find Qt's libraries through a search path: strip leaves them alone
    assert contents.elf_search_path(qxcb)
    entry = (f"{PLUGINS}platforms/libqxcb.so", str(qxcb), "BINARY")
    assert contents.strip_debug([entry], ROOT / "nowhere") == [entry]
