"""Review's two stages (services.review_rows): the first stage's scores, means and data, and a
second stage that computes the intervals and the agreement columns from that data — the same
values as reading and scoring again, without doing so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import event

from ndcg_studio.services.agreement import AgreementService
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.scoring.load import ScoringRead
from ndcg_studio.services.scoring.service import ScoringService, summarize
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.services.screens import review as review_rows
from ndcg_studio.services.screens.review import load_review, load_review_agreement, query_agreement
from ndcg_studio.services.stability.service import StabilityService
from ndcg_studio.storage.database import Database, open_database
from tests.services.test_view_rows import judged  # noqa: F401  (the fixture)


def _equal(a: Any, b: Any) -> None:
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.fixture
def negative(tmp_path: Path) -> Any:
    """Three annotators, one grade -1 (trec_eval's judged non-relevant), one item graded once."""
    db = open_database(tmp_path / "neg.sqlite")
    rows = [
        "query_id,doc_id,annotator,grade",
        *(
            f"q1,d{d},{a},{g}"
            for d, grades in ((1, (4, 3, -1)), (2, (0, 0, 1)))
            for a, g in zip("abc", grades, strict=True)
        ),
        "q2,d1,a,2",
        "q2,d3,b,-1",
        "q2,d3,c,4",
    ]
    (tmp_path / "j.csv").write_text("\n".join(rows) + "\n")
    ImportService(db).import_judgments(tmp_path / "j.csv")
    run = ["q1 Q0 d1 1 9 r", "q1 Q0 d2 2 8 r", "q2 Q0 d3 1 9 r", "q2 Q0 d9 2 8 r"]
    (tmp_path / "r.run").write_text("\n".join(run) + "\n")
    ImportService(db).import_run(tmp_path / "r.run")
    yield db
    db.dispose()


@pytest.mark.parametrize("name", ["judged", "negative"])
def test_query_agreement_of_the_loaded_data_is_the_services_overview(
    name: str, request: pytest.FixtureRequest
) -> None:
    db: Database = request.getfixturevalue(name)
    data = ScoringService(db).load(ScoringRead(ScoringSettings(k=3)))
    mine, theirs = query_agreement(data), AgreementService(db).query_overview()
    assert mine.query_external == theirs.query_external
    for field in ("alpha", "n_items", "n_multi", "n_disputed"):
        _equal(getattr(mine, field), getattr(theirs, field))


def test_score_view_is_score_without_err_and_whole_list_rr(judged: Database) -> None:  # noqa: F811
    settings = ScoringSettings(k=2)
    full = ScoringService(judged).score(settings)
    view, data = ScoringService(judged).score_view(settings)
    assert data.n_queries == len(full.query_external) and view.query_external == full.query_external
    for field in ("ndcg", "dcg", "idcg", "cg", "precision", "rr_at_k", "judged_at_k"):
        _equal(getattr(view.table, field), getattr(full.table, field))
    _equal(view.table.n_returned, np.minimum(full.table.n_returned, 2))  # counted down to K
    assert (full.table.n_returned > 2).any()
    assert np.isnan(view.table.err).all() and np.isnan(view.table.rr).all()
    assert not np.isnan(full.table.err[full.table.has_judgments]).any()


def test_means_first_then_the_same_summaries_with_intervals(judged: Database) -> None:  # noqa: F811
    report = load_review(judged, ScoringSettings(k=3), agreement=False).report
    first, later = summarize(report, intervals=False), summarize(report)
    assert [s.ndcg.mean for s in first] == [s.ndcg.mean for s in later]
    assert [replace(s, ndcg=s.ndcg._replace(low=0, high=0)) for s in first] == [
        replace(s, ndcg=s.ndcg._replace(low=0, high=0)) for s in later
    ]
    assert all(np.isnan(s.ndcg.low) and np.isnan(s.ndcg.high) for s in first)
    assert all(s.ndcg.low <= s.ndcg.mean <= s.ndcg.high for s in later)


def test_the_second_stage_reads_and_scores_nothing_again(
    judged: Database,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fails if the second stage reloads: every read it used to make raises here."""
    settings = ScoringSettings(k=3)
    first = load_review(judged, settings, agreement=False)
    assert not first.complete and not first.intervals and first.scoring is not None
    expected = load_review_agreement(judged, settings, first.report, None)  # read again

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the second stage read the database again")

    monkeypatch.setattr(ScoringService, "load", refuse)
    monkeypatch.setattr(AgreementService, "query_overview", refuse)
    monkeypatch.setattr(review_rows.ScoringService, "score_view", refuse)
    statements: list[str] = []
    event.listen(judged.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    overview, spread = load_review_agreement(judged, settings, first.report, None, first.scoring)
    assert not any("judgments" in s or "results" in s for s in statements), statements
    assert overview.query_external == expected[0].query_external
    _equal(overview.alpha, expected[0].alpha)
    _equal(overview.n_disputed, expected[0].n_disputed)
    assert spread is not None and expected[1] is not None
    _equal(spread, expected[1])


def test_spread_of_loaded_data_is_the_spread_read_again(judged: Database) -> None:  # noqa: F811
    settings = ScoringSettings(k=2)
    report, data = ScoringService(judged).score_view(settings)
    stability = StabilityService(judged)
    again, reused = stability.spread(settings), stability.spread(settings, loaded=(report, data))
    assert reused.sets == again.sets and reused.report is report
    _equal(reused.values, again.values)
    _equal(reused.spread, again.spread)


def test_judgments_are_read_beside_the_results_on_a_second_connection(
    judged: Database,  # noqa: F811
) -> None:
    """Same arrays whether the judgments are read on the same connection or on another."""
    from ndcg_studio.services.scoring.load import load_scoring_data

    settings = ScoringSettings(k=3)
    connections: list[object] = []
    event.listen(judged.engine, "checkout", lambda dbapi, *_: connections.append(dbapi))
    with judged.engine.connect() as conn:
        alone = load_scoring_data(conn, ScoringRead(settings))
        n_alone = len(connections)
        beside = load_scoring_data(conn, ScoringRead(settings), engine=judged.engine)
    assert n_alone == 1 and len(connections) == 2  # the helper thread's own connection
    for name in ("query_ids", "doc_ids", "run_ids", "n_annotators", "n_returned", "judgments"):
        _equal(getattr(beside, name), getattr(alone, name))
    for part in ("group", "doc", "rank"):
        _equal(getattr(beside.lists, part), getattr(alone.lists, part))
    for part in ("query", "doc", "grade"):
        _equal(getattr(beside.qrels, part), getattr(alone.qrels, part))
    assert beside.query_external == alone.query_external


def test_texts_are_read_with_the_names_beside_the_results(judged: Database) -> None:  # noqa: F811
    with judged.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE queries SET text = 'about ' || external_id WHERE id > 1")
    service = ScoringService(judged)
    plain, with_texts = (
        service.load(ScoringRead(ScoringSettings(k=3))),
        service.load(ScoringRead(ScoringSettings(k=3), texts=True)),
    )
    assert plain.query_text is None
    assert with_texts.query_text == service.query_texts(with_texts.query_ids.tolist())
    assert any(with_texts.query_text)
    first = load_review(judged, ScoringSettings(k=3), agreement=False)
    assert first.rows.text.tolist() == [
        dict(zip(with_texts.query_external, with_texts.query_text, strict=True))[q]
        for q in first.rows.query.tolist()
    ]


@hypothesis_settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 5), st.integers(0, 7), st.integers(0, 3), st.sampled_from([-1, 0, 2, 4])
        ),
        max_size=40,
        unique_by=lambda t: t[:3],
    ),
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 7), st.integers(0, 4)),
        max_size=6,
        unique_by=lambda t: t[:2],
    ),
    st.sampled_from(["mean", "median", "majority", "max", "min"]),
)
def test_consensus_on_database_ids_is_the_consensus_on_dense_indices(
    judgments: list[tuple[int, int, int, int]],
    adjudications: list[tuple[int, int, int]],
    method: str,
) -> None:
    """The helper thread reduces the grades by database ids (sparse, large): mapped to dense
    indices afterwards, the same rows as reducing the dense indices."""
    from ndcg_studio.domain.consensus import consensus_qrels
    from ndcg_studio.domain.metrics.measures import Qrels
    from ndcg_studio.services.scoring.load import _dense, _qrels
    from ndcg_studio.storage.queries.scoring_input import ADJUDICATION_DTYPE, JUDGMENT_DTYPE

    jud = np.array(
        [(q * 1_000 + 7, d * 10_007 + 3, a + 1, g) for q, d, a, g in judgments],
        dtype=JUDGMENT_DTYPE,
    )
    adj = np.array(
        [(q * 1_000 + 7, d * 10_007 + 3, g) for q, d, g in adjudications], dtype=ADJUDICATION_DTYPE
    )
    raw = _qrels(jud, adj, ScoringSettings(consensus=method))  # type: ignore[arg-type]
    _, q_lookup = _dense(jud["query"], adj["query"])
    _, d_lookup = _dense(jud["doc"], adj["doc"])
    dense_adj = Qrels(q_lookup[adj["query"]], d_lookup[adj["doc"]], adj["grade"])
    if len(adj) == 0 and len(jud) and jud["annotator"].min() == jud["annotator"].max():
        expected = Qrels(q_lookup[jud["query"]], d_lookup[jud["doc"]], jud["grade"])
    else:
        expected = consensus_qrels(
            q_lookup[jud["query"]],
            d_lookup[jud["doc"]],
            jud["annotator"],
            jud["grade"],
            method=method,  # type: ignore[arg-type]
            adjudicated=dense_adj if len(adj) else None,
        )
    _equal(q_lookup[raw.query], expected.query)
    _equal(d_lookup[raw.doc], expected.doc)
    assert np.asarray(raw.grade).tobytes() == np.asarray(expected.grade).tobytes()


@hypothesis_settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 4),
    st.integers(1, 30),
    st.integers(1, 6),
    st.integers(1, 3),
    st.sampled_from(["judged", "list"]),
)
def test_scoring_in_parts_is_scoring_at_once_bit_for_bit(
    seed: int, n_runs: int, n_queries: int, parts: int, threads: int, ideal: str
) -> None:
    """Every column of every group, NaN and zeros included: the same bytes."""
    from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, score
    from ndcg_studio.services.scoring.service import ndcg_in_parts, score_in_parts

    rng = np.random.default_rng(seed)
    n_docs = 12
    group, doc = [], []
    for g in range(n_runs * n_queries):
        length = int(rng.integers(0, 8))  # some lists empty
        group += [g] * length
        doc += rng.choice(n_docs, size=length, replace=False).tolist()
    n = len(group)
    order = rng.permutation(n)  # rows in no particular order, as read
    lists = RankedLists(
        group=np.array(group, dtype=np.int64)[order],
        doc=np.array(doc, dtype=np.int64)[order],
        score=rng.integers(0, 4, size=n).astype(np.float64),  # ties broken by the doc key
        rank=np.arange(1, n + 1),
        group_query=np.tile(np.arange(n_queries), n_runs),
        doc_key=rng.permutation(n_docs),
    )
    graded = rng.random((n_queries, n_docs)) < 0.4
    q, d = np.nonzero(graded)
    qrels = Qrels(q, d, rng.choice([-1.0, 0.0, 1.0, 2.5, 4.0], size=len(q)))
    params = replace(ScoringSettings(k=int(rng.integers(1, 6)), ideal=ideal).params(), err=False)  # type: ignore[arg-type]
    whole = score(lists, qrels, params)
    split = score_in_parts(lists, qrels, params, parts, threads=threads)
    for name in whole.__dataclass_fields__:
        assert getattr(split, name).tobytes() == getattr(whole, name).tobytes(), name
    # several qrels over the same lists, each part put in run order once for all of them
    fewer = rng.random(len(q)) < 0.5
    other = Qrels(q[fewer], d[fewer], rng.choice([0.0, 1.0, 3.0], size=int(fewer.sum())))
    rows = ndcg_in_parts(lists, [qrels, other, qrels], params, parts)
    assert rows.shape == (3, lists.n_groups)
    for row, each in zip(rows, [qrels, other, qrels], strict=True):
        assert row.tobytes() == score(lists, each, params).ndcg.tobytes()


@hypothesis_settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(2, 6))
def test_alpha_per_query_in_parts_is_the_alpha_at_once(seed: int, n_q: int, parts: int) -> None:
    from ndcg_studio.domain.agreement.alpha import alpha_by_group
    from ndcg_studio.domain.agreement.ratings import Ratings
    from ndcg_studio.services.agreement import GRADE_SCALE
    from ndcg_studio.services.screens.review import _alpha_in_parts

    rng = np.random.default_rng(seed)
    items_per_query = rng.integers(0, 5, size=n_q)  # some queries without items
    query_of_item = np.repeat(np.arange(n_q), items_per_query)
    graded = rng.random((len(query_of_item), 3)) < 0.7
    item, annotator = np.nonzero(graded)
    ratings = Ratings.from_arrays(
        item, annotator, rng.integers(0, 5, size=len(item)).astype(float), len(query_of_item), 3
    )
    whole = alpha_by_group(ratings, query_of_item, n_q, "ordinal", values=GRADE_SCALE).value
    split = _alpha_in_parts(ratings, query_of_item, n_q, "ordinal", parts)
    assert split.tobytes() == whole.tobytes()


@pytest.mark.parametrize("runs", [None, "first"])
@pytest.mark.parametrize("documents_up_to", [None, 2**58])
def test_the_top_k_read_packed_into_one_integer_is_the_plain_read(
    judged: Database,  # noqa: F811
    runs: str | None,
    documents_up_to: int | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(query, run, position, document) read as one integer per result — or, when document
    ids reach far enough for that product to pass 2**62, (query, run, position) as one
    integer beside the document — and taken apart: the same columns, in the same order, as
    reading the four columns."""
    from ndcg_studio.storage.queries import names
    from ndcg_studio.storage.queries import scoring_input as rows

    if documents_up_to is not None:  # as if the documents' ids went that high
        top_ids = rows._top_ids

        def far(conn: Any, *tables: Any) -> list[int] | None:
            tops = top_ids(conn, *tables)
            if tops is not None and tables[-1] is rows.models.documents:
                tops[-1] = documents_up_to
            return tops

        monkeypatch.setattr(rows, "_top_ids", far)
    with judged.engine.connect() as conn:
        run_ids = (
            None if runs is None else [i for i, n in names.run_names(conn).items() if n == runs]
        )
        for k in (1, 2, 5):
            packed = rows.read_results(conn, run_ids, top_k=k, with_scores=False)
            assert rows._read_packed(conn, rows.select(rows.models.results.c.run_id), k) is not None
            with monkeypatch.context() as m:
                m.setattr(rows, "_read_packed", lambda *_: None)
                plain = rows.read_results(conn, run_ids, top_k=k, with_scores=False)
            assert list(packed) == list(plain) and len(plain["run"]) > 0
            for name in plain:
                assert packed[name].dtype == plain[name].dtype
                _equal(packed[name], plain[name])


@pytest.mark.parametrize("some_queries", [False, True])
def test_the_judgments_read_packed_into_two_integers_are_the_plain_read(
    judged: Database,  # noqa: F811
    some_queries: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(query, document) and (annotator, grade) read as two integers per judgment and taken
    apart: the same rows, in the same order, as reading the four columns (grades -1 too)."""
    from ndcg_studio.storage.queries import scoring_input as rows

    with judged.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE judgments SET grade = -1 WHERE id % 3 = 0")
    with judged.engine.connect() as conn:
        query_ids = [1, 2] if some_queries else None
        packed = rows.read_judgments(conn, query_ids=query_ids)
        stmt = rows.select(rows.models.judgments.c.query_id)
        assert rows._read_judgments_packed(conn, stmt) is not None
        with monkeypatch.context() as m:
            m.setattr(rows, "_read_judgments_packed", lambda *_: None)
            plain = rows.read_judgments(conn, query_ids=query_ids)
        assert len(plain) > 0 and (plain["grade"] == -1).any()
        assert packed.dtype == plain.dtype
        assert packed.tobytes() == plain.tobytes()


def test_the_rows_share_one_text_per_query_and_the_kept_data_no_list_of_them(
    judged: Database,  # noqa: F811
) -> None:
    """The Review rows' texts refer to one str per query (not a fixed-width copy per row),
    and the data kept for the second stage holds no second list of the texts."""
    with judged.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE queries SET text = 'about ' || external_id")
    first = load_review(judged, ScoringSettings(k=3), agreement=False)
    assert first.scoring is not None and first.scoring.query_text is None
    text = first.rows.text
    assert text.dtype == object and len(text) == len(first.rows) > 0
    by_query: dict[str, Any] = {}
    for q, t in zip(first.rows.query.tolist(), text, strict=True):
        assert t == f"about {q}"
        assert by_query.setdefault(q, t) is t  # one object per query, shared by its rows
    assert len(by_query) < len(text)  # several runs: rows share
    complete = load_review(judged, ScoringSettings(k=3))
    assert complete.rows.text.tolist() == text.tolist()
