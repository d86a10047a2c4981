"""The per-run band counts of ``summarize``: one ``bincount`` against a label per row."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_studio.domain.bands import NO_BAND, Band, band_labels
from ndcg_studio.services.scoring.service import _band_counts

LABELS = [b.label for b in sorted(Band, reverse=True)]


@given(st.lists(st.integers(NO_BAND, max(Band)), max_size=200))
def test_band_counts_equal_counting_each_rows_label(codes: list[int]) -> None:
    array = np.array(codes, dtype=np.int8)
    counted = Counter(band_labels(array[array >= 0]).tolist())
    counts = _band_counts(array, LABELS)
    assert list(counts) == LABELS  # excellent first, as the summary table shows them
    assert counts == {label: counted.get(label, 0) for label in LABELS}
    assert all(type(v) is int for v in counts.values())


def test_a_code_that_is_no_band_is_an_error() -> None:
    with pytest.raises(ValueError):
        _band_counts(np.array([0, 5], dtype=np.int8), LABELS)
