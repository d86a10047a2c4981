"""One grade per (query, document) from several annotators."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.metrics.measures import Qrels

# (query, doc, annotator, grade); item (0,0): 1,2,2,4 ; (0,1): 3,0 ; (1,0): 1,2,3 ; (1,2): 2
ROWS = [
    (0, 0, 0, 1.0),
    (0, 0, 1, 2.0),
    (0, 0, 2, 2.0),
    (0, 0, 3, 4.0),
    (0, 1, 0, 3.0),
    (0, 1, 1, 0.0),
    (1, 0, 2, 3.0),
    (1, 0, 0, 1.0),
    (1, 0, 1, 2.0),
    (1, 2, 0, 2.0),
    (1, 2, 1, math.nan),  # missing grade: dropped
]


def run(method: str, adjudicated: Qrels | None = None) -> dict[tuple[int, int], float]:
    q, d, a, g = (np.array(c) for c in zip(*ROWS, strict=True))
    out = consensus_qrels(q, d, a, g, method=method, adjudicated=adjudicated)  # type: ignore[arg-type]
    return {
        (int(x), int(y)): float(z) for x, y, z in zip(out.query, out.doc, out.grade, strict=True)
    }


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        ("mean", [2.25, 1.5, 2.0, 2.0]),
        ("median", [2.0, 1.5, 2.0, 2.0]),
        ("majority", [2.0, 0.0, 2.0, 2.0]),  # (0,1): 3 vs 0 tied -> lower; (1,0): 1,2,3 -> 2
        ("max", [4.0, 3.0, 3.0, 2.0]),
        ("min", [1.0, 0.0, 1.0, 2.0]),
    ],
)
def test_methods_on_a_small_example(method: str, expected: list[float]) -> None:
    got = run(method)
    assert list(got) == [(0, 0), (0, 1), (1, 0), (1, 2)]  # sorted by (query, doc)
    assert list(got.values()) == pytest.approx(expected)


def test_majority_tie_rule_lower_median_of_tied_modes() -> None:
    grades = [0.0, 0.0, 1.0, 1.0, 3.0, 3.0, 4.0, 4.0]  # four tied modes 0,1,3,4 -> 1
    q = np.zeros(8, dtype=np.int64)
    out = consensus_qrels(q, q, np.arange(8), grades, method="majority")
    assert out.grade.tolist() == [1.0]


def test_adjudicated_grade_wins_and_adds_items() -> None:
    adjudicated = Qrels(query=np.array([0, 2]), doc=np.array([1, 5]), grade=np.array([4.0, 1.0]))
    got = run("mean", adjudicated)
    assert got[(0, 1)] == 4.0
    assert got[(2, 5)] == 1.0
    assert got[(0, 0)] == 2.25
    assert list(got) == sorted(got)


def test_errors() -> None:
    with pytest.raises(ValueError, match="more than once"):
        consensus_qrels([0, 0], [1, 1], [3, 3], [1.0, 2.0])
    with pytest.raises(ValueError, match="method"):
        consensus_qrels([0], [1], [3], [1.0], method="mode")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        consensus_qrels([0], [1], [3, 4], [1.0, 2.0])
    twice = Qrels(query=np.array([0, 0]), doc=np.array([1, 1]), grade=np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="two adjudicated"):
        consensus_qrels([0], [1], [3], [1.0], adjudicated=twice)
    empty = consensus_qrels([], [], [], [])
    assert empty.query.size == 0


@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 3), st.sampled_from([0, 1, 2, 3, 4])),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from(["mean", "median", "majority", "max", "min"]),
)
def test_against_a_python_reference(rows: list[tuple[int, int, int]], method: str) -> None:
    items: dict[tuple[int, int], list[float]] = {}
    for q, d, g in rows:
        items.setdefault((q, d), []).append(float(g))
    q = [k[0] for k, v in items.items() for _ in v]
    d = [k[1] for k, v in items.items() for _ in v]
    a = [i for v in items.values() for i in range(len(v))]
    g = [x for v in items.values() for x in v]
    out = consensus_qrels(q, d, a, g, method=method)  # type: ignore[arg-type]
    for x, y, z in zip(out.query, out.doc, out.grade, strict=True):
        v = sorted(items[(int(x), int(y))])
        if method == "mean":
            expected = float(np.mean(v))
        elif method == "median":
            expected = float(np.median(v))
        elif method == "max":
            expected = max(v)
        elif method == "min":
            expected = min(v)
        else:
            top = max(v.count(u) for u in v)
            modes = sorted({u for u in v if v.count(u) == top})
            expected = modes[(len(modes) - 1) // 2]
        assert z == pytest.approx(expected)
    assert out.query.size == len(items)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 5),
            st.integers(0, 2**40),
            st.sampled_from([0, 1, 2**30, 2**62]),
        ),
        max_size=30,
    )
)
def test_combined_key_sort_is_lexsorts_permutation(rows: list[tuple[int, int, int]]) -> None:
    """The fast sort of the consensus (one combined key) gives lexsort's permutation, and falls
    back to lexsort itself when the combined key would not fit in 63 bits."""
    from ndcg_studio.domain.consensus import _lexsort3

    cols = [np.array([r[i] for r in rows], dtype=np.int64) for i in range(3)]
    expected = np.lexsort((cols[2], cols[1], cols[0]))
    np.testing.assert_array_equal(_lexsort3(*cols), expected)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(0, 3),
            st.sampled_from([-1.0, 0.0, 1.0, 2.0, 4.0, 2.5, math.nan]),
        ),
        min_size=1,
        max_size=40,
        unique_by=lambda r: (r[0], r[1]),
    ),
    st.sampled_from(["mean", "median", "majority", "max", "min"]),
    st.integers(1, 3),
)
def test_same_as_the_lexsort_reduction(
    items: list[tuple[int, int, float]], method: str, n_annotators: int
) -> None:
    """Integer grades (the combined-key path) and fractional or NaN ones (lexsort) reduce to
    exactly the values of the plain lexsort reduction, to the bit."""
    from ndcg_studio.domain import consensus as c

    rows = [
        (q, d, a, g - a if a and not math.isnan(g) else g)
        for q, d, g in items
        for a in range(n_annotators)
    ]
    q, d, a, g = (np.array(col) for col in zip(*rows, strict=True))
    out = consensus_qrels(q, d, a, g, method=method)  # type: ignore[arg-type]
    keep = ~np.isnan(g)
    q, d, g = q[keep], d[keep], g[keep]
    if not q.size:
        assert out.grade.size == 0
        return
    order = np.lexsort((g, d, q))
    q, d, g = q[order], d[order], g[order]
    starts = np.flatnonzero(np.concatenate(([True], (q[1:] != q[:-1]) | (d[1:] != d[:-1]))))
    counts = np.diff(np.append(starts, q.size))
    if (g < 0).any():
        expected = c._reduce(np.maximum(g, 0.0), starts, counts, method)  # type: ignore[arg-type]
        expected[g[starts + counts - 1] < 0] = -1.0
    else:
        expected = c._reduce(g, starts, counts, method)  # type: ignore[arg-type]
    np.testing.assert_array_equal(out.grade, expected)
