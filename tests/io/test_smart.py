"""SMART readers on the Cranfield demo collection, the converted qrels, the demo runs."""

from __future__ import annotations

import re
from collections import Counter

import ir_measures
import pytest

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.grades import parse_grade_map
from ndcg_studio.io.smart import (
    CRANFIELD_GRADE_MAP,
    CRANFIELD_GRADE_MAP_TEXT,
    read_smart_documents,
    read_smart_queries,
)
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run
from tests.io.conftest import CRANFIELD, DEMO, WriteFile


def issues_of(excinfo: pytest.ExceptionInfo[InputFileError]) -> list[tuple[int, str, str]]:
    return [(issue.line, issue.field, issue.message) for issue in excinfo.value.issues]


def test_cranfield_documents() -> None:
    docs = read_smart_documents(CRANFIELD / "cran.all.1400")
    raw = (CRANFIELD / "cran.all.1400").read_text(encoding="utf-8")
    assert len(docs) == 1400 == len(re.findall(r"^\.I ", raw, flags=re.M))
    assert docs.doc_id == [str(i) for i in range(1, 1401)]
    assert docs.title[0] == (
        "experimental investigation of the aerodynamics of a wing in a slipstream ."
    )
    assert docs.text[0] is not None
    assert docs.text[0].startswith(docs.title[0] + " an experimental study of a wing")
    assert docs.text[0].endswith("the specific configuration of the experiment .")
    assert docs.url == [None] * 1400
    assert docs.line[:3].tolist() == [1, 26, 55]  # lines of the .I markers (grep -n)
    empty = [d for d, t in zip(docs.doc_id, docs.text, strict=True) if t is None]
    assert empty == ["471", "995"]
    assert all("  " not in t and "\r" not in t and "\n" not in t for t in docs.text if t)


def test_cranfield_document_240_keeps_its_abstract_despite_stray_markers() -> None:
    docs = read_smart_documents(CRANFIELD / "cran.all.1400")
    text = docs.text[docs.doc_id.index("240")]
    assert text is not None
    assert "application to turbulent separations is made for a prandtl number of unity" in text
    assert text.endswith("reduces to zero the heat transfer in a laminar separated flow .")


def test_cranfield_queries_renumbered_like_the_qrels() -> None:
    queries = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    original = read_smart_queries(CRANFIELD / "cran.qry")
    assert len(queries) == 225
    assert queries.query_id == [str(i) for i in range(1, 226)]
    assert original.query_id[:5] == ["001", "002", "004", "008", "009"]
    assert queries.text == original.text
    assert queries.text[0] == (
        "what similarity laws must be obeyed when constructing aeroelastic models "
        "of heated high speed aircraft ."
    )


def test_cranqrel_trec_is_the_raw_file_reformatted() -> None:
    raw = (CRANFIELD / "cranqrel").read_text(encoding="utf-8").split()
    triples = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]
    qrels = read_trec_qrels(CRANFIELD / "cranqrel.trec", grade_map=CRANFIELD_GRADE_MAP)
    assert len(qrels) == len(triples) == 1837
    assert list(zip(qrels.query_id, qrels.doc_id, strict=True)) == [(q, d) for q, d, _ in triples]
    assert qrels.grade.tolist() == [5 - int(c) if c != "-1" else 0 for _, _, c in triples]
    assert Counter(qrels.grade.tolist()) == {4: 128, 3: 387, 2: 734, 1: 363, 0: 225}
    docs = read_smart_documents(CRANFIELD / "cran.all.1400")
    queries = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    assert set(qrels.doc_id) <= set(docs.doc_id)
    assert set(qrels.query_id) == set(queries.query_id)


def test_grade_map_constant_and_text_agree() -> None:
    assert parse_grade_map(CRANFIELD_GRADE_MAP_TEXT) == CRANFIELD_GRADE_MAP
    assert CRANFIELD_GRADE_MAP == {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}


@pytest.mark.parametrize(
    ("name", "expected_ndcg10"), [("bm25-title", 0.2902), ("bm25-fulltext", 0.3480)]
)
def test_demo_runs_are_sane(name: str, expected_ndcg10: float) -> None:
    path = DEMO / f"cranfield.{name}.run"
    run = read_trec_run(path)
    assert run.tags == (name,)
    per_query = Counter(run.query_id)
    assert set(per_query) <= {str(i) for i in range(1, 226)}
    assert max(per_query.values()) == 100
    # ranks are 1..n per query and follow trec_eval's order: score desc, then docno desc
    rows = list(zip(run.query_id, run.rank.tolist(), run.score.tolist(), run.doc_id, strict=True))
    by_query: dict[str, list[tuple[int, float, str]]] = {}
    for q, rank, score, doc in rows:
        by_query.setdefault(q, []).append((rank, score, doc))
    for hits in by_query.values():
        assert [rank for rank, _, _ in hits] == list(range(1, len(hits) + 1))
        order = sorted(hits, key=lambda h: (h[1], h[2].encode()), reverse=True)
        assert order == hits
        assert all(score > 0 for _, score, _ in hits)
    assert [int(q) for q in run.query_id] == sorted(int(q) for q in run.query_id)
    # regression value of the shipped run, with ir-measures as the reference implementation
    qrels = read_trec_qrels(CRANFIELD / "cranqrel.trec", grade_map=CRANFIELD_GRADE_MAP)
    measure = ir_measures.nDCG @ 10
    value = ir_measures.calc_aggregate(
        [measure],
        [
            ir_measures.Qrel(q, d, g)
            for q, d, g in zip(qrels.query_id, qrels.doc_id, qrels.grade.tolist(), strict=True)
        ],
        [
            ir_measures.ScoredDoc(q, d, s)
            for q, d, s in zip(run.query_id, run.doc_id, run.score.tolist(), strict=True)
        ],
    )[measure]
    assert value == pytest.approx(expected_ndcg10, abs=5e-5)


# ----------------------------------------------------------------------------- bad input


def test_smart_good_small_file_with_crlf_bom_and_inline_marker_text(write_file: WriteFile) -> None:
    text = "\ufeff.I 7\r\n.T Inline title\r\n.A\r\nsomeone\r\n.W\r\n  body  line\r\n\r\nmore\r\n"
    docs = read_smart_documents(write_file("d.all", text))
    assert (docs.doc_id, docs.title, docs.text) == (["7"], ["Inline title"], ["body line more"])


def test_smart_bad_input(write_file: WriteFile) -> None:
    text = (
        "stray text\n"  # 1
        ".I 1\n"  # 2
        "text before any field\n"  # 3
        ".W\n"  # 4
        "fine\n"  # 5
        ".I\n"  # 6 no id
        ".W\n"  # 7
        "x\n"  # 8
        ".I 1\n"  # 9 duplicate of line 2
        ".W\n"  # 10
        "y\n"  # 11
    )
    with pytest.raises(InputFileError) as excinfo:
        read_smart_documents(write_file("d.all", text))
    assert issues_of(excinfo) == [
        (1, "I", "text before the first '.I' line"),
        (3, "I", "text after '.I' outside any field (expected e.g. '.W')"),
        (6, "I", "'.I' line without an id"),
        (9, "I", "id '1' appears twice (duplicate of line 2)"),
    ]


def test_smart_query_without_text(write_file: WriteFile) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_smart_queries(write_file("q.qry", ".I 001\n.W\nok\n.I 002\n.W\n\n"), renumber=True)
    assert issues_of(excinfo) == [(4, "W", "query '002' has no '.W' text")]


@pytest.mark.parametrize("content", ["", "\n \n"])
def test_smart_empty(write_file: WriteFile, content: str) -> None:
    with pytest.raises(InputFileError) as excinfo:
        read_smart_documents(write_file("d.all", content))
    assert issues_of(excinfo) == [(1, "file", "file is empty (no data lines)")]


def test_smart_latin1(write_file: WriteFile) -> None:
    data = b".I 1\n.W\nna\xefve\n"
    with pytest.raises(InputFileError) as excinfo:
        read_smart_documents(write_file("d.all", data))
    assert issues_of(excinfo) == [
        (3, "encoding", "not UTF-8 (byte 0xEF at offset 10); save the file as UTF-8")
    ]
