"""score() against trec_eval's own expected outputs (see tests/data/*/SOURCE.md).

* tests/data/trec_eval_test: trec_eval's test folder. out.test.aql is
  ``trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test`` (graded qrels
  with -1 grades, 10 tied scores, rank column in trec_eval's order); out.test.meas_params is
  ``trec_eval -q ... -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 ... qrels.test results.test``.
* tests/data/trec_dl19_passage: TREC DL 2019 passage qrels (grades 0-3) and a BM25 top-1000
  run; expected files from ``trec_eval -c -q -m ndcg -m ndcg_cut`` and
  ``-m ndcg.0=0,1=1,2=3,3=7`` (exponential gains).
trec_eval prints 4 decimals, so the tolerance is 1e-4 (the brief's bound).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.domain.metrics.breakdown import breakdown
from ndcg_studio.domain.metrics.measures import Qrels, RankedLists, ScoringParams, score
from ndcg_studio.domain.metrics.ordering import doc_order_key

DATA = Path(__file__).resolve().parents[1] / "data"
TE = DATA / "trec_eval_test"
DL19 = DATA / "trec_dl19_passage"
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
TOL = 1e-4


# --- a tiny test-only TREC parser (the real readers live in ndcg_studio.io) ------------------


class Trec:
    """A run and qrels as arrays; one group per query of ``group_queries``."""

    def __init__(self, run_path: Path, qrels_path: Path, *, all_qrels_queries: bool) -> None:
        run = [line.split() for line in run_path.read_text().splitlines() if line.strip()]
        qrels = [line.split() for line in qrels_path.read_text().splitlines() if line.strip()]
        run_queries = {r[0] for r in run}
        qrels_queries = {q[0] for q in qrels}
        self.run_queries = run_queries
        self.qrels_queries = qrels_queries
        # trec_eval evaluates queries of the run that are in the qrels; with -c also the
        # qrels queries missing from the run (they get an empty group here).
        evaluated = qrels_queries if all_qrels_queries else run_queries & qrels_queries
        self.group_ids = sorted(evaluated)
        self.query_ids = sorted(run_queries | qrels_queries)
        self.doc_ids = sorted({r[2] for r in run} | {q[2] for q in qrels})
        q_index = {q: i for i, q in enumerate(self.query_ids)}
        d_index = {d: i for i, d in enumerate(self.doc_ids)}
        g_index = {q: i for i, q in enumerate(self.group_ids)}
        rows = [r for r in run if r[0] in g_index]
        self.rank = np.array([int(r[3]) for r in rows], dtype=np.int64)
        self.score = np.array([float(r[4]) for r in rows], dtype=np.float64)
        self.lists = RankedLists(
            group=np.array([g_index[r[0]] for r in rows], dtype=np.int64),
            doc=np.array([d_index[r[2]] for r in rows], dtype=np.int64),
            score=self.score,
            rank=self.rank,
            group_query=np.array([q_index[q] for q in self.group_ids], dtype=np.int64),
            doc_key=doc_order_key(self.doc_ids),
        )
        self.qrels = Qrels(
            query=np.array([q_index[q[0]] for q in qrels], dtype=np.int64),
            doc=np.array([d_index[q[2]] for q in qrels], dtype=np.int64),
            grade=np.array([float(q[3]) for q in qrels], dtype=np.float64),
        )


def read_expected(path: Path) -> dict[str, dict[str, float]]:
    """``trec_eval -q`` output -> {measure: {query id or 'all': value}}."""
    out: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split()
        if measure.startswith(("ndcg", "P_", "recip_rank")):
            out.setdefault(measure, {})[query] = float(value)
    return out


def check(values: np.ndarray, group_ids: list[str], expected: dict[str, float]) -> None:
    got = dict(zip(group_ids, values.tolist(), strict=True))
    got["all"] = float(np.nanmean(values))
    assert set(expected) == set(got)
    for query, value in expected.items():
        assert got[query] == pytest.approx(value, abs=TOL), query


@pytest.fixture(scope="module")
def te_rel_level() -> Trec:
    return Trec(TE / "results.test", TE / "qrels.rel_level", all_qrels_queries=False)


@pytest.fixture(scope="module")
def te_binary() -> Trec:
    return Trec(TE / "results.test", TE / "qrels.test", all_qrels_queries=False)


@pytest.fixture(scope="module")
def dl19() -> Trec:
    return Trec(
        DL19 / "run.bm25-default.dl19.txt", DL19 / "qrels.dl19-passage.txt", all_qrels_queries=True
    )


# --- trec_eval's test folder --------------------------------------------------------------


def test_test_data_exercises_ties_and_negative_grades(te_rel_level: Trec) -> None:
    data = te_rel_level
    assert data.group_ids == ["301", "302", "303"]
    assert int(np.sum(data.qrels.grade == -1)) == 304
    ties = 0
    for g in range(3):
        s = data.score[data.lists.group == g]
        ties += s.size - np.unique(s).size
    assert ties == 10


@pytest.mark.parametrize("k", [*CUTOFFS, None])
def test_ndcg_cut_and_ndcg_match_out_test_aql(te_rel_level: Trec, k: int | None) -> None:
    expected = read_expected(TE / "out.test.aql")[f"ndcg_cut_{k}" if k else "ndcg"]
    table = score(te_rel_level.lists, te_rel_level.qrels, ScoringParams(k=k))
    check(table.ndcg, te_rel_level.group_ids, expected)


def test_run_order_is_trec_eval_order(te_rel_level: Trec) -> None:
    # The rank column of results.test is trec_eval's order (score desc, docno desc): our
    # ordering of the tied scores must reproduce it exactly.
    data = te_rel_level
    params = ScoringParams(k=None)
    for g in range(3):
        rows = np.flatnonzero(data.lists.group == g)
        expected_docs = data.lists.doc[rows[np.argsort(data.rank[rows])]]
        got = breakdown(data.lists, data.qrels, g, params)
        np.testing.assert_array_equal(got.doc, expected_docs)


def test_rank_column_is_ignored_by_default(te_rel_level: Trec) -> None:
    data = te_rel_level
    scrambled = RankedLists(
        group=data.lists.group,
        doc=data.lists.doc,
        score=data.lists.score,
        rank=np.random.default_rng(0).permutation(data.rank.size).astype(np.int64),
        group_query=data.lists.group_query,
        doc_key=data.lists.doc_key,
    )
    for k in (5, 10, 100, None):
        params = ScoringParams(k=k)
        a = score(data.lists, data.qrels, params)
        b = score(scrambled, data.qrels, params)
        np.testing.assert_array_equal(a.ndcg, b.ndcg)
    # ...while order="rank" does use it: the original ranks reproduce trec_eval, the
    # scrambled ones do not.
    rank_params = ScoringParams(k=10, order="rank")
    np.testing.assert_allclose(
        score(data.lists, data.qrels, rank_params).ndcg,
        score(data.lists, data.qrels, ScoringParams(k=10)).ndcg,
    )
    assert not np.allclose(
        score(scrambled, data.qrels, rank_params).ndcg,
        score(data.lists, data.qrels, ScoringParams(k=10)).ndcg,
    )


def test_negative_grades_are_judged_but_never_gain(te_rel_level: Trec) -> None:
    data = te_rel_level
    table = score(data.lists, data.qrels, ScoringParams(k=1000))
    key_grade = {
        (int(q), int(d)): float(g)
        for q, d, g in zip(data.qrels.query, data.qrels.doc, data.qrels.grade, strict=True)
    }
    negative = 0
    for g in range(3):
        rows = np.flatnonzero(data.lists.group == g)
        q = int(data.lists.group_query[g])
        grades = [key_grade.get((q, int(d))) for d in data.lists.doc[rows]]
        judged = sum(x is not None for x in grades)
        negative += sum(x == -1 for x in grades)
        assert table.judged_at_k[g] == pytest.approx(judged / rows.size)  # -1 counts as judged
        assert table.cg[g] == pytest.approx(sum(x for x in grades if x is not None and x > 0))
    assert negative > 0  # -1 grades are retrieved, so the check above means something


@pytest.mark.parametrize("k", CUTOFFS)
def test_precision_matches_out_test_aql_at_relevance_level_2(te_rel_level: Trec, k: int) -> None:
    expected = read_expected(TE / "out.test.aql")[f"P_{k}"]
    params = ScoringParams(k=k, relevance_threshold=2)
    check(
        score(te_rel_level.lists, te_rel_level.qrels, params).precision,
        te_rel_level.group_ids,
        expected,
    )


def test_reciprocal_rank_matches_out_test_aql_at_relevance_level_2(te_rel_level: Trec) -> None:
    expected = read_expected(TE / "out.test.aql")["recip_rank"]
    params = ScoringParams(k=10, relevance_threshold=2)
    check(
        score(te_rel_level.lists, te_rel_level.qrels, params).rr, te_rel_level.group_ids, expected
    )


def test_custom_gains_match_out_test_meas_params(te_binary: Trec) -> None:
    expected = read_expected(TE / "out.test.meas_params")
    params = ScoringParams(k=None, gain={1: 3.0, 2: 9.0, 4: 4.5})
    table = score(te_binary.lists, te_binary.qrels, params)
    check(table.ndcg, te_binary.group_ids, expected["ndcg_1=3,2=9,4=4.5"])


@pytest.mark.parametrize("k", [10, 20, 23])
def test_ndcg_cut_parameters_match_out_test_meas_params(te_binary: Trec, k: int) -> None:
    # -mndcg_cut.10,20,23.4: trec_eval reads the cutoffs as integers (23.4 -> 23).
    expected = read_expected(TE / "out.test.meas_params")[f"ndcg_cut_{k}"]
    table = score(te_binary.lists, te_binary.qrels, ScoringParams(k=k))
    check(table.ndcg, te_binary.group_ids, expected)


# --- TREC DL 2019 passage, BM25 run ---------------------------------------------------------


def test_dl19_every_qrels_query_is_in_the_run(dl19: Trec) -> None:
    # The expected files were made with -c; it changes nothing here since no query is missing.
    assert len(dl19.qrels_queries) == 43
    assert dl19.qrels_queries == dl19.run_queries
    assert dl19.lists.group.size == 43_000


@pytest.mark.parametrize("k", [*CUTOFFS, None])
def test_dl19_ndcg_all_cutoffs(dl19: Trec, k: int | None) -> None:
    expected = read_expected(DL19 / "expected.trec_eval.q.ndcg_all_cutoffs.txt")
    table = score(dl19.lists, dl19.qrels, ScoringParams(k=k))
    check(table.ndcg, dl19.group_ids, expected[f"ndcg_cut_{k}" if k else "ndcg"])


def test_dl19_ndcg_cut_10_mean_is_the_published_value(dl19: Trec) -> None:
    table = score(dl19.lists, dl19.qrels, ScoringParams(k=10))
    assert float(np.nanmean(table.ndcg)) == pytest.approx(0.5058, abs=5e-5)


@pytest.mark.parametrize("gain", ["exponential", {0: 0.0, 1: 1.0, 2: 3.0, 3: 7.0}])
def test_dl19_exponential_gain(dl19: Trec, gain: object) -> None:
    expected = read_expected(DL19 / "expected.trec_eval.q.ndcg_expgain.txt")
    table = score(dl19.lists, dl19.qrels, ScoringParams(k=None, gain=gain))  # type: ignore[arg-type]
    check(table.ndcg, dl19.group_ids, expected["ndcg_0=0,1=1,2=3,3=7"])


@pytest.mark.parametrize("k", CUTOFFS)
def test_dl19_precision_and_rr_match_all_trec(dl19: Trec, k: int) -> None:
    expected = read_expected(DL19 / "expected.trec_eval.q.all_trec.txt")
    table = score(dl19.lists, dl19.qrels, ScoringParams(k=k))
    check(table.precision, dl19.group_ids, expected[f"P_{k}"])
    check(table.rr, dl19.group_ids, expected["recip_rank"])


def test_dl19_missing_query_counts_as_zero_like_dash_c(dl19: Trec) -> None:
    # Drop one query's results: its group stays, empty, and scores 0 (trec_eval -c).
    keep = dl19.lists.group != 0
    lists = RankedLists(
        group=dl19.lists.group[keep],
        doc=dl19.lists.doc[keep],
        score=dl19.lists.score[keep],
        rank=dl19.lists.rank[keep],
        group_query=dl19.lists.group_query,
        doc_key=dl19.lists.doc_key,
    )
    full = score(dl19.lists, dl19.qrels, ScoringParams(k=10))
    table = score(lists, dl19.qrels, ScoringParams(k=10))
    assert table.n_returned[0] == 0
    assert table.ndcg[0] == 0.0
    assert not table.idcg_zero[0]
    np.testing.assert_array_equal(table.ndcg[1:], full.ndcg[1:])
    assert np.mean(table.ndcg) == pytest.approx((np.sum(full.ndcg) - full.ndcg[0]) / 43)
