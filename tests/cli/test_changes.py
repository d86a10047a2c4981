"""``ndcg-studio changes RUN_A RUN_B`` on two small hand-worked runs: the per-query overlap@K,
Jaccard, RBO, entered/left counts and ΔnDCG@K, the overall line, the formats, and the campaign
of the documents that entered the top K unjudged."""

from __future__ import annotations

import csv
import io
import math
import sqlite3
from pathlib import Path

import pytest

from ndcg_studio.app import main
from ndcg_studio.domain.changes.rbo import rbo_ext

RUN_A = {"1": ["d1", "d2", "d3", "d4"], "2": ["d5", "d6"]}
RUN_B = {"1": ["d2", "d1", "d7", "d8"], "2": ["d5", "d6"]}
QRELS = "1 0 d1 1\n1 0 d2 2\n1 0 d3 1\n2 0 d5 1\n"


def _run_file(path: Path, lists: dict[str, list[str]], tag: str) -> Path:
    path.write_text(
        "".join(
            f"{q} Q0 {d} {i + 1} {10 - i} {tag}\n"
            for q, docs in lists.items()
            for i, d in enumerate(docs)
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "studio.sqlite")
    for name, lists in (("a", RUN_A), ("b", RUN_B)):
        run = _run_file(tmp_path / f"{name}.run", lists, name)
        assert main(["--db", path, "import", "run", str(run)]) == 0
    qrels = tmp_path / "grades.qrels"
    qrels.write_text(QRELS, encoding="utf-8")
    assert main(["--db", path, "import", "qrels", str(qrels)]) == 0
    return path


def _dcg(gains: list[float]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def changes_csv(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, dict[str, str]]:
    capsys.readouterr()
    assert main(["changes", *argv, "--format", "csv"]) == 0
    rows = csv.DictReader(io.StringIO(capsys.readouterr().out))
    return {row["query"]: row for row in rows}


def test_per_query_and_overall_changes(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = changes_csv(capsys, "--db", db, "a", "b", "--k", "3", "--p", "0.8")
    q1, q2, overall = rows["1"], rows["2"], rows["all"]
    # query 1, top 3: d1 d2 d3 -> d2 d1 d7: d7 entered (unjudged), d3 left
    assert float(q1["overlap"]) == pytest.approx(2 / 3)
    assert float(q1["jaccard"]) == pytest.approx(2 / 4)
    assert float(q1["rbo"]) == pytest.approx(rbo_ext(["d1", "d2", "d3"], ["d2", "d1", "d7"], 0.8))
    assert (q1["entered"], q1["left"], q1["entered_unjudged"]) == ("1", "1", "1")
    ideal = _dcg([2, 1, 1])
    ndcg_a, ndcg_b = _dcg([1, 2, 1]) / ideal, _dcg([2, 1, 0]) / ideal
    assert float(q1["ndcg_a"]) == pytest.approx(ndcg_a)
    assert float(q1["delta_ndcg"]) == pytest.approx(ndcg_b - ndcg_a)
    # query 2: the same two documents, fewer than K: overlap counts the empty place as not shared
    assert float(q2["overlap"]) == pytest.approx(2 / 3)
    assert float(q2["jaccard"]) == float(q2["rbo"]) == 1.0
    assert float(q2["delta_ndcg"]) == 0.0
    assert float(overall["overlap"]) == pytest.approx(2 / 3)
    assert float(overall["jaccard"]) == pytest.approx(0.75)
    assert (overall["entered"], overall["left"], overall["entered_unjudged"]) == ("1", "1", "1")
    assert float(overall["delta_ndcg"]) == pytest.approx((ndcg_b - ndcg_a) / 2)


def test_the_table_and_the_workbook(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["changes", "--db", db, "a", "b"]) == 0
    out = capsys.readouterr().out
    assert "# from 'a' (A) to 'b' (B)" in out and "delta_ndcg" in out
    book = tmp_path / "changes.xlsx"
    argv = ["changes", "--db", db, "a", "b", "--format", "xlsx", "--output", str(book)]
    assert main(argv) == 0
    assert book.stat().st_size > 0


def test_what_entered_unjudged_becomes_a_campaign(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["changes", "--db", db, "a", "b", "--k", "3", "--campaign", "new in b"]
    assert main([*argv, "--annotators", "ann", "bob"]) == 0
    assert "campaign 'new in b': 1 unjudged documents" in capsys.readouterr().err
    with sqlite3.connect(db) as conn:
        items = conn.execute(
            "SELECT q.external_id, d.external_id FROM campaign_items i "
            "JOIN queries q ON q.id = i.query_id JOIN documents d ON d.id = i.document_id"
        ).fetchall()
    assert items == [("1", "d7")]
    # from b back to a nothing unjudged entered: refused, nothing made
    back = ["changes", "--db", db, "b", "a", "--k", "3", "--campaign", "none"]
    assert main([*back, "--annotators", "ann"]) == 2
    assert "no campaign was made" in capsys.readouterr().err


def test_bad_requests_are_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["changes", "--db", db, "a", "nope"]) == 2
    assert main(["changes", "--db", db, "a", "a"]) == 2
    assert main(["changes", "--db", db, "a", "b", "--campaign", "x"]) == 2
    with pytest.raises(SystemExit):
        main(["changes", "--db", db, "a", "b", "--p", "1"])
