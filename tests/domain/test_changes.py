"""What changed between two ranked lists: RBO against the ``rbo`` package's values and a direct
transcription of Webber, Moffat & Zobel (TOIS 2010) eq. 32, the bounds of section 4.1 around
RBO, and overlap@K, Jaccard, entered and left on hand-worked lists.

The ``rbo`` package (PyPI, 0.1.3, ``RankingSimilarity(S, T).rbo_ext(p)``, "Eq. (32) in the rbo
paper") pins numpy < 2, which this project's dependencies exclude, so it cannot be a test
dependency: its answers for the lists below were computed once with it and are written here.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.changes.overlap import top_change
from ndcg_studio.domain.changes.rbo import rbo_ext, rbo_min, rbo_residual

#: (list S, list T, p, ``rbo.RankingSimilarity(S, T).rbo_ext(p)`` with rbo 0.1.3)
RBO_PACKAGE = [
    ("abcde", "bacfg", 0.9, 0.619335),
    ("abcdefg", "abcxyz", 0.9, 0.6602859999999999),
    ("abcdefghij", "jihgfedcba", 0.9, 0.5116075656428573),
    ("abc", "abcdefgh", 0.98, 1.0),
    ("abcdefgh", "hd", 0.5, 0.027548363095238095),
]


def paper_eq32(a: str, b: str, p: float) -> float:
    """Eq. 32 written out term by term, X_d counted by sets (S the shorter list)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long)  # noqa: E741

    def x(d: int) -> int:
        return len(set(short[: min(d, s)]) & set(long[:d]))

    first = sum(x(d) / d * p**d for d in range(1, l + 1))
    second = sum(x(s) * (d - s) / (s * d) * p**d for d in range(s + 1, l + 1))
    return (1 - p) / p * (first + second) + ((x(l) - x(s)) / l + x(s) / s) * p**l


@pytest.mark.parametrize(("a", "b", "p", "value"), RBO_PACKAGE)
def test_rbo_ext_equals_the_rbo_package(a: str, b: str, p: float, value: float) -> None:
    assert rbo_ext(a, b, p) == pytest.approx(value, abs=1e-12)
    assert rbo_ext(b, a, p) == pytest.approx(value, abs=1e-12)


def test_hand_worked_even_lists() -> None:
    # a b c vs b a d, p = 0.5: X = 0, 2, 2; eq. 30: X_3/3 p^3 + (1-p)/p (0 + 2/2 p^2 + 2/3 p^3)
    expected = 2 / 3 * 0.125 + 1.0 * (0.25 + 2 / 3 * 0.125)
    assert rbo_ext("abc", "bad", 0.5) == pytest.approx(expected)


lists = st.lists(st.sampled_from("abcdefghijklmnop"), max_size=12, unique=True).map("".join)
persistence = st.sampled_from([0.1, 0.5, 0.8, 0.9, 0.95, 0.99])


@given(lists, lists, persistence)
def test_rbo_ext_is_the_papers_formula_symmetric_and_in_0_1(a: str, b: str, p: float) -> None:
    value = rbo_ext(a, b, p)
    assert 0.0 <= value <= 1.0
    assert value == pytest.approx(rbo_ext(b, a, p), abs=1e-12)
    if a and b:
        assert value == pytest.approx(min(1.0, paper_eq32(a, b, p)), abs=1e-12)


@given(lists, persistence)
def test_rbo_ext_is_1_for_equal_lists_and_0_for_disjoint_ones(a: str, p: float) -> None:
    assert rbo_ext(a, a, p) == pytest.approx(1.0)
    other = a.upper()
    assert rbo_ext(a, other, p) == (1.0 if not a else 0.0)


@given(lists, lists, persistence)
def test_the_bounds_hold_rbo_ext(a: str, b: str, p: float) -> None:
    k = min(len(a), len(b))
    a, b = a[:k], b[:k]
    low, residual = rbo_min(a, b, p), rbo_residual(a, b, p)
    assert 0.0 <= low <= 1.0 and 0.0 <= residual <= 1.0
    assert low - 1e-12 <= rbo_ext(a, b, p) <= low + residual + 1e-12
    assert low + residual <= 1.0 + 1e-12


def test_the_bounds_of_equal_and_disjoint_prefixes() -> None:
    # disjoint, k = 3: X = 0, f = 6; RES = p^6 + (1-p)/p * sum_{d=4..6} 2(d-3)/d p^d
    p = 0.9
    residual = p**6 + (1 - p) / p * sum(2 * (d - 3) / d * p**d for d in range(4, 7))
    assert rbo_min("abc", "xyz", p) == 0.0
    assert rbo_residual("abc", "xyz", p) == pytest.approx(residual)
    # equal prefixes: min + residual is the most two rankings can agree, 1
    assert rbo_min("abc", "abc", p) + rbo_residual("abc", "abc", p) == pytest.approx(1.0)
    assert not math.isnan(rbo_min("", "", 0.9))


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="persistence"):
        rbo_ext("ab", "ba", 1.0)
    with pytest.raises(ValueError, match="repeats"):
        rbo_ext("aab", "ba", 0.9)
    with pytest.raises(ValueError, match="one length"):
        rbo_min("abc", "ab", 0.9)


def test_top_change_counts_overlap_jaccard_entered_and_left() -> None:
    change = top_change("abcdefg", "bxaycz", 4)  # top 4: abcd vs bxay
    assert change.overlap == 0.5
    assert change.jaccard == pytest.approx(2 / 6)
    assert change.entered == ("x", "y")
    assert change.left == ("c", "d")
    short = top_change("ab", "ab", 10)  # lists shorter than K: missing places are not shared
    assert (short.overlap, short.jaccard, short.entered, short.left) == (0.2, 1.0, (), ())
    assert top_change("", "", 3).jaccard == 1.0
    with pytest.raises(ValueError):
        top_change("a", "a", 0)
