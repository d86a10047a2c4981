"""services.evaluation: the exact join behind the hash join, measure parsing as trec_eval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.trec.columns import read_qrels_columns, read_run_columns
from ndcg_studio.services.evaluation import evaluate as evaluation
from ndcg_studio.services.evaluation.evaluate import evaluate
from ndcg_studio.services.evaluation.measures import (
    DEFAULT_CUTOFFS,
    DEFAULT_MEASURES,
    MeasureError,
    parse_measures,
)

TE = Path(__file__).resolve().parents[1] / "data" / "trec_eval_test"
WORDS = ["ndcg_cut.5,10", "P.5", "map", "bpref", "recip_rank", "ndcg", "rbp", "num_rel_ret"]


def _spied_exact_join(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Any, list[int]]:
    """trec_eval's test run and graded qrels, their evaluation, and the calls of the exact
    join from now on (one entry a call)."""
    run = read_run_columns(TE / "results.test")
    qrels = read_qrels_columns(TE / "qrels.rel_level")
    expected = evaluate(run, qrels, parse_measures(WORDS), judged_only=True)
    calls: list[int] = []
    exact = evaluation._join_exact

    def spy(*args: object) -> object:
        calls.append(1)
        return exact(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluation, "_join_exact", spy)
    return run, qrels, expected, calls


def test_hash_collisions_fall_back_to_the_exact_join(monkeypatch: pytest.MonkeyPatch) -> None:
    run, qrels, expected, calls = _spied_exact_join(monkeypatch)
    # every row hashes alike: the hash join must notice and hand over
    monkeypatch.setattr(
        evaluation, "_hash_rows", lambda doc, query: np.zeros(doc.shape[0], dtype=np.uint64)
    )
    got = evaluate(run, qrels, parse_measures(WORDS), judged_only=True)
    assert calls == [1]
    assert list(got.lines(True)) == list(expected.lines(True))
    assert got.names == expected.names


def test_a_collision_of_the_cut_hashes_falls_back_to_the_whole_hashes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, qrels, expected, calls = _spied_exact_join(monkeypatch)
    numbers: dict[tuple[int, bytes], int] = {}

    def low_bits_only(doc: np.ndarray, query: np.ndarray) -> np.ndarray:
        # a distinct small number per (query, document), the same in both files: distinct
        # hashes, all alike once the row index's bits are cut off
        pairs = zip(query.tolist(), doc.tolist(), strict=True)
        return np.array([numbers.setdefault(p, len(numbers)) for p in pairs], dtype=np.uint64)

    monkeypatch.setattr(evaluation, "_hash_rows", low_bits_only)
    got = evaluate(run, qrels, parse_measures(WORDS), judged_only=True)
    assert calls == []
    assert list(got.lines(True)) == list(expected.lines(True))


def test_a_duplicate_found_by_the_exact_join_is_reported_by_line(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 a 1 0.5 t\n1 Q0 a 2 0.4 t\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n")
    with pytest.raises(InputFileError, match=r"run.txt:2: doc_id"):
        evaluate(read_run_columns(run), read_qrels_columns(qrels), parse_measures(["P.5"]))


def test_measures_are_parsed_as_trec_eval_does() -> None:
    specs = parse_measures(["P.10,5", "map", "P.20", "ndcg_cut", "recip_rank", "P"])
    # trec_eval's order of output, the first parameters win, default cutoffs otherwise
    assert [s.name for s in specs] == ["map", "recip_rank", "P", "ndcg_cut"]
    assert specs[2].cutoffs == (5, 10)
    assert specs[3].cutoffs == DEFAULT_CUTOFFS
    assert parse_measures(["ndcg", "ndcg.1=3,2=9"])[0].names() == ["ndcg_1=3,2=9"]
    assert [s.name for s in parse_measures([])] == list(DEFAULT_MEASURES)
    for bad in ("Rndcg", "P.x", "P.", "ndcg.1", "map.5", "set_P.1", "P.0", "Rprec.5"):
        with pytest.raises(MeasureError):
            parse_measures([bad])
