"""The spreadsheet guard and its inverse: every text survives guard → unguard, and no guarded
cell starts with a character a spreadsheet would run as a formula."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.io.spreadsheet import FORMULA_TRIGGERS, guard, unguard, unguard_column

# texts built from the characters that matter, so hypothesis meets every prefix quickly
HOSTILE = st.text(alphabet=st.sampled_from([*FORMULA_TRIGGERS, "'", "#", ",", '"', "\n", "a", "é"]))


@given(st.one_of(HOSTILE, st.text()))
def test_unguard_inverts_guard_and_guarded_text_is_safe(text: str) -> None:
    written = guard(text)
    assert unguard(written) == text
    assert not written.startswith(FORMULA_TRIGGERS)
    assert written == text or written == "'" + text


@pytest.mark.parametrize(
    ("cell", "read"),
    [("'=1", "=1"), ("''=1", "'=1"), ("'x", "'x"), ("'", "'"), ("''", "'"), ("x'", "x'")],
)
def test_unguard_removes_only_a_guard(cell: str, read: str) -> None:
    assert unguard(cell) == read


def test_unguard_column_matches_unguard() -> None:
    values = ["'=1", "plain", "'x", "''-", ""]
    assert unguard_column(values) == [unguard(v) for v in values]
    plain = ["a", "b"]
    assert unguard_column(plain) is plain  # nothing to undo: no copy
