"""Bad input is refused, never half-read (issue #14, point 5): each case is ``FILE:LINE:
field: ...``, exit 2, nothing written — the same on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text

from ndcg_studio.app import main
from ndcg_studio.storage import models
from ndcg_studio.storage.database import open_database, resolve_url

BOM = "\ufeff"
LONG_ID = "d" * 1001


def _rows(db_url: str) -> int:
    engine = create_engine(resolve_url(db_url))
    try:
        with engine.connect() as conn:
            return sum(
                int(conn.execute(select(func.count()).select_from(table)).scalar_one())
                for table in (
                    models.queries,
                    models.documents,
                    models.runs,
                    models.results,
                    models.judgments,
                    models.annotators,
                )
            )
    finally:
        engine.dispose()


# (kind, file name, content as str or bytes, extra options, expected "LINE: field: fragment")
CASES = [
    (
        "run",
        "bom.run",
        f"q Q0 d1 1 2 r\n{BOM}q Q0 d2 2 1 r\n",
        [],
        "2: encoding: a byte order mark",
    ),
    ("qrels", "bom.qrels", f"q 0 d1 1\nq 0 d2{BOM} 1\n", [], "2: encoding: a byte order mark"),
    (
        "judgments",
        "bom.csv",
        f"query_id,doc_id,annotator,grade\nq,d1,a,1\n{BOM}q,d2,a,1\n",
        [],
        "3: encoding: a byte order mark",
    ),
    (
        "smart",
        "bom.all",
        f".I 1\n.T\nt\n.W\nw\n{BOM}.I 2\n.T\nu\n",
        [],
        "6: encoding: a byte order",
    ),
    (
        "documents",
        "nul.jsonl",
        '{"doc_id": "d1", "title": "a\\u0000b"}\n',
        [],
        "1: title: holds U+0000",
    ),
    (
        "documents",
        "nulid.jsonl",
        '{"doc_id": "d\\u0000"}\n',
        [],
        "1: doc_id: 'd\\x00' holds U+0000",
    ),
    (
        "documents",
        "surrogate.jsonl",
        '{"doc_id": "d1"}\n{"doc_id": "d2", "text": "x\\ud800y"}\n',
        [],
        "2: text: holds U+D800",
    ),
    (
        "documents",
        "surrogateid.jsonl",
        '{"doc_id": "d\\udfff"}\n',
        [],
        "1: doc_id: 'd\\udfff' holds U+DFFF",
    ),
    (
        "documents",
        "deep.jsonl",
        "[" * 100_000 + "]" * 100_000 + "\n",
        [],
        "1: json: nested too deeply",
    ),
    (
        "judgments",
        "space.csv",
        "query_id,doc_id,annotator,grade\nq,d 1,a,1\n",
        [],
        "2: doc_id: 'd 1' holds U+0020 (a space)",
    ),
    (
        "documents",
        "space.jsonl",
        '{"doc_id": "a b"}\n',
        [],
        "1: doc_id: 'a b' holds U+0020 (a space)",
    ),
    (
        "queries",
        "ctrl.csv",
        "query_id,text\nq\x01,hello\n",
        [],
        "2: query_id: 'q\\x01' holds U+0001",
    ),
    ("run", "ctrl.run", "q Q0 d\x7f 1 2 r\n", [], "1: doc_id: 'd\\x7f' holds U+007F"),
    (
        "judgments",
        "blank.csv",
        "query_id,doc_id,annotator,grade\nq,d,   ,1\n",
        [],
        "2: annotator: is empty",  # cells are stripped: a blank name is an empty one
    ),
    ("run", "long.run", f"q Q0 {LONG_ID} 1 2 r\n", [], "1: doc_id: longer than 1000 bytes"),
    ("run", "underscore.run", "q Q0 d1 1 1_000 r\n", [], "1: score: '1_000' is not a number"),
    ("run", "arabic.run", "q Q0 d1 1 \u0661\u0662 r\n", [], "1: score: '١٢' is not a number"),
    ("qrels", "grade.qrels", "q 0 d1 1_0\n", [], "1: grade: '1_0' is not a number"),
    ("smart", "cr.all", ".I 1\n.T\ntitle\r.A author\n.W\nw\n", [], "3: encoding: a carriage"),
]


@pytest.mark.parametrize(
    ("kind", "name", "content", "options", "expected"),
    CASES,
    ids=[case[1] for case in CASES],
)
def test_bad_file_is_refused_with_file_line_field_and_nothing_written(
    db_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    name: str,
    content: str,
    options: list[str],
    expected: str,
) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8", "surrogatepass"))
    open_database(db_url).dispose()
    code = main(["--db", db_url, "import", kind, str(path), *options])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{path}:{expected}" in err, err
    assert "Traceback" not in err
    assert _rows(db_url) == 0


def test_blank_annotator_option_is_refused(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.qrels"
    path.write_text("q 0 d 1\n")
    assert main(["--db", db_url, "import", "qrels", str(path), "--annotator", "   "]) == 2
    assert "--annotator: '   ' is blank" in capsys.readouterr().err
    assert _rows(db_url) == 0


def test_ranks_beyond_int32_import_alike_on_both_databases(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rank PostgreSQL's integer cannot hold is kept as NULL on both (trec_eval ignores it);
    --order rank then names its line."""
    path = tmp_path / "big.run"
    path.write_text("q Q0 d1 2147483648 2 r\nq Q0 d2 -2147483649 1 r\n")
    assert main(["--db", db_url, "import", "run", str(path)]) == 0
    engine = create_engine(resolve_url(db_url))
    with engine.connect() as conn:
        ranks = conn.execute(text("SELECT rank FROM results ORDER BY position")).scalars().all()
    engine.dispose()
    assert ranks == [None, None]
    capsys.readouterr()
    assert main(["--db", db_url, "score", "--order", "rank"]) == 2
    assert f"{path}:1: rank: '2147483648' is not an integer" in capsys.readouterr().err


def test_export_of_a_legacy_id_with_whitespace_names_the_id(
    sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An id with a space, written before the readers refused them, cannot go into a TREC
    file: the message names the id and what to do, not only a row number."""
    path = tmp_path / "q.qrels"
    path.write_text("q 0 d1 1\n")
    assert main(["--db", sqlite_url, "import", "qrels", str(path)]) == 0
    engine = create_engine(resolve_url(sqlite_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE documents SET external_id = 'd 1'"))
    engine.dispose()
    capsys.readouterr()
    code = main(["--db", sqlite_url, "export", "qrels", "--output", str(tmp_path / "o.qrels")])
    err = capsys.readouterr().err
    assert code != 0
    assert "document id 'd 1' is empty or contains whitespace, which a TREC file" in err
    assert "Traceback" not in err
    assert not (tmp_path / "o.qrels").exists()
