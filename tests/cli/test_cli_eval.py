"""``ndcg-studio eval QRELS RUN`` against trec_eval's own expected outputs, pytrec_eval and
ir_measures, and ``ndcg-studio score`` on the same files; its options, refusals and errors."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import numpy as np
import pytest

from ndcg_studio.app import main
from tests.conftest import SHARED_DATA

DATA = Path(__file__).resolve().parents[1] / "data"
TE = DATA / "trec_eval_test"
DL19 = DATA / "trec_dl19_passage"
OUR_MEASURES = (
    "runid num_q num_ret num_rel num_rel_ret map bpref recip_rank "
    "P recall ndcg ndcg_cut map_cut rbp"
)
ALL_OURS = [word for name in OUR_MEASURES.split() for word in ("-m", name)]
LINE = re.compile(r"^(\S+) *\t(\S+)\t(\S+)$")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def evaluate(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    code, out, err = run(capsys, "eval", *argv)
    assert code == 0, err
    assert err == ""
    return out.splitlines()


def expected_lines(path: Path, names: set[str]) -> list[str]:
    """trec_eval's lines of the measures we print (runid, num_q and ours), in its order."""
    lines = path.read_text().splitlines()
    return [line for line in lines if line.split()[0] in names]


def names_of(lines: list[str]) -> set[str]:
    return {line.split()[0] for line in lines}


def test_output_is_byte_identical_to_trec_eval_on_its_test_suite(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # out.test.aql = trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test
    # (graded qrels with -1 grades, 10 tied scores): every line of the measures implemented
    ours = evaluate(
        capsys, "-q", "-l", "2", *ALL_OURS, str(TE / "qrels.rel_level"), str(TE / "results.test")
    )
    expected = expected_lines(TE / "out.test.aql", names_of(ours))
    assert len(ours) == 3 * 44 + 46  # 3 queries x 44 values, then runid, num_q and 44 means
    assert ours == expected


def test_cutoffs_and_gains_as_trec_eval_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    # out.test.meas_params: -m P.5,7,3 -m recall.20,2000 -mndcg.1=3,2=9,4=4.5
    # -mndcg_cut.10,20,23.4 -q qrels.test results.test (23.4 is read as 23)
    ours = evaluate(
        capsys,
        "-q",
        "-m",
        "P.5,7,3",
        "-m",
        "recall.20,2000",
        "-mndcg.1=3,2=9,4=4.5",
        "-mndcg_cut.10,20,23.4",
        str(TE / "qrels.test"),
        str(TE / "results.test"),
    )
    assert "ndcg_cut_23           \tall\t" in "\n".join(ours)
    assert ours == expected_lines(TE / "out.test.meas_params", names_of(ours))


def test_all_trec_measures_on_trec_dl19(capsys: pytest.CaptureFixture[str]) -> None:
    # trec_eval -c -q -m all_trec qrels run (43 queries, 1,000 results each, grades 0-3)
    ours = evaluate(
        capsys,
        "-c",
        "-q",
        *ALL_OURS,
        str(DL19 / "qrels.dl19-passage.txt"),
        str(DL19 / "run.bm25-default.dl19.txt"),
    )
    expected = expected_lines(DL19 / "expected.trec_eval.q.all_trec.txt", names_of(ours))
    assert len(ours) == 43 * 44 + 46
    assert ours == expected
    gains = evaluate(
        capsys,
        "-c",
        "-q",
        "-m",
        "ndcg.0=0,1=1,2=3,3=7",
        str(DL19 / "qrels.dl19-passage.txt"),
        str(DL19 / "run.bm25-default.dl19.txt"),
    )
    assert gains == (DL19 / "expected.trec_eval.q.ndcg_expgain.txt").read_text().splitlines()


@pytest.mark.skipif(
    not (SHARED_DATA / "trec_dl19_passage").is_dir(), reason="needs ../shared/data (TREC DL 2019)"
)
@pytest.mark.parametrize("level", ["1", "2"])
def test_relevance_level_on_trec_dl19(capsys: pytest.CaptureFixture[str], level: str) -> None:
    shared = SHARED_DATA / "trec_dl19_passage"
    ours = evaluate(
        capsys,
        "-c",
        "-q",
        "-l",
        level,
        "-m",
        "ndcg_cut.10,100",
        "-m",
        "recall.1000",
        "-m",
        "map_cut.10,100",
        str(shared / "qrels.dl19-passage.txt"),
        str(shared / "run.bm25-default.dl19.txt"),
    )
    name = (
        "expected.trec_eval.q.l2.cutoffs.txt"
        if level == "2"
        else "expected.trec_eval.q.cutoffs.txt"
    )
    assert ours == (shared / name).read_text().splitlines()


def write_trec(folder: Path, rng: np.random.Generator) -> tuple[Path, Path]:
    """Random qrels and run: 30 queries (some only in one file), ties, unjudged documents."""
    qrels, run = folder / "qrels.txt", folder / "run.txt"
    q_lines, r_lines = [], []
    for q in range(30):
        docs = rng.choice(200, size=60, replace=False)
        if q % 7 != 3:  # queries 3, 10, 17, 24 have no judgments
            for d in docs[:40]:  # -1: pooled but left unjudged (trec_eval, infAP)
                q_lines.append(f"q{q} 0 d{d} {rng.integers(-1, 5)}\n")
        if q % 11 != 5:  # queries 5, 16, 27 have no results
            n = int(rng.integers(1, 60))
            # scores exact in float32 (pytrec_eval reads float32), many ties
            scores = rng.integers(0, 16, size=n) / 4.0
            for i, d in enumerate(docs[20 : 20 + n] if n <= 40 else docs[:n]):
                r_lines.append(f"q{q}\tQ0\td{d}\t{i + 1}\t{scores[i]}\ttag\n")
    rng.shuffle(r_lines)
    qrels.write_text("".join(q_lines))
    run.write_text("".join(r_lines))
    return qrels, run


def parse(lines: list[str]) -> dict[tuple[str, str], str]:
    out = {}
    for line in lines:
        m = LINE.match(line)
        assert m, repr(line)
        out[m.group(1), m.group(2)] = m.group(3)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_same_numbers_as_pytrec_eval_and_ir_measures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int
) -> None:
    import ir_measures
    import pytrec_eval

    qrels_path, run_path = write_trec(tmp_path, np.random.default_rng(seed))
    from ndcg_studio.io.trec.columns import read_qrels_columns, read_run_columns
    from ndcg_studio.services.evaluation.evaluate import evaluate as evaluate_columns
    from ndcg_studio.services.evaluation.measures import parse_measures

    words = [
        "ndcg_cut.5,10",
        "P.5,10",
        "recip_rank",
        "map",
        "bpref",
        "recall.10",
        "map_cut.10",
        "ndcg",
        "Rprec",  # not iprec_at_recall: pytrec_eval embeds trec_eval 9's cutoffs (ceil-like),
        "success.1,5,10",  # trec_eval 10 rounds them (checked against its own outputs above)
        "set_P",
        "set_recall",
        "set_F",
        "set_map",
        "set_relative_P",
        "num_nonrel_judged_ret",
        "infAP",
        "ndcg_rel",
        "num_rel",
        "num_rel_ret",
    ]
    result = evaluate_columns(
        read_run_columns(run_path), read_qrels_columns(qrels_path), parse_measures(words)
    )
    with qrels_path.open() as f:
        qrels = pytrec_eval.parse_qrel(f)
    with run_path.open() as f:
        run_dict = pytrec_eval.parse_run(f)
    peer_words = {w.split(".")[0] if w.startswith("success") else w for w in words}
    peer = pytrec_eval.RelevanceEvaluator(qrels, peer_words).evaluate(run_dict)
    assert sorted(peer) == result.query_ids
    for name in result.names:
        for i, qid in enumerate(result.query_ids):
            assert math.isclose(result.values[name][i], peer[qid][name], abs_tol=1e-9), (name, qid)
    # ir_measures (its pytrec_eval provider aside): nDCG@10, P@5, RR, AP
    measures = [ir_measures.nDCG @ 10, ir_measures.P @ 5, ir_measures.RR, ir_measures.AP]
    irm = {
        (str(m.measure), m.query_id): m.value
        for m in ir_measures.iter_calc(
            measures,
            ir_measures.read_trec_qrels(str(qrels_path)),
            ir_measures.read_trec_run(str(run_path)),
        )
    }
    mapping = {"nDCG@10": "ndcg_cut_10", "P@5": "P_5", "RR": "recip_rank", "AP": "map"}
    for (measure, qid), value in irm.items():
        if qid in result.query_ids:
            ours = result.values[mapping[measure]][result.query_ids.index(qid)]
            assert math.isclose(ours, value, abs_tol=1e-9), (measure, qid)
    # the printed summary is the mean of the per-query values, to 4 decimals (counts: the sum)
    lines = parse(list(result.lines(per_query=True)))
    for name in result.names:
        values = [peer[q][name] for q in peer]
        if name in result.integer:
            assert lines[name, "all"] == f"{int(sum(values))}"
        else:
            assert lines[name, "all"] == f"{float(np.mean(values)):6.4f}"


def test_complete_and_judged_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    qrels_path, run_path = write_trec(tmp_path, np.random.default_rng(7))
    plain = parse(
        evaluate(capsys, "-q", "-m", "P.10", "-m", "num_q", str(qrels_path), str(run_path))
    )
    complete = parse(
        evaluate(capsys, "-q", "-c", "-m", "P.10", "-m", "num_q", str(qrels_path), str(run_path))
    )
    # queries 5, 16, 27 are judged but have no results: -c adds them with 0
    assert {q for _, q in plain} == {f"q{q}" for q in range(30) if q % 7 != 3 and q % 11 != 5} | {
        "all"
    }
    assert complete["P_10", "q5"] == "0.0000" and ("P_10", "q5") not in plain
    assert int(complete["num_q", "all"]) == int(plain["num_q", "all"]) + 3
    n = int(complete["num_q", "all"])
    total = sum(float(v) for (m, q), v in plain.items() if m == "P_10" and q != "all")
    assert float(complete["P_10", "all"]) == pytest.approx(total / n, abs=1e-4)
    # -J: the unjudged documents go, so no query loses precision and some gain
    judged = parse(evaluate(capsys, "-q", "-J", "-m", "P.10", str(qrels_path), str(run_path)))
    pairs = [(float(plain[k]), float(judged[k])) for k in plain if k[0] == "P_10"]
    assert all(j >= p for p, j in pairs) and any(j > p for p, j in pairs)


def test_same_numbers_as_score_from_the_database(
    capsys: pytest.CaptureFixture[str], sqlite_url: str, tmp_path: Path
) -> None:
    qrels_path, run_path = DL19 / "qrels.dl19-passage.txt", DL19 / "run.bm25-default.dl19.txt"
    assert (
        run(capsys, "--db", sqlite_url, "import", "qrels", str(qrels_path), "--annotator", "nist")[
            0
        ]
        == 0
    )
    assert run(capsys, "--db", sqlite_url, "import", "run", str(run_path))[0] == 0
    out = tmp_path / "scores.csv"
    code, _, err = run(capsys, "--db", sqlite_url, "score", "--format", "csv", "--output", str(out))
    assert code == 0, err
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    ours = parse(
        evaluate(capsys, "-q", "-m", "ndcg_cut.10", "-m", "P.10", str(qrels_path), str(run_path))
    )
    assert len(rows) == 43
    for row in rows:
        assert ours["ndcg_cut_10", row["query_id"]] == f"{float(row['ndcg']):6.4f}"
        assert ours["P_10", row["query_id"]] == f"{float(row['p_at_k']):6.4f}"


def test_a_measure_not_implemented_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys,
        "eval",
        "-m",
        "ndcg_cut.10",
        "-m",
        "Rndcg",
        str(TE / "qrels.test"),
        str(TE / "results.test"),
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "'Rndcg' is not implemented (a trec_eval 10 measure" in err and "ndcg_cut" in err
    code, out, err = run(
        capsys, "eval", "-m", "P.0", str(TE / "qrels.test"), str(TE / "results.test")
    )
    assert (code, out) == (2, "") and "cutoffs must be >= 1" in err
    code, out, err = run(
        capsys, "eval", "-m", "map.3", str(TE / "qrels.test"), str(TE / "results.test")
    )
    assert (code, out) == (2, "") and "takes no parameters" in err


def test_bad_files_are_refused_with_file_line_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n")
    bad = tmp_path / "run.txt"
    bad.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 x t\n")
    code, out, err = run(capsys, "eval", "-m", "P.5", str(qrels), str(bad))
    assert (code, out) == (2, "")
    assert f"{bad}:2: score:" in err and "Traceback" not in err
    twice = tmp_path / "twice.txt"
    twice.write_text("1 Q0 a 1 0.5 t\n1 Q0 b 2 0.4 t\n1 Q0 a 3 0.3 t\n")
    code, out, err = run(capsys, "eval", "-m", "P.5", str(qrels), str(twice))
    assert (code, out) == (2, "")
    assert f"{twice}:3: " in err and "'a'" in err  # the strict reader's message, by line
    judged_twice = tmp_path / "judged_twice.txt"
    judged_twice.write_text("1 0 a 1\n1 0 a 0\n")
    code, out, err = run(
        capsys, "eval", "-m", "P.5", str(judged_twice), str(twice.with_name("run_ok.txt"))
    )
    assert (code, out) == (2, "")  # a missing file: one line, no traceback
    assert err == f"ndcg-studio eval: {twice.with_name('run_ok.txt')}: no such file\n"
    ok = tmp_path / "ok.txt"
    ok.write_text("1 Q0 a 1 0.5 t\n")
    code, out, err = run(capsys, "eval", "-m", "P.5", str(judged_twice), str(ok))
    assert (code, out) == (2, "")
    assert f"{judged_twice}:2: " in err and "'a'" in err


def test_without_m_the_output_is_trec_eval_s_default_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """trec_eval 10's 30 default lines (out.test = ``trec_eval qrels.test results.test``):
    gm_map, Rprec and the 11 ``iprec_at_recall`` points included."""
    ours = evaluate(capsys, str(TE / "qrels.test"), str(TE / "results.test"))
    expected = (TE / "out.test").read_text().splitlines()
    assert len(expected) == 30
    assert ours == expected


def test_rprec_iprec_gm_map_infap_and_ndcg_rel_equal_trec_eval_per_query_on_dl19(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every per-query and ``all`` line of Rprec, the iprec_at_recall points, gm_map and map
    of ``trec_eval -c -q -m all_trec`` on TREC DL 2019 (43 queries, graded qrels)."""
    names = ("Rprec", "iprec_at_recall", "gm_map", "map", "infAP", "ndcg_rel")
    argv = ["-c", "-q", *(w for n in names for w in ("-m", n))]
    ours = evaluate(
        capsys, *argv, str(DL19 / "qrels.dl19-passage.txt"), str(DL19 / "run.bm25-default.dl19.txt")
    )

    def wanted(line: str) -> bool:
        head = line.split(maxsplit=1)[0]
        return head in ("Rprec", "gm_map", "map", "infAP", "ndcg_rel") or head.startswith(
            "iprec_at_recall_"
        )

    expected = [
        line
        for line in (DL19 / "expected.trec_eval.q.all_trec.txt").read_text().splitlines()
        if wanted(line)
    ]
    assert len(expected) == 43 * 15 + 16
    assert sorted(ours) == sorted(expected)


def test_all_trec_prints_trec_eval_s_lines_of_every_implemented_measure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``-m all_trec -q``: every line printed is trec_eval 10's (out.test.aq), and the measures
    it leaves out are exactly the ones the help names as not implemented."""
    from ndcg_studio.services.evaluation.measures import NOT_IMPLEMENTED

    ours = evaluate(
        capsys, "-q", "-m", "all_trec", str(TE / "qrels.test"), str(TE / "results.test")
    )
    expected = (TE / "out.test.aq").read_text().splitlines()
    assert set(ours) <= set(expected) and len(ours) == 271
    missing = {line.split()[0] for line in set(expected) - set(ours)}
    stems = {re.sub(r"_[0-9.]+$", "", name) for name in missing}
    assert stems == set(NOT_IMPLEMENTED)
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = capsys.readouterr().out
    assert all(name in " ".join(out.split()) for name in NOT_IMPLEMENTED)


@pytest.mark.parametrize("n", [5, 100])
def test_m_keeps_the_first_n_documents_of_each_query(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, n: int
) -> None:
    """``-M N`` equals evaluating the run cut to its top N per query (trec_eval's order)."""
    measures = ["-m", "map", "-m", "P.5,10,100", "-m", "num_ret", "-m", "set_F", "-m", "Rprec"]
    whole = [line.split() for line in (TE / "results.test").read_text().splitlines()]
    whole.sort(key=lambda w: (w[0], -float(w[4]), [-b for b in w[2].encode()]))
    kept: dict[str, int] = {}
    cut = tmp_path / "cut.txt"
    with cut.open("w") as handle:
        for w in whole:
            kept[w[0]] = kept.get(w[0], 0) + 1
            if kept[w[0]] <= n:
                handle.write(" ".join(w) + "\n")
    capped = evaluate(
        capsys, "-q", "-M", str(n), *measures, str(TE / "qrels.test"), str(TE / "results.test")
    )
    assert capped == evaluate(capsys, "-q", *measures, str(TE / "qrels.test"), str(cut))


def test_set_map_is_computed_in_trec_evals_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """32 retrieved, 5 relevant, 3 of them retrieved: rel_ret² / (ret · rel) = 0.05625 prints
    0.0563 (trec_eval's m_set_map.c), where (3/32) · (3/5) rounds to 0.0562."""
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"q1 0 d{i} {int(i < 3 or i >= 32)}\n" for i in range(34)))
    run_file.write_text("".join(f"q1 Q0 d{i} {i + 1} {100 - i} r\n" for i in range(32)))
    code, out, _ = run(capsys, "eval", "-m", "set_map", str(qrels), str(run_file))
    assert code == 0
    assert out.splitlines()[-1].split() == ["set_map", "all", "0.0563"]


def test_means_add_the_queries_one_by_one_as_trec_eval_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """24 queries whose reciprocal ranks sum, one by one in query order, to a mean that prints
    0.3813 (trec_eval's te_acc_meas_s); numpy's pairwise sum of the same values prints
    0.3812."""
    first_relevant = [1, 6, 2, 7, 3, 3, 1, 7, 6, 5, 7, 7, 5, 7, 2, 1, 3, 7, 7, 1, 4, 2, 6, 2]
    rr = np.array([1.0 / k for k in first_relevant])
    assert f"{rr.mean():6.4f}" == "0.3812"  # the case still tells the two sums apart
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("".join(f"q{i:02d} 0 d{k} 1\n" for i, k in enumerate(first_relevant)))
    run_file.write_text(
        "".join(
            f"q{i:02d} Q0 d{j} {j} {10 - j} r\n"
            for i in range(len(first_relevant))
            for j in range(1, 8)
        )
    )
    code, out, _ = run(capsys, "eval", "-m", "recip_rank", str(qrels), str(run_file))
    assert code == 0
    assert out.splitlines()[-1].split() == ["recip_rank", "all", "0.3813"]
