"""What the bundle leaves out of what PyInstaller collected (used by ``ndcg-studio.spec``).

PyInstaller collects every plugin of the Qt modules in use and every shared library those
plugins link, from the wheel and from the build machine's system. Three kinds are left out:

- Qt plugins the app cannot use: the virtual keyboard (it brings Qt Quick and QML), the PDF
  image format (Qt PDF), the GTK 3 theme (it brings GTK's cairo, pango and glib as they are on
  the build machine, to mix with the user's GTK; the desktop portal theme stays) and the
  framebuffer/embedded platforms with their input plugins;
- the system libraries of Qt's xcb platform (``ndcg_studio.ui.system_libraries.DEBIAN_PACKAGES``,
  README's Debian list): they come from the user's system, which the .deb depends on, so X11,
  fontconfig, glib and D-Bus are the ones matching the user's display server, fonts and
  session bus, and the app's own check names the missing ones;
- shared libraries nothing kept needs any more (what only the above linked).

:func:`strip_debug` also removes debugging sections (of the interpreter, of SQLAlchemy).

Standard library only, so that tests can check it without PyInstaller. A library's needs are
read from its ELF header (``DT_NEEDED``), not from ``ldd``: ldd lists what the build machine's
copies of the system libraries link in turn, which would keep those (pcre2 of glib, …) in.
"""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

#: ``(dest_name, src_name, typecode)``, as in PyInstaller's TOC lists
Entry = tuple[str, str, str]

QT_PLUGINS = "PySide6/Qt/plugins/"
#: plugin paths (under ``PySide6/Qt/plugins/``) or plugin folders (ending in ``/``) left out
DROPPED_PLUGINS = (
    "platforminputcontexts/libqtvirtualkeyboardplugin.so",
    "imageformats/libqpdf.so",
    "platformthemes/libqgtk3.so",
    "egldeviceintegrations/",
    "generic/",
    "platforms/libqeglfs.so",
    "platforms/libqlinuxfb.so",
    "platforms/libqminimalegl.so",
    "platforms/libqvkkhrdisplay.so",
    "platforms/libqvnc.so",
)
#: sources of the app that are not needed to run it
DROPPED_DATA_SUFFIXES = (".ts", ".pyc")


def _dropped_plugin(dest: str) -> bool:
    if not dest.startswith(QT_PLUGINS):
        return False
    relative = dest[len(QT_PLUGINS) :]
    return any(
        relative.startswith(p) if p.endswith("/") else relative == p for p in DROPPED_PLUGINS
    )


def _is_library(entry: Entry) -> bool:
    """A shared library collected as a dependency (not a Python extension, not a Qt plugin)."""
    dest, _src, typecode = entry
    return typecode == "BINARY" and not dest.startswith(QT_PLUGINS)


def prune_binaries(
    binaries: Iterable[Entry],
    system_sonames: Iterable[str],
    needed: Callable[[str], Iterable[str]],
    keep: Iterable[str] = (),
) -> tuple[list[Entry], list[Entry]]:
    """``(kept, dropped)`` of PyInstaller's ``a.binaries``.

    ``needed(src)``: the names a binary links (``DT_NEEDED``); ``keep``: library file names kept
    even when nothing links them (loaded by name at run time, like ``libpython``).
    """
    entries = list(binaries)
    system = set(system_sonames)
    always = set(keep)
    candidates = [
        e
        for e in entries
        if not _dropped_plugin(e[0]) and not (_is_library(e) and _name(e) in system)
    ]
    libraries = {_name(e): e for e in candidates if _is_library(e)}
    reached: set[str] = set()
    todo = [e for e in candidates if not _is_library(e) or _name(e) in always]
    while todo:
        entry = todo.pop()
        for name in needed(entry[1]):
            base = PurePosixPath(name).name
            if base in libraries and base not in reached:
                reached.add(base)
                todo.append(libraries[base])
    kept = [e for e in candidates if not _is_library(e) or _name(e) in reached | always]
    kept_set = set(kept)
    return kept, [e for e in entries if e not in kept_set]


def prune_datas(datas: Iterable[Entry], dropped_binaries: Iterable[Entry]) -> list[Entry]:
    """``a.datas`` without the app's sources (``.ts``, ``.pyc``) and without symbolic links
    to dropped libraries (PyInstaller links ``libQt6Core.so.6`` beside the executables to
    ``PySide6/Qt/lib/libQt6Core.so.6``)."""
    gone = {dest for dest, _src, _type in dropped_binaries}
    kept = []
    for entry in datas:
        dest, src, typecode = entry
        if typecode == "SYMLINK" and src in gone:
            continue
        if dest.startswith("ndcg_studio/") and dest.endswith(DROPPED_DATA_SUFFIXES):
            continue
        if "/__pycache__/" in dest:
            continue
        kept.append(entry)
    return kept


def _elf_dynamic(path: str | Path) -> list[tuple[int, int | str]]:
    """The dynamic section of an ELF file as ``(tag, value)``, string values decoded (empty for
    anything that is not ELF)."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF":
        return []
    wide = data[4] == 2  # ELFCLASS64
    order = "<" if data[5] == 1 else ">"
    if wide:
        (shoff,) = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
        section, dyn = order + "IIQQQQIIQQ", order + "qQ"
    else:
        (shoff,) = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
        section, dyn = order + "IIIIIIIIII", order + "iI"
    sections = [struct.unpack_from(section, data, shoff + i * shentsize) for i in range(shnum)]
    entries: list[tuple[int, int | str]] = []
    for _name, kind, _flags, _addr, offset, size, link, *_rest in sections:
        if kind != 6:  # SHT_DYNAMIC
            continue
        strtab = sections[link][4]
        for at in range(offset, offset + size, struct.calcsize(dyn)):
            tag, value = struct.unpack_from(dyn, data, at)
            if tag == 0:  # DT_NULL
                break
            if tag in _STRING_TAGS:
                end = data.index(b"\0", strtab + value)
                value = data[strtab + value : end].decode()
            entries.append((tag, value))
    return entries


#: DT_NEEDED, DT_RPATH, DT_RUNPATH: the tags whose value is a string
_STRING_TAGS = (1, 15, 29)


def elf_needed(path: str | Path) -> list[str]:
    """The ``DT_NEEDED`` names of an ELF shared object or executable (empty for anything else)."""
    return [str(value) for tag, value in _elf_dynamic(path) if tag == 1]


def elf_search_path(path: str | Path) -> list[str]:
    """The ``DT_RPATH``/``DT_RUNPATH`` of an ELF file: set where auditwheel's patchelf made a
    wheel's binary find the libraries it vendors."""
    return [str(value) for tag, value in _elf_dynamic(path) if tag in (15, 29)]


def strip_debug(binaries: Iterable[Entry], folder: Path) -> list[Entry]:
    """``binaries`` with their debugging sections removed (``strip --strip-debug`` into
    ``folder``): a Python built from source (pyenv) carries some 24 MB of them in ``libpython``
    and ``lib-dynload``, SQLAlchemy's compiled modules 8 MB. Left as they are: the binaries of
    wheels that auditwheel's patchelf rewrote (a search path set, or a library vendored in a
    ``.libs`` folder), which ``strip`` is known to break. Without ``strip`` nothing changes."""
    strip = shutil.which("strip")
    result = []
    for dest, src, typecode in binaries:
        parts = Path(src).parts
        patched = "site-packages" in parts and (
            any(part.endswith(".libs") for part in parts) or elf_search_path(src)
        )
        if strip is None or patched:
            result.append((dest, src, typecode))
            continue
        key = hashlib.sha256(src.encode()).hexdigest()[:16]
        target = folder / key / Path(src).name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(
                [strip, "--strip-debug", "-o", str(target), src],
                capture_output=True,
                check=False,
            )
            if done.returncode != 0:
                target.unlink(missing_ok=True)
                result.append((dest, src, typecode))
                continue
            shutil.copymode(src, target)
        result.append((dest, str(target), typecode))
    return result


def _name(entry: Entry) -> str:
    return PurePosixPath(entry[0]).name
