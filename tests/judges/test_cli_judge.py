"""``ndcg-studio judge`` and ``judges`` as a user runs them, against the loopback server: the
dry run, a run, bad input refused with file, line and field (nothing written), the flag of a
mixed source in ``judges`` and ``stability --by source``, and ``kill -9`` then the same command
again (a real process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ndcg_studio.app import main
from ndcg_studio.storage import models
from ndcg_studio.storage.database import Database, open_database
from tests.judge_server import JudgeServer
from tests.judges.conftest import GRADES, REPO_ROOT, load_collection


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'studio.sqlite'}"
    db = open_database(url)
    load_collection(db, tmp_path)
    db.dispose()
    return url


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _count(url: str, table: str = "judge_labels") -> int:
    db = open_database(url)
    try:
        with db.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(models.metadata.tables[table])
                ).scalar_one()
            )
    finally:
        db.dispose()


def _judge_args(url: str, server: JudgeServer, *extra: str) -> list[str]:
    return [
        "judge", "--db", url, "--source", "gpt", "--base-url", server.url, "--model", "judge",
        "--runs", "A", "B", "--depth", "4", *extra,
    ]  # fmt: skip


def test_dry_run_prints_the_prompt_and_counts_and_writes_nothing(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with JudgeServer(GRADES) as server:
        code, out, err = _run(capsys, *_judge_args(url, server, "--dry-run", "--prompt", "thomas"))
        assert sum(server.requests.values()) == 0
    assert code == 0, err
    assert "A person has typed [first query] into a search engine." in out
    assert "They were looking for: the first need" in out
    assert "Text of DOC-d1 here." in out
    assert "items: 12 to grade, 0 already graded" in out
    assert "requests: 12; tokens (estimated):" in out and "at most 600 completion" in out
    assert _count(url) == 0 and _count(url, "sources") == 0


def test_run_then_export_judgments_and_judges(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with JudgeServer(GRADES, faults={"d4": ["garbage"]}) as server:
        code, out, err = _run(capsys, *_judge_args(url, server))
        assert code == 0, err
        assert "gpt: 11 graded, 1 unparsed, 0 failed (12 of 12 asked; 0 already graded)" in out
        assert "--retry-unparsed" in out
        code, out, _ = _run(capsys, *_judge_args(url, server, "--retry-unparsed"))
        assert "gpt: 1 graded" in out and "(1 of 1 asked; 11 already graded)" in out
    export = tmp_path / "j.csv"
    code, _, err = _run(capsys, "export", "judgments", "--db", url, "-o", str(export))
    assert code == 0, err
    lines = [line for line in export.read_text().splitlines() if ",gpt," in line]
    assert len(lines) == 12 and all(line.endswith(",gpt,model") for line in lines)
    code, out, _ = _run(capsys, "judges", "--db", url)
    assert "gpt / gpt: 12 graded, 0 unparsed" in out and "MIXED" not in out
    assert "gpt vs humans: 12 items, kappa" in out and "precision" in out


def test_mixed_source_is_flagged_in_the_cli_and_stability(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with JudgeServer(GRADES, switch_after=4) as server:
        code, out, err = _run(capsys, *_judge_args(url, server, "--concurrency", "1"))
    assert code == 0, err
    assert "MIXED: gpt's labels come from models judge-v1 (4), judge-v2 (8)" in out
    code, out, _ = _run(capsys, "judges", "--db", url)
    assert "MIXED" in out
    code, _, err = _run(
        capsys, "stability", "--db", url, "--by", "source", "--k", "4", "--resamples", "200",
        "--format", "csv", "-o", str(tmp_path / "st.csv"),
    )  # fmt: skip
    assert code == 0, err
    about = next(tmp_path.glob("st*.json")).read_text()
    assert about.count("MIXED: source 'gpt'") == 1 and "kappa_quadratic" in about


def test_bad_input_is_one_clear_error_and_nothing_is_written(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = tmp_path / "mine.toml"
    template.write_text(
        'scale = [0, 1]\ngrade_map = { 0 = 0, 1 = 2 }\nanswer = "json"\n'
        'user = "{query} {document}"\n',
        encoding="utf-8",
    )
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("q1 d1\nq1 nosuchdoc\n", encoding="utf-8")
    with JudgeServer(GRADES) as server:
        code, _, err = _run(capsys, *_judge_args(url, server, "--prompt", str(template)))
        assert code == 2 and f"{template}:4: user: {{document}} names no field" in err
        assert "Traceback" not in err and "nothing was written" in err
        args = [*_judge_args(url, server)[:-5], "--pairs", str(pairs)]
        code, _, err = _run(capsys, *args)
        assert code == 2 and "pair 2 (q1 nosuchdoc): no such query or document" in err
        code, _, err = _run(capsys, *_judge_args(url, server)[:-5])
        assert code == 2 and "exactly one of --runs" in err
        code, _, err = _run(capsys, *_judge_args(url, server, "--runs", "A", "Z")[:-5])
        assert code == 2
        assert sum(server.requests.values()) == 0
    assert _count(url) == 0 and _count(url, "sources") == 0


@pytest.mark.slow
def test_kill_9_then_the_same_command_continues_without_asking_twice(url: str) -> None:
    with JudgeServer(GRADES, latency=0.3) as server:
        argv = [
            sys.executable,
            "-m",
            "ndcg_studio",
            *_judge_args(url, server, "--concurrency", "2"),
        ]
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while _count(url) < 4:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        db = open_database(url)
        try:
            stored = _graded_docs(db)
        finally:
            db.dispose()
        assert 4 <= len(stored) < 12
        asked_before = sum(server.requests.values())
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert (
            f"({12 - len(stored)} of {12 - len(stored)} asked; {len(stored)} already" in done.stdout
        )
        # no label stored before the kill was asked for again; at most the two in flight were
        assert all(server.requests[d] == 1 for d in stored)
        assert sum(server.requests.values()) - asked_before == 12 - len(stored)
    db = open_database(url)
    try:
        assert len(_graded_docs(db)) == 12
    finally:
        db.dispose()


def _graded_docs(db: Database) -> set[str]:
    j, d = models.judge_labels, models.documents
    with db.engine.connect() as conn:
        rows = conn.execute(
            select(d.c.external_id).join(j, j.c.document_id == d.c.id).where(j.c.status == "graded")
        ).all()
    return {str(r[0]) for r in rows}


@pytest.mark.slow
def test_ctrl_c_keeps_the_answers_and_says_so(url: str) -> None:
    with JudgeServer(GRADES, latency=0.3) as server:
        argv = [
            sys.executable,
            "-m",
            "ndcg_studio",
            *_judge_args(url, server, "--concurrency", "1"),
        ]
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while _count(url) < 2:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert b"the answers received are stored" in err and b"Traceback" not in err
    assert 2 <= _count(url) < 12
