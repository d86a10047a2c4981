"""No traceback from any command: a read-only database file or folder, a locked database, a full
disk, a damaged database — each one line saying what happened and what to do, exit 1, and
nothing written.

Read-only places are made with chmod; as root (whom chmod does not stop) with read-only bind
mounts, and the test skips where mounting is not permitted. The full disk is real (a 1 MiB
tmpfs, root only) and simulated (SQLite's own SQLITE_FULL via ``max_page_count``; ENOSPC from
the file system) so it also runs unprivileged.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ndcg_studio.app import main
from ndcg_studio.storage import database

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    return code, err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def loaded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A database file with a run and judgments, checkpointed (no -wal file left)."""
    path = tmp_path / "db" / "studio.sqlite"
    path.parent.mkdir()
    assert run(capsys, "--db", str(path), "import", "run", str(DATA / "results.test"))[0] == 0
    qrels = str(DATA / "qrels.test")
    assert run(capsys, "--db", str(path), "import", "qrels", qrels)[0] == 0
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()  # the last connection: SQLite removes the -wal and -shm files
    assert sorted(p.name for p in path.parent.iterdir()) == ["studio.sqlite"]
    return path


def _mount(*args: str) -> None:
    result = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        pytest.skip(f"as root, read-only places need mount, not permitted here: {result.stderr}")


@contextmanager
def read_only_folder(folder: Path, *, keep_writable: Path | None = None) -> Iterator[None]:
    """``folder`` read-only for this process (chmod, or a read-only bind mount as root);
    ``keep_writable`` (a file inside) stays writable."""
    if not ROOT:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    copy = folder.with_name(folder.name + ".rw")
    if keep_writable is not None:
        copy.mkdir()
        (copy / keep_writable.name).write_bytes(keep_writable.read_bytes())
    _mount("--bind", str(folder), str(folder))
    mounts = [folder]
    try:
        _mount("-o", "remount,ro,bind", str(folder))
        if keep_writable is not None:
            _mount("--bind", str(copy / keep_writable.name), str(keep_writable))
            mounts.append(keep_writable)
        yield
    finally:
        for point in reversed(mounts):
            # lazy: the failed command's SQLite handle may still be referenced by its error
            subprocess.run(["umount", "--lazy", str(point)], check=False)


def test_read_only_database_file(loaded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(loaded)
    qrels = str(DATA / "qrels.rel_level")
    if ROOT:
        context = read_only_folder(loaded.parent)
    else:
        loaded.chmod(0o444)
        context = contextmanager(lambda: (yield))()
    with context:
        code, err = run(
            capsys, "--db", str(loaded), "import", "qrels", qrels, "--grade-map", "-1:0"
        )
    assert code == 1 and err.count("\n") == 1, err
    assert "read-only" in err and str(loaded) in err
    assert ("chmod u+w" in err) or ("read-only file system" in err)
    assert digest(loaded) == before


def test_database_in_a_read_only_folder_names_the_wal_files(
    loaded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with read_only_folder(loaded.parent, keep_writable=loaded):
        code, err = run(capsys, "--db", str(loaded), "score", "--summary")
    assert code == 1 and err.count("\n") == 1, err
    assert f"the folder {loaded.parent} is read-only" in err and "studio.sqlite-wal" in err


def test_locked_database_waits_then_says_so(
    loaded: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = database._on_sqlite_connect

    def short_wait(connection: Any, record: Any) -> None:
        original(connection, record)
        connection.execute("PRAGMA busy_timeout=200")

    monkeypatch.setattr(database, "_on_sqlite_connect", short_wait)
    monkeypatch.setattr(sqlite3, "connect", _short_timeout(sqlite3.connect))
    writer = sqlite3.connect(loaded, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM judgments WHERE id = (SELECT min(id) FROM judgments)")
    try:
        qrels = str(DATA / "qrels.rel_level")
        code, err = run(capsys, "--db", str(loaded), "import", "qrels", qrels, "--grade-map=-1:0")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert code == 1 and err.count("\n") == 1, err
    assert "is locked by another program" in err and "run the command again" in err


def _short_timeout(connect: Any) -> Any:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        kwargs["timeout"] = 0.2
        return connect(*args, **kwargs)

    return wrapped


def test_full_disk_during_import_is_one_line_and_writes_nothing(
    loaded: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = database._on_sqlite_connect
    pages = loaded.stat().st_size // 16384 + 2  # room for a few pages, not for 1,500 grades

    def small_disk(connection: Any, record: Any) -> None:
        original(connection, record)
        connection.execute(f"PRAGMA max_page_count={pages}")

    monkeypatch.setattr(database, "_on_sqlite_connect", small_disk)
    before = digest(loaded)
    many = loaded.parent / "many.qrels"
    many.write_text("".join(f"q{i} 0 d{i} {i % 5}\n" for i in range(20000)))
    code, err = run(capsys, "--db", str(loaded), "import", "qrels", str(many))
    assert code == 1 and err.count("\n") == 1, err
    assert "the disk is full" in err and "nothing was written" in err
    with sqlite3.connect(loaded) as conn:
        assert conn.execute("SELECT count(*) FROM queries WHERE external_id = 'q1'").fetchone() == (
            0,
        )
    del before


def test_full_disk_during_export_keeps_the_old_file(
    loaded: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "report.csv"
    out.write_text("old\n")

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("ndcg_studio.io.atomic.os.fsync", no_space)
    code, err = run(capsys, "--db", str(loaded), "export", "report", "-o", str(out))
    assert code == 1 and err.count("\n") == 1, err
    assert "the disk is full" in err
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db", "report.csv"]


@pytest.mark.skipif(not ROOT, reason="a real full disk needs a tmpfs mount (root)")
def test_really_full_disk(loaded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small = tmp_path / "small"
    small.mkdir()
    _mount("-t", "tmpfs", "-o", "size=3m", "tmpfs", str(small))
    try:
        db = small / "studio.sqlite"
        db.write_bytes(loaded.read_bytes())
        big = tmp_path / "big.qrels"
        big.write_text("".join(f"q{i} 0 doc-{i:09d} {i % 5}\n" for i in range(200_000)))
        code, err = run(capsys, "--db", str(db), "import", "qrels", str(big))
        assert code == 1 and "the disk is full" in err, err
        free = os.statvfs(small).f_bavail * os.statvfs(small).f_frsize
        (small / "filler").write_bytes(b"x" * max(free - 20_000, 0))  # ~20 kB left
        code, err = run(capsys, "--db", str(loaded), "export", "judgments", "-o", str(small / "j"))
        assert code == 1 and "the disk is full" in err, err
        assert not (small / "j").exists() and not (small / "j.settings.json").exists()
        assert not [p for p in small.iterdir() if p.name.endswith(".tmp")]
    finally:
        subprocess.run(["umount", "--lazy", str(small)], check=False)


def _damage(path: Path) -> None:
    """Overwrite the pages in the middle of the file (not the header) with garbage."""
    data = bytearray(path.read_bytes())
    page = 16384
    assert len(data) > 6 * page
    # every page but the first two and the last: whatever tables a command reads, it meets
    # garbage (a fixed few pages may all belong to a table it never reads, e.g. the history)
    data[2 * page : -page] = b"\xa5" * (len(data) - 3 * page)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "--summary"],
        ["export", "judgments", "-o", "-"],
        ["export", "report", "-o", "-"],
        ["import", "queries", "QUERIES"],
    ],
    ids=["score", "export judgments", "export report", "import"],
)
def test_damaged_database(
    loaded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _damage(loaded)
    before = digest(loaded)
    queries = tmp_path / "topics.tsv"
    queries.write_text("new1\tfirst\nnew2\tsecond\n")
    argv = [str(queries) if a == "QUERIES" else a for a in argv]
    code, err = run(capsys, "--db", str(loaded), *argv)
    assert code == 1 and err.count("\n") == 1, err
    assert f"{loaded} is damaged" in err and ".recover" in err
    assert digest(loaded) == before  # the import refused to write


def damage_table(path: Path, table: str) -> None:
    """Overwrite only ``table``'s pages with garbage (every other page is sound)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [n for (n,) in conn.execute("SELECT pageno FROM dbstat WHERE name = ?", (table,))]
    conn.close()
    assert pages
    data = bytearray(path.read_bytes())
    for n in pages:
        data[(n - 1) * page : n * page] = b"\xa5" * page
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "judgments", "-o", "-"],
        ["score", "--summary"],
        ["import", "queries", "QUERIES"],
        ["campaign", "list"],
    ],
    ids=["export judgments", "score", "import", "campaign list"],
)
def test_damage_a_command_never_reads_is_still_refused(
    loaded: Path, tmp_path: Path, argv: list[str]
) -> None:
    """Damage only in the judgment history, which these commands never read: each one, as a
    real process, still refuses the file in one line (an export read from a damaged file
    would be silently incomplete once the damage is in an index) and writes nothing."""
    damage_table(loaded, "judgment_history")
    before = digest(loaded)
    queries = tmp_path / "topics.tsv"
    queries.write_text("new1\tfirst\n")
    argv = [str(queries) if a == "QUERIES" else a for a in argv]
    done = subprocess.run(
        [sys.executable, "-m", "ndcg_studio", "--db", str(loaded), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert f"{loaded} is damaged" in done.stderr and ".recover" in done.stderr
    assert done.stdout == ""
    assert digest(loaded) == before


def test_output_into_a_read_only_folder(
    loaded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "database exports"  # a name holding "database" is still an output
    folder.mkdir()
    with read_only_folder(folder):
        code, err = run(
            capsys, "--db", str(loaded), "export", "report", "-o", str(folder / "r.csv")
        )
    assert code == 1 and err.count("\n") == 1, err
    assert f"cannot write {folder / 'r.csv'}: " in err and "choose a writable place" in err
    assert list(folder.iterdir()) == []
