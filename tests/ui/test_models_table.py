"""Table model helpers."""

from __future__ import annotations


def test_differences_round_to_an_unsigned_zero() -> None:
    from ndcg_studio.ui.models.table import signed

    assert [signed(v, 3) for v in (0.0123, -0.15, -0.0001, 0.0, -0.0, 0.0004)] == [
        "+0.012", "-0.150", "0.000", "0.000", "0.000", "0.000"
    ]  # fmt: skip


def test_fixed_decimals_leave_undefined_values_empty() -> None:
    from ndcg_studio.ui.models.table import fixed

    assert [fixed(0.87654), fixed(0.87654, 4), fixed(float("nan"), 2)] == ["0.877", "0.8765", ""]
