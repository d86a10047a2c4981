"""Correction campaigns: the items where a machine source and the humans disagree, where two
machine sources disagree, or whose machine grade could change which of two runs wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from ndcg_studio.app import main
from ndcg_studio.services.campaigns.service import CampaignService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.judges.corrections import correction_items
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.storage.database import Database, open_database
from tests.judges.conftest import GRADES, load_collection


def _import_model(db: Database, folder: Path, name: str, grades: dict[str, int]) -> None:
    path = folder / f"{name}.qrels"
    lines = [f"q{(int(d[1:]) - 1) // 4 + 1} 0 {d} {g}" for d, g in grades.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ImportService(db).import_file("qrels", path, annotator=name, source=name, source_kind="model")


def _docs(db: Database, items: frozenset[tuple[int, int]]) -> set[str]:
    from ndcg_studio.storage.queries.names import document_external_ids

    with db.engine.connect() as conn:
        names = document_external_ids(conn, [d for _, d in items])
    return {names[d] for _, d in items}


def test_machine_against_humans_and_against_another_machine(
    judged_db: Database, tmp_path: Path
) -> None:
    _import_model(judged_db, tmp_path, "gpt", GRADES)
    _import_model(judged_db, tmp_path, "llama", {**GRADES, "d1": 3, "d2": 3})
    # the humans differ from GRADES on d3 (0 vs 3) and d7 (1 vs 3)
    assert _docs(judged_db, correction_items(judged_db, "gpt", "humans")) == {"d3", "d7"}
    two = correction_items(judged_db, "gpt", "humans", min_difference=2.5)
    assert _docs(judged_db, two) == {"d3"}
    machines = correction_items(judged_db, "gpt", "machines", against="llama")
    assert _docs(judged_db, machines) == {"d1", "d2"}  # |1-3|, |2-3|
    with pytest.raises(ValueError, match="no model source 'nist'"):
        correction_items(judged_db, "nist", "humans")


def _oracle(db: Database, runs: list[str], k: int) -> set[str]:
    """Brute force: rescore everything with each machine-only item at 0 and at 4."""
    from dataclasses import replace

    import numpy as np

    from ndcg_studio.domain.metrics.measures import Qrels, score
    from ndcg_studio.services.scoring.service import ScoringService
    from ndcg_studio.storage.queries.names import document_external_ids

    settings = ScoringSettings(k=k, runs=tuple(runs))
    data = ScoringService(db).load(ScoringRead(settings))
    params = replace(settings.params(), err=False)
    with db.engine.connect() as conn:
        names = document_external_ids(conn, data.doc_ids.tolist())
    out = set()
    for i in range(len(data.qrels.grade)):
        signs = set()
        for value in (0.0, 4.0):
            grade = data.qrels.grade.copy()
            grade[i] = value
            table = score(data.lists, Qrels(data.qrels.query, data.qrels.doc, grade), params)
            means = np.nanmean(table.ndcg.reshape(len(runs), -1), axis=1)
            signs.add(np.sign(round(float(means[0] - means[1]), 12)))
        if len(signs) > 1:
            out.add(names[int(data.doc_ids[data.qrels.doc[i]])])
    return out


@pytest.mark.parametrize("k", [1, 2, 4])
def test_items_that_could_change_the_decision(tmp_path: Path, k: int) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'studio.sqlite'}")
    try:
        load_collection(db, tmp_path)
        # only the machine graded: A and B return each query's documents in opposite orders,
        # and which one wins hangs on the machine's grades
        from sqlalchemy import delete

        from ndcg_studio.storage import models

        with db.engine.begin() as conn:
            conn.execute(delete(models.judgments))
        _import_model(db, tmp_path, "gpt", GRADES)
        items = correction_items(
            db, "gpt", "decision", runs=["A", "B"], settings=ScoringSettings(k=k)
        )
        chosen = _docs(db, items)
        assert chosen == _oracle(db, ["A", "B"], k)
        assert chosen  # the test is not vacuous
        with pytest.raises(ValueError, match="two or more"):
            correction_items(db, "gpt", "decision", runs=["A"])
    finally:
        db.dispose()


def test_campaign_create_over_disagreements(
    judged_db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _import_model(judged_db, tmp_path, "gpt", GRADES)
    url = str(judged_db.engine.url)
    code = main([
        "campaign", "create", "fix-gpt", "--db", url, "--runs", "A", "B", "--depth", "4",
        "--overlap", "3", "--annotators", "alice", "--gold-rate", "0", "--machine", "gpt",
    ])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "'fix-gpt': 2 items" in out
    queue = CampaignService(judged_db).queue("fix-gpt", _annotator_id(judged_db, "alice"), 10)
    assert {x.document for x in queue} == {"d3", "d7"}
    code = main([
        "campaign", "create", "none", "--db", url, "--runs", "A", "--depth", "4",
        "--overlap", "2", "--annotators", "alice", "--machine", "nosuch",
    ])  # fmt: skip
    assert code == 2 and "no model source 'nosuch'" in capsys.readouterr().err


def _annotator_id(db: Database, name: str) -> int:
    from ndcg_studio.storage.queries.names import annotator_names

    with db.engine.connect() as conn:
        return next(i for i, n in annotator_names(conn).items() if n == name)
