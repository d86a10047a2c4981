"""Counted nouns: singular for exactly one, plural otherwise, thousands separators."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.services.wording import SINGULAR, count


def test_one_is_singular_and_the_rest_plural() -> None:
    assert count(1, "runs") == "1 run"
    assert count(1, "queries") == "1 query"
    assert count(1, "queries created") == "1 query created"
    assert count(0, "runs") == "0 runs"
    assert count(2, "annotators") == "2 annotators"
    assert count(1837, "judgments") == "1,837 judgments"
    assert count(1, "people", "person") == "1 person"
    assert count(1, "changes") == "1 change"


@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(sorted(SINGULAR)))
def test_the_number_is_always_formatted_with_separators(n: int, noun: str) -> None:
    text = count(n, noun)
    number, word = text.split(" ", 1)
    assert int(number.replace(",", "")) == n
    assert word == (SINGULAR[noun] if n == 1 else noun)
