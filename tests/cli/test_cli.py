"""The headless commands as a user runs them: exit codes, messages, files, round trips."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from ndcg_studio import __version__
from ndcg_studio.app import main
from ndcg_studio.storage import models
from ndcg_studio.storage.database import resolve_url

DATA = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def count(db_url: str, table: object) -> int:
    engine = create_engine(resolve_url(db_url))
    with engine.connect() as conn:
        n = conn.execute(select(func.count()).select_from(table)).scalar_one()  # type: ignore[arg-type]
    engine.dispose()
    return int(n)


@pytest.fixture
def loaded(db_url: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert run(capsys, "--db", db_url, "import", "run", str(DATA / "results.test"))[0] == 0
    code, _, err = run(
        capsys,
        "--db",
        db_url,
        "import",
        "qrels",
        str(DATA / "qrels.rel_level"),
        "--annotator",
        "nist",
        "--grade-map",
        "-1:0",
    )
    assert code == 0, err
    assert "judgments created" in err
    return db_url


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"ndcg-studio {__version__}"
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for sub in ("import", "score", "agreement", "export", "demo"):
        assert sub in out


def test_python_dash_m_entry_point() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ndcg_studio", "--version"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == f"ndcg-studio {__version__}"


def test_score_csv_columns_and_values(loaded: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "--db", loaded, "--k", "10", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert list(rows[0])[:8] == [
        "query_id",
        "run",
        "k",
        "ndcg",
        "dcg",
        "idcg",
        "judged_at_k",
        "band",
    ]
    by_q = {r["query_id"]: r for r in rows}
    # trec_eval out.test.aql: ndcg_cut_10 301 0.0439, 302 0.7530, 303 0.0000
    assert float(by_q["301"]["ndcg"]) == pytest.approx(0.0439, abs=1e-4)
    assert float(by_q["302"]["ndcg"]) == pytest.approx(0.7530, abs=1e-4)
    assert by_q["302"]["band"] == "fair" and by_q["301"]["band"] == "bad"
    assert by_q["302"]["run"] == "STANDARD" and by_q["302"]["k"] == "10"


def test_score_to_file_has_its_settings_beside_it(
    loaded: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scores.csv"
    code, _, _ = run(
        capsys,
        "--db",
        loaded,
        "score",
        "--format",
        "csv",
        "--output",
        str(out),
        "--gain",
        "exponential",
        "--ideal",
        "list",
    )
    assert code == 0
    assert out.read_text().splitlines()[0].startswith("query_id,run,k,ndcg,")
    about = json.loads((tmp_path / "scores.csv.settings.json").read_text())
    assert about["file"] == "scores.csv" and about["what"] == "score"
    assert about["written_by"] == f"ndcg-studio {__version__}"
    assert "k=10 gain=exponential ideal=list" in about["settings"]


def test_bad_grade_names_file_line_field_and_writes_nothing(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 d1 2\nq1 0 d2 7\nq2 0 d1 4\n")
    code, _, err = run(capsys, "--db", db_url, "import", "qrels", str(bad))
    assert code == 2
    assert "bad.qrels:2: grade:" in err and "outside -1..4" in err
    assert "nothing was written" in err
    bad.write_text("q1 0 d1 2\nq1 0 d2 x\n")
    code, _, err = run(capsys, "--db", db_url, "import", "qrels", str(bad))
    assert code == 2 and "bad.qrels:2: grade: 'x' is not" in err
    assert count(db_url, models.judgments) == 0
    assert count(db_url, models.queries) == 0


def test_wrong_encoding_is_reported_with_offset(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes("q1 Q0 caf\xe9 1 1.0 run\n".encode("latin-1"))
    code, _, err = run(capsys, "--db", db_url, "import", "run", str(latin))
    assert code == 2
    assert "latin.txt:1: encoding" in err and "offset" in err


def test_unknown_run_is_a_clear_error(loaded: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", loaded, "score", "--run", "nope")
    assert code == 1
    assert "unknown run 'nope'" in err and "Traceback" not in err


def test_qrels_round_trip_gives_identical_scores(
    loaded: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = tmp_path / "export.qrels"
    assert run(capsys, "--db", loaded, "export", "qrels", "--output", str(exported))[0] == 0
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    assert run(capsys, "--db", fresh, "import", "run", str(DATA / "results.test"))[0] == 0
    assert run(capsys, "--db", fresh, "import", "qrels", str(exported))[0] == 0
    _, a, _ = run(capsys, "--db", loaded, "score", "--format", "csv", "--k", "20")
    _, b, _ = run(capsys, "--db", fresh, "score", "--format", "csv", "--k", "20")
    assert a == b


def test_export_is_spreadsheet_safe(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judgments = tmp_path / "j.csv"
    judgments.write_text(
        "query_id,doc_id,annotator,grade,note\n=HYPERLINK(1),d1,ann,2,+danger\nq2,d2,ann,3,fine\n"
    )
    assert run(capsys, "--db", db_url, "import", "judgments", str(judgments))[0] == 0
    out = tmp_path / "out.csv"
    code, _, _ = run(capsys, "--db", db_url, "export", "judgments", "-o", str(out), "--excel")
    assert code == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in text and "'+danger" in text
    wide = tmp_path / "wide.csv"
    assert run(capsys, "--db", db_url, "export", "judgments", "--wide", "-o", str(wide))[0] == 0
    rows = list(csv.reader(wide.read_text().splitlines()))
    assert rows[0] == ["query_id", "doc_id", "ann"]


def test_agreement_csv(db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judgments = tmp_path / "j.tsv"
    judgments.write_text(
        "query_id\tdoc_id\tannotator\tgrade\n"
        + "".join(
            f"q1\td{d}\t{a}\t{g}\n"
            for d, a, g in [
                (1, "ann", 0),
                (1, "bob", 0),
                (2, "ann", 4),
                (2, "bob", 3),
                (3, "ann", 2),
                (3, "bob", 2),
                (4, "ann", 1),
                (4, "bob", 4),
            ]
        )
    )
    assert run(capsys, "--db", db_url, "import", "judgments", str(judgments))[0] == 0
    code, out, _ = run(capsys, "--db", db_url, "agreement", "--format", "csv", "--by", "pair")
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert list(rows[0]) == [
        "scope",
        "scope_id",
        "statistic",
        "value",
        "ci_low",
        "ci_high",
        "n_items",
        "n_judgments",
    ]
    stats = {r["statistic"]: r for r in rows}
    assert stats["cohen_kappa_quadratic"]["scope_id"] == "ann|bob"
    assert stats["percent_agreement"]["value"] == "50.0"
    assert stats["cohen_kappa"]["n_items"] == "4"


def test_the_command_quiets_openblas_threads_before_numpy_loads_and_keeps_a_users_value() -> None:
    code = (
        "import os, sys\n"
        "from ndcg_studio import app\n"
        "print('numpy' in sys.modules)\n"  # the entry point's own imports leave NumPy out
        "sys.argv = ['ndcg-studio', 'eval', '--help']\n"
        "try:\n"
        "    app.console_main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[0] == "False"
    assert done.stdout.splitlines()[-1] == "4"
    env["OPENBLAS_THREAD_TIMEOUT"] = "30"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "30"
