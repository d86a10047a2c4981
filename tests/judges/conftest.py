"""A small collection to judge: 3 queries, 12 documents (each text carries ``DOC-<id>`` for
the loopback server), two runs of depth 4, and a human annotator's grades of every pooled item.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.storage.database import Database, open_database

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The fixture table: document -> the grade the loopback server answers (0..3, UMBRELA scale).
GRADES = {f"d{i}": i % 4 for i in range(1, 13)}
#: The humans' grades: the server's, except on d3 and d7 (two disagreements).
HUMAN = {**GRADES, "d3": 0, "d7": 1}


def write_collection(folder: Path) -> dict[str, Path]:
    """The files of the collection under ``folder``."""
    docs = folder / "docs.jsonl"
    docs.write_text(
        "".join(
            json.dumps({"doc_id": d, "title": f"Title {d}", "text": f"Text of DOC-{d} here."})
            + "\n"
            for d in GRADES
        ),
        encoding="utf-8",
    )
    queries = folder / "queries.csv"
    queries.write_text(
        "query_id,text,description,narrative\n"
        "q1,first query,the first need,\n"
        "q2,second query,,\n"
        "q3,third query,,\n",
        encoding="utf-8",
    )
    run_a, run_b, qrels = folder / "a.run", folder / "b.run", folder / "human.qrels"
    lines_a, lines_b, lines_q = [], [], []
    for qi, q in enumerate(("q1", "q2", "q3")):
        mine = [f"d{4 * qi + k}" for k in range(1, 5)]
        for rank, d in enumerate(mine, 1):
            lines_a.append(f"{q} Q0 {d} {rank} {10 - rank} A")
            lines_b.append(f"{q} Q0 {d} {rank} {rank} B")
            lines_q.append(f"{q} 0 {d} {HUMAN[d]}")
    run_a.write_text("\n".join(lines_a) + "\n", encoding="utf-8")
    run_b.write_text("\n".join(lines_b) + "\n", encoding="utf-8")
    qrels.write_text("\n".join(lines_q) + "\n", encoding="utf-8")
    return {"docs": docs, "queries": queries, "a": run_a, "b": run_b, "qrels": qrels}


def load_collection(db: Database, folder: Path) -> None:
    files = write_collection(folder)
    service = ImportService(db)
    service.import_file("queries", files["queries"])
    service.import_file("documents", files["docs"])
    service.import_file("run", files["a"], name="A")
    service.import_file("run", files["b"], name="B")
    service.import_file("qrels", files["qrels"], annotator="nist")


@pytest.fixture
def judged_db(tmp_path: Path) -> Iterator[Database]:
    """The collection in an SQLite file under tmp_path."""
    db = open_database(f"sqlite:///{tmp_path / 'studio.sqlite'}")
    load_collection(db, tmp_path)
    yield db
    db.dispose()
