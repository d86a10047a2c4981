"""What the commands write and read back: every CSV loads with pandas and csv.DictReader, the
settings travel beside it, exports re-import losslessly (hostile ids, names and notes)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select

from ndcg_studio.app import main
from ndcg_studio.io.judgments_csv import read_judgments_csv
from ndcg_studio.io.spreadsheet import FORMULA_TRIGGERS
from ndcg_studio.io.spreadsheet import unguard as u
from ndcg_studio.io.trec.readers import read_trec_qrels
from ndcg_studio.io.trec.writers import write_trec_qrels
from ndcg_studio.io.writers import write_csv
from ndcg_studio.storage import models
from ndcg_studio.storage.database import resolve_url

# Ids without whitespace (TREC files cannot carry it); every character a spreadsheet, a CSV
# reader or a comment-skipping reader could trip on: formula starters, quote, '#', comma,
# double quote, non-ASCII. Notes also hold newlines.
HOSTILE_IDS = ["=1+2", "+q", "-q", "@q", "#q", "'q", "'=q", "q,1", 'q"x', "q#2", "Ωq"]
NOTES = ["see #429", "- unclear", '=HYPERLINK("x")', "a, b", 'say "hi"', "two\nlines", None]
ANNOTATORS = ["-ann", "=ann", "#ann", "'ann", "ann,2", "Zoë"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def hostile_judgments() -> list[tuple[str, str, str, int, str | None]]:
    rows = []
    for i, qid in enumerate(HOSTILE_IDS):
        for j, ann in enumerate(ANNOTATORS[: 2 + i % 4]):
            doc = HOSTILE_IDS[(i + j + 3) % len(HOSTILE_IDS)] + f"-d{j}"
            rows.append((qid, doc, ann, (i + j) % 5, NOTES[(i + j) % len(NOTES)]))
    return rows


def judgments_in(db_url: str) -> set[tuple[object, ...]]:
    j, q, d, a = models.judgments, models.queries, models.documents, models.annotators
    engine = create_engine(resolve_url(db_url))
    with engine.connect() as conn:
        rows = conn.execute(
            select(q.c.external_id, d.c.external_id, a.c.name, j.c.grade, j.c.note)
            .select_from(j.join(q, q.c.id == j.c.query_id).join(d, d.c.id == j.c.document_id))
            .join(a, a.c.id == j.c.annotator_id)
        ).all()
    engine.dispose()
    return {tuple(r) for r in rows}


def history_rows(db_url: str) -> int:
    engine = create_engine(resolve_url(db_url))
    with engine.connect() as conn:
        n = len(conn.execute(select(models.judgment_history.c.id)).all())
    engine.dispose()
    return n


@pytest.fixture
def hostile(db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A database with hostile judgments and two runs over their ids."""
    rows = hostile_judgments()
    path = tmp_path / "hostile.csv"
    write_csv(path, ["query_id", "doc_id", "annotator", "grade", "note"], rows)
    code, _, err = run(capsys, "--db", db_url, "import", "judgments", str(path))
    assert code == 0, err
    for name, sign in (("-run2", 1.0), ("other", -1.0)):
        lines = [
            f"{qid} Q0 {doc} {k + 1} {sign * (k + 1)} {name}\n"
            for k, (qid, doc, *_) in enumerate(rows)
        ]
        (tmp_path / f"{name}.txt").write_text("".join(lines))
        code, _, err = run(capsys, "--db", db_url, "import", "run", str(tmp_path / f"{name}.txt"))
        assert code == 0, err
    return db_url


# (arguments after "--db URL", the columns, a check of the frame)
CSV_OUTPUTS = {
    "export report": (
        ["export", "report", "--k", "5"],
        ["query_id", "run", "k", "ndcg", "query_text", "query_alpha"],
    ),
    "export judgments": (
        ["export", "judgments"],
        ["query_id", "doc_id", "annotator", "grade", "note", "updated_at", "source", "source_kind"],
    ),
    "export judgments --wide": (["export", "judgments", "--wide"], ["query_id", "doc_id"]),
    "export agreement": (
        ["export", "agreement", "--by", "pair"],
        ["scope", "scope_id", "statistic", "value"],
    ),
    "export compare": (["export", "compare"], ["query_id", "ndcg_-run2", "ndcg_other", "delta"]),
    "export compare --correction": (
        ["export", "compare", "--correction", "tukey"],
        ["run_a", "run_b", "mean_a", "mean_b", "delta", "ci_low", "ci_high", "effect_size"],
    ),
    "score --format csv": (["score", "--format", "csv"], ["query_id", "run", "k", "ndcg"]),
    "score --summary": (
        ["score", "--summary", "--format", "csv"],
        ["run", "k", "mean_ndcg", "ci_low", "ci_high"],
    ),
    "agreement --format csv": (
        ["agreement", "--format", "csv", "--by", "annotator"],
        ["scope", "scope_id", "statistic", "value"],
    ),
}


@pytest.mark.parametrize("where", ["file", "stdout", "excel"])
@pytest.mark.parametrize("what", list(CSV_OUTPUTS))
def test_every_csv_loads_with_pandas_and_dictreader(
    hostile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, where: str
) -> None:
    argv, columns = CSV_OUTPUTS[what]
    out = tmp_path / "out.csv"
    extra = {"file": ["-o", str(out)], "stdout": [], "excel": ["-o", str(out), "--excel"]}
    code, stdout, err = run(capsys, "--db", hostile, *argv, *extra[where])
    assert code == 0, err
    if where == "stdout":
        text = stdout
        frame = pd.read_csv(io.StringIO(stdout), keep_default_na=False, dtype=str)
    else:
        text = out.read_text("utf-8-sig")
        frame = pd.read_csv(out, keep_default_na=False, dtype=str, encoding="utf-8-sig")
        about = json.loads((tmp_path / "out.csv.settings.json").read_text("utf-8"))
        assert about["file"] == "out.csv" and about["written_by"].startswith("ndcg-studio ")
        if "k" in columns:
            assert "k=5" in about["settings"] or "k=10" in about["settings"]
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert text.split("\n", 1)[0].startswith(columns[0])  # line 1 is the header
    assert list(frame.columns) == list(rows[0])
    assert [c for c in frame.columns if c in columns] == columns
    assert len(frame) == len(rows) > 0
    assert frame.to_dict("records") == rows  # pandas and csv read the same cells
    if what == "export judgments":
        back = {
            (u(r["query_id"]), u(r["doc_id"]), u(r["annotator"]), int(r["grade"]), u(r["note"]))
            for r in rows
        }
        # the raw cells carry the guard; undone, they are exactly the judgments
        assert back == {(q, d, a, g, n or "") for q, d, a, g, n in hostile_judgments()}
        assert "'=1+2" in frame["query_id"].tolist()
        assert "see #429" in frame["note"].tolist() and "two\nlines" in frame["note"].tolist()
    if what == "export judgments --wide":
        assert "'-ann" in frame.columns and "'#ann" not in frame.columns and "#ann" in frame
    if what == "export compare":
        assert {float(v) for v in frame["delta"] if v} != {0.0}


def test_judgments_export_reimports_exactly_into_an_empty_and_the_same_database(
    hostile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = tmp_path / "judgments.csv"
    assert run(capsys, "--db", hostile, "export", "judgments", "-o", str(exported))[0] == 0
    before = judgments_in(hostile)
    assert before == set(hostile_judgments())
    history = history_rows(hostile)
    code, _, err = run(capsys, "--db", hostile, "import", "judgments", str(exported))
    assert code == 0, err
    assert "judgments created" not in err and "updated" not in err and "unchanged" in err
    assert judgments_in(hostile) == before and history_rows(hostile) == history
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    code, _, err = run(capsys, "--db", fresh, "import", "judgments", str(exported))
    assert code == 0, err
    assert judgments_in(fresh) == before


def test_qrels_export_reimports_exactly(
    hostile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = tmp_path / "qrels.txt"
    code, _, err = run(
        capsys, "--db", hostile, "export", "qrels", "--annotator=-ann", "-o", str(exported)
    )
    assert code == 0, err
    assert " #q 0 " in exported.read_text()  # a '#' query id is written after a space
    assert json.loads((tmp_path / "qrels.txt.settings.json").read_text())["what"] == "qrels"
    mine = {(q, d, a, g) for q, d, a, g, _ in hostile_judgments() if a == "-ann"}
    history = history_rows(hostile)
    code, _, err = run(
        capsys, "--db", hostile, "import", "qrels", str(exported), "--annotator", "-ann"
    )
    assert code == 0, err
    assert history_rows(hostile) == history and "unchanged" in err
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    code, _, err = run(capsys, "--db", fresh, "import", "qrels", str(exported), "--annotator=-ann")
    assert code == 0, err
    assert {(q, d, a, g) for q, d, a, g, _ in judgments_in(fresh)} == mine


ID = st.text(
    alphabet=st.sampled_from([*FORMULA_TRIGGERS[:4], "'", "#", ",", '"', "a", "1", "é", "Ω"]),
    min_size=1,
    max_size=6,
)
NOTE = st.one_of(
    st.none(),
    st.text(
        alphabet=st.sampled_from([*FORMULA_TRIGGERS, "'", "#", ",", '"', "\n", " ", "a", "é"]),
        min_size=1,
        max_size=8,
    ).filter(lambda t: t == t.strip()),
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(ID, ID, ID, st.integers(0, 4), NOTE), min_size=1, max_size=8))
def test_judgments_and_qrels_files_round_trip_hostile_text(
    tmp_path: Path, rows: list[tuple[str, str, str, int, str | None]]
) -> None:
    """export → import over any text the readers accept: the same ids, names, grades, notes."""
    unique = list({(q, d, a): (q, d, a, g, n) for q, d, a, g, n in rows}.values())
    path = tmp_path / "j.csv"
    write_csv(path, ["query_id", "doc_id", "annotator", "grade", "note"], unique)
    back = read_judgments_csv(path)
    assert list(
        zip(back.query_id, back.doc_id, back.annotator, back.grade.tolist(), back.note, strict=True)
    ) == [(q, d, a, g, n) for q, d, a, g, n in unique]
    qrels = list({(q, d): (q, d, g) for q, d, _, g, _ in unique}.values())
    write_trec_qrels(tmp_path / "q.txt", qrels)
    read = read_trec_qrels(tmp_path / "q.txt")
    assert list(zip(read.query_id, read.doc_id, read.grade.tolist(), strict=True)) == qrels


def test_wide_judgments_export_reimports_its_grades(
    hostile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exported = tmp_path / "wide.csv"
    assert (
        run(capsys, "--db", hostile, "export", "judgments", "--wide", "-o", str(exported))[0] == 0
    )
    grades = {(q, d, a, g) for q, d, a, g, _ in hostile_judgments()}
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    code, _, err = run(capsys, "--db", fresh, "import", "judgments", str(exported))
    assert code == 0, err
    assert {(q, d, a, g) for q, d, a, g, _ in judgments_in(fresh)} == grades
    before, history = judgments_in(hostile), history_rows(hostile)
    code, _, err = run(capsys, "--db", hostile, "import", "judgments", str(exported))
    assert code == 0, err
    assert judgments_in(hostile) == before and history_rows(hostile) == history
