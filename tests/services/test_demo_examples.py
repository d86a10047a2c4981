"""The Chinese worked examples (``ndcg-studio demo --examples``): each number of
``../shared/seeds/003_*.txt`` comes out of the app's scoring.

The document computes DCG with the linear gain ``rel_i / log2(i + 1)`` and its ideal DCG from
the grades of the five results it lists, sorted ("理想排序(相关性从高到低)"), i.e. the ideal of
the returned list, ``--ideal list``. Its judgments of a query are exactly those five documents,
so ``--ideal judged`` (trec_eval) gives the same numbers for 成都3天游 and 成都美食推荐; both are
checked. Its MRR-vs-nDCG comparison (成都旅游攻略, Systems A and B) needs the ideal of all
judged documents: with the ideal of its own list, System B (one relevant result, first) would
score 1.0 like System A. Its nDCG values there, 0.95 and 0.55, are illustrative: System A's
grades 4, 2, 2, 2, 1 are already in ideal order, so any ideal built from the judged grades gives
1.0; B's DCG@5 is 4.0 against 7.51, 0.533.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ndcg_studio.app import main
from ndcg_studio.services.demo import EXAMPLE_RUNS, examples_dir, load_examples
from ndcg_studio.services.scoring.service import ScoringService
from ndcg_studio.services.scoring.settings import ScoringSettings
from tests.conftest import SHARED_DATA

SEED = next(iter(sorted((SHARED_DATA.parent / "seeds").glob("003_*.txt"))), None)


def _scores(db: Any, ideal: str) -> dict[tuple[str, str], dict[str, Any]]:
    report = ScoringService(db).score(ScoringSettings(k=5, ideal=ideal))  # type: ignore[arg-type]
    return {(r[0], r[1]): dict(zip(report.columns(), r, strict=True)) for r in report.rows()}


@pytest.fixture
def examples(db: Any) -> Any:
    summary = load_examples(db)
    assert "成都美食推荐" in summary
    return db


@pytest.mark.parametrize("ideal", ["list", "judged"])
def test_the_step_by_step_examples(examples: Any, ideal: str) -> None:
    s = _scores(examples, ideal)
    q1, q2 = s["q1", "Example"], s["q2", "Example"]
    # 步骤2-5, "成都3天游": CG@5 10, DCG@5 6.85, IDCG@5 7.32, NDCG@5 0.936
    assert q1["cg"] == 10
    assert round(q1["dcg"], 2) == 6.85 and round(q1["idcg"], 2) == 7.32
    assert round(q1["ndcg"], 3) == 0.936
    # 完整例子, "成都美食推荐": DCG@5 7.85, IDCG@5 8.45, NDCG@5 0.929
    assert round(q2["dcg"], 2) == 7.85 and round(q2["idcg"], 2) == 8.45
    assert round(q2["ndcg"], 3) == 0.929
    # and the band of its NDCG table: 0.9-1.0 优秀 (excellent)
    assert q1["band"] == q2["band"] == "excellent"


def test_mrr_ties_where_ndcg_separates_the_two_systems(examples: Any) -> None:
    s = _scores(examples, "judged")  # the ideal of all judged documents (see the docstring)
    a, b = s["q3", "System A"], s["q3", "System B"]
    assert a["rr"] == b["rr"] == 1.0  # MRR = 1/1 = 1.0 for both
    assert a["ndcg"] == pytest.approx(1.0)
    assert b["ndcg"] == pytest.approx(4.0 / a["idcg"]) and round(b["ndcg"], 3) == 0.533
    assert a["ndcg"] - b["ndcg"] > 0.4  # nDCG separates them
    listed = _scores(examples, "list")  # the list's own ideal cannot
    assert listed["q3", "System B"]["ndcg"] == pytest.approx(1.0)


def test_the_files_hold_the_documents_numbers() -> None:
    if SEED is None:
        pytest.skip("../shared/seeds/003_*.txt is not on this machine")
    text = SEED.read_text("utf-8")
    base = examples_dir()
    titles = dict(
        line.split(",", 1) for line in (base / "documents.csv").read_text("utf-8").splitlines()
    )
    for title in list(titles.values())[1:]:
        assert title in text, title
    for query in ("成都3天游", "成都美食推荐", "成都旅游攻略"):
        assert query in (base / "queries.tsv").read_text("utf-8") and query in text
    assert sorted(EXAMPLE_RUNS) == sorted(p.name for p in base.glob("*.run"))


def test_cli_demo_examples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "ex.sqlite")
    assert main(["demo", "--examples", "--db", db]) == 0
    assert main(["demo", "--examples", "--db", db]) == 0  # idempotent
    capsys.readouterr()
    assert main(["score", "--db", db, "--k", "5", "--ideal", "list", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 3 * 3  # every query for every run
    assert lines[1].startswith("q1,Example,5,0.935")
