"""``fetch-run`` against a real HTTP engine on 127.0.0.1 (tests/engine_server.py): the stored run
equals the engine's answers, faults are survived or reported, credentials stay out of what is
printed and stored, bad endpoint files are refused, and a killed fetch continues."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ndcg_studio.app import main
from tests.engine_server import CRANFIELD, EngineServer, search

ROOT = Path(__file__).resolve().parents[2]

GENERIC = """\
name = "test engine"
url = "{url}/search"
method = "POST"
body = '{{"q": "{{query_text}}", "size": {{k}}, "qid": "{{query_id}}"}}'

[headers]
Authorization = "Bearer ${{ENGINE_TOKEN}}"

[response]
hits = "results"
id = "doc_id"
score = "score"
title = "title"
"""


@pytest.fixture
def queries(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The first 12 Cranfield queries (numbered 1..12 as cranqrel does) as a queries TSV."""
    from ndcg_studio.io.smart import read_smart_queries

    q = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    texts = dict(list(zip(q.query_id, q.text, strict=True))[:12])
    path = tmp_path / "queries.tsv"
    path.write_text("".join(f"{k}\t{v}\n" for k, v in texts.items()), encoding="utf-8")
    return path, texts


def endpoint(tmp_path: Path, url: str, text: str = GENERIC) -> Path:
    path = tmp_path / "engine.toml"
    path.write_text(text.format(url=url), encoding="utf-8")
    return path


def fetch(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str]:
    code = main(["--db", str(db), "fetch-run", "--quiet", *argv])
    return code, capsys.readouterr().err


def stored(db: Path, name: str) -> dict[str, list[tuple[str, int, float]]]:
    """The run's lists: query id -> [(doc id, rank, score)] in rank order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT q.external_id, d.external_id, r.rank, r.score FROM results r "
            "JOIN runs ON runs.id = r.run_id JOIN queries q ON q.id = r.query_id "
            "JOIN documents d ON d.id = r.document_id WHERE runs.name = ? "
            "ORDER BY q.external_id, r.rank",
            (name,),
        ).fetchall()
    lists: dict[str, list[tuple[str, int, float]]] = {}
    for qid, doc, rank, score in rows:
        lists.setdefault(qid, []).append((doc, rank, score))
    return lists


def expected(texts: dict[str, str], k: int) -> dict[str, list[tuple[str, int, float]]]:
    return {
        qid: [(h["doc_id"], n, h["score"]) for n, h in enumerate(search(text, k), start=1)]
        for qid, text in texts.items()
    }


@pytest.fixture(autouse=True)
def _token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGINE_TOKEN", "s3cret-token")


def test_the_run_equals_the_engines_answers(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        file = endpoint(tmp_path, engine.url)
        code, err = fetch(
            capsys, db, "--name", "overlap", "--endpoint", str(file), "--queries", str(path),
            "--k", "20", "--concurrency", "3",
        )  # fmt: skip
    assert code == 0, err
    assert "run 'overlap' stored: 240 results of 12 queries" in err
    assert stored(db, "overlap") == expected(texts, 20)
    assert sum(engine.requests.values()) == 12
    assert all(h["Authorization"] == "Bearer s3cret-token" for _, h in engine.log)
    with sqlite3.connect(db) as conn:
        (description,) = conn.execute("SELECT description FROM runs").fetchone()
        first = search(texts["1"], 1)[0]
        title = conn.execute(
            "SELECT title FROM documents WHERE external_id = ?", (first["doc_id"],)
        ).fetchone()
        query = conn.execute("SELECT text FROM queries WHERE external_id = '1'").fetchone()
    about = json.loads(description)
    assert about["fetched"] == "generic" and about["endpoint"] == "test engine"
    assert about["url"] == f"{engine.url}/search" and len(about["template_sha256"]) == 64
    assert "s3cret" not in description + err
    assert title[0] == first["title"] != ""
    assert query[0] == texts["1"]


def test_ties_keep_the_engines_order(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        file = endpoint(tmp_path, engine.url)
        assert (
            fetch(capsys, db, "--name", "r", "--endpoint", str(file), "--queries", str(path))[0]
            == 0
        )
    lists = stored(db, "r")
    tied = [(a, b) for run in lists.values() for a, b in itertools.pairwise(run) if a[2] == b[2]]
    assert len(tied) > 100  # term overlap ties a lot
    assert lists == expected(texts, 100)  # in the engine's order, not by document id


def test_faults_are_retried_and_the_run_is_whole(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    faults = {
        "1": ["429"],
        "2": ["429-date"],
        "3": ["500", "500"],
        "4": ["timeout"],
        "5": ["truncated"],
    }
    with EngineServer(faults=faults, hang=3.0) as engine:
        file = endpoint(tmp_path, engine.url)
        started = time.monotonic()
        code, err = fetch(
            capsys, db, "--name", "r", "--endpoint", str(file), "--queries", str(path),
            "--k", "10", "--timeout", "1",
        )  # fmt: skip
        took = time.monotonic() - started
    assert code == 0, err
    assert stored(db, "r") == expected(texts, 10)
    assert engine.requests["1"] == engine.requests["2"] == 2
    assert engine.requests["3"] == 3 and engine.requests["4"] == 2 and engine.requests["5"] == 2
    assert took >= 1.0  # Retry-After: 1 was waited for


def test_a_query_that_keeps_failing_is_reported_and_nothing_is_stored(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer(faults={"7": ["500"] * 3, "8": ["404"], "9": ["301"]}) as engine:
        file = endpoint(tmp_path, engine.url)
        argv = ["--name", "r", "--endpoint", str(file), "--queries", str(path), "--retries", "2"]
        code, err = fetch(capsys, db, *argv)
        assert code == 1
        assert 'query 7: HTTP 500: {"error": "fault 500 for 7"}' in err
        assert 'query 8: HTTP 404: {"error": "fault 404 for 8"}' in err
        assert "query 9: HTTP 301: redirected: give the final URL" in err
        assert "3 of 12 queries failed" in err and "nothing was stored" in err
        assert stored(db, "r") == {}
        assert engine.requests["8"] == engine.requests["9"] == 1  # 404 and 301: not retried
        # the same command again sends only the failed queries, which now answer
        code, err = fetch(capsys, db, *argv)
        assert code == 0, err
        assert "3 queries sent, 9 from the journal" in err
        assert engine.requests["7"] == 3 + 1 and engine.requests["8"] == engine.requests["9"] == 2
        assert all(n == 1 for qid, n in engine.requests.items() if qid not in ("7", "8", "9"))
    assert stored(db, "r") == expected(texts, 100)


def test_keep_partial_stores_the_queries_that_answered(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer(faults={"7": ["500"] * 5}) as engine:
        file = endpoint(tmp_path, engine.url)
        code, err = fetch(
            capsys, db, "--name", "r", "--endpoint", str(file), "--queries", str(path),
            "--retries", "1", "--keep-partial",
        )  # fmt: skip
    assert code == 0, err
    assert "1 failed, left out" in err and "query 7: HTTP 500" in err
    want = expected(texts, 100)
    del want["7"]
    assert stored(db, "r") == want


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('hits = "results"', 'hits = "results[["'),
            "engine.toml:10: response.hits: 'results[[' is not a JMESPath expression",
        ),
        (('score = "score"\n', ""), "engine.toml:9: response.score: missing"),
        (("{{query_text}}", "{{query}}"), "engine.toml:4: body: unknown placeholder {query}"),
        (('method = "POST"', 'method = "PUT"'), "engine.toml:3: method: GET or POST, got 'PUT'"),
        (('name = "test engine"', 'nmae = "x"'), "engine.toml:1: nmae: unknown key"),
        (
            ("ENGINE_TOKEN", "NOT_SET_TOKEN"),
            "engine.toml:0: ${NOT_SET_TOKEN}: not set in the environment",
        ),
    ],
)  # fmt: skip
def test_a_bad_endpoint_file_is_one_clear_line_and_nothing_is_written(
    tmp_path: Path,
    queries: tuple[Path, dict[str, str]],
    capsys: pytest.CaptureFixture[str],
    change: tuple[str, str],
    message: str,
) -> None:
    path, _ = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        file = endpoint(tmp_path, engine.url, GENERIC.replace(*change))
        code, err = fetch(
            capsys, db, "--name", "r", "--endpoint", str(file), "--queries", str(path)
        )
    assert code == 2
    assert message in err and "nothing was written" in err
    assert sum(engine.requests.values()) == 0
    assert stored(db, "r") == {} if db.exists() else True


def test_hits_that_are_not_a_list_stop_the_fetch(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        file = endpoint(tmp_path, engine.url, GENERIC.replace('hits = "results"', 'hits = "total"'))
        code, err = fetch(
            capsys, db, "--name", "r", "--endpoint", str(file), "--queries", str(path)
        )
    assert code == 2
    assert "engine.toml:10: response.hits: 'total' gives int, not a list of hits" in err
    assert stored(db, "r") == {}


def test_credentials_in_the_url_are_sent_but_never_shown(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = queries
    db = tmp_path / "studio.sqlite"
    text = GENERIC.replace('url = "{url}/search"', 'url = "{url}/search?key=${{ENGINE_TOKEN}}"')
    with EngineServer(faults={"3": ["500"] * 2}) as engine:
        file = endpoint(tmp_path, engine.url, text)
        argv = ["--name", "r", "--endpoint", str(file), "--queries", str(path), "--retries", "1"]
        code, err = fetch(capsys, db, *argv)
        assert code == 1 and "s3cret" not in err
        code, err = fetch(capsys, db, *argv)
    assert code == 0 and "s3cret" not in err
    assert all(p == "/search?key=s3cret-token" for p, _ in engine.log)
    with sqlite3.connect(db) as conn:
        (description,) = conn.execute("SELECT description FROM runs").fetchone()
    assert "s3cret" not in description
    assert json.loads(description)["url"] == engine.url + "/search?key=${ENGINE_TOKEN}"


def test_a_killed_fetch_continues_without_sending_the_stored_queries_again(
    tmp_path: Path, queries: tuple[Path, dict[str, str]]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with EngineServer(latency=0.3) as engine:
        file = endpoint(tmp_path, engine.url)
        argv = [sys.executable, "-m", "ndcg_studio", "--db", str(db), "fetch-run", "--quiet",
                "--name", "r", "--endpoint", str(file), "--queries", str(path),
                "--concurrency", "1"]  # fmt: skip
        first = subprocess.Popen(argv, env=env, cwd=ROOT, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while sum(engine.requests.values()) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        sent_before = sum(engine.requests.values())
        journals = list((Path(os.environ["XDG_CACHE_HOME"]) / "ndcg-studio" / "fetch").iterdir())
        kept = len(journals[0].read_text(encoding="utf-8").splitlines())
        assert 4 <= kept < 12
        second = subprocess.run(
            argv, check=False, env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        assert second.returncode == 0, second.stderr
        assert f"{12 - kept} queries sent, {kept} from the journal" in second.stderr
        assert sum(engine.requests.values()) == sent_before + 12 - kept
        assert not journals[0].exists()  # stored: the journal is gone
    assert stored(db, "r") == expected(texts, 100)


def test_the_rate_bounds_the_requests_and_an_existing_run_is_not_replaced_unasked(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        file = endpoint(tmp_path, engine.url)
        argv = ["--name", "r", "--endpoint", str(file), "--queries", str(path), "--k", "5"]
        started = time.monotonic()
        assert fetch(capsys, db, *argv, "--rate", "10", "--concurrency", "4")[0] == 0
        assert time.monotonic() - started >= 1.1  # 12 starts 0.1 s apart
        run_file = tmp_path / "imported.run"
        run_file.write_text("1 Q0 d1 1 2.0 x\n", encoding="utf-8")
        assert main(["--db", str(db), "import", "run", str(run_file), "--name", "imported"]) == 0
        code, err = fetch(capsys, db, *argv[2:], "--name", "imported")
        assert code == 2 and "a run named 'imported' exists already" in err
        assert sum(engine.requests.values()) == 12  # refused before sending
        assert fetch(capsys, db, *argv, "--replace")[0] == 0
    with sqlite3.connect(db) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM runs ORDER BY name")]
    assert names == ["imported", "r"]  # replaced without keeping a snapshot


def test_a_second_fetch_keeps_the_first_as_a_snapshot_named_by_its_time(
    tmp_path: Path, queries: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, texts = queries
    db = tmp_path / "studio.sqlite"
    with EngineServer() as engine:
        argv = ["--endpoint", str(endpoint(tmp_path, engine.url)), "--queries", str(path)]
        assert fetch(capsys, db, "--name", "bm25", *argv, "--k", "5")[0] == 0
        with sqlite3.connect(db) as conn:
            (first,) = conn.execute("SELECT description FROM runs").fetchone()
        at = json.loads(first)["at"].replace("+00:00", "Z")
        code, err = fetch(capsys, db, "--name", "bm25", *argv, "--k", "8")
        assert code == 0, err
        assert f"the earlier fetch is kept as the run 'bm25@{at}'" in err
    assert stored(db, f"bm25@{at}") == expected(texts, 5)  # the old lists, untouched
    assert stored(db, "bm25") == expected(texts, 8)
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT description FROM runs WHERE name = ?", (f"bm25@{at}",))
        assert kept.fetchone()[0] == first
    assert main(["--db", str(db), "runs", "--snapshots", "bm25"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("bm25\t") and lines[0].endswith("\tcurrent")
    assert lines[1] == f"bm25@{at}\t{at}\t{engine.url}/search"
    assert main(["--db", str(db), "runs"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in listed] == ["bm25", f"bm25@{at}"]
    assert main(["--db", str(db), "runs", "--snapshots", "nope"]) == 2
    # in the engine's order (--order rank) the two snapshots share their top 5: nothing entered
    # or left, RBO 1 (in trec_eval's order the tie at place 5 breaks by docno among 5 or 8)
    argv = ["--db", str(db), "changes", f"bm25@{at}", "bm25", "--k", "5", "--order", "rank"]
    assert main([*argv, "--format", "csv"]) == 0
    overall = capsys.readouterr().out.splitlines()[-1].split(",")
    assert [float(v) for v in overall[1:7]] == [1, 1, 1, 0, 0, 0]
