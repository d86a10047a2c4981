"""Agreement on the DIKU relevance/credibility study (10 annotators, 10 queries, relevance 1..4).

The data set has NO licence: it is read from ``<repo>/../shared/data`` and never copied into the
repository; the tests skip when it is absent. Source: github diku-irlab/A66 (Lioma, Simonsen,
Larsen, ICTIR 2017); see ``../shared/data/diku_relevance_credibility/SOURCE.md``.

``judgments_long.csv`` is NOT de-duplicated: annotator P9 lists url 123 twice for query 5 (ranks 1
and 2). The loader below drops the second row explicitly (keep first) and the test asserts that this
is the only duplicate.
"""

from __future__ import annotations

import csv
import math
import warnings
from collections import Counter
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from ndcg_studio.domain.agreement.alpha import LEVELS, alpha, alpha_by_group
from ndcg_studio.domain.agreement.alpha_intervals import alpha_leave_one_out
from ndcg_studio.domain.agreement.kappa import fleiss_kappa, pairwise_cohen_kappa
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.agreement.spread import item_spread
from ndcg_studio.domain.agreement.summary import agreement_summary
from tests.domain.test_agreement_oracles import reference_alpha, units_of

REPO = Path(__file__).resolve().parents[2]
DIKU = (REPO / ".." / "shared" / "data" / "diku_relevance_credibility").resolve()
JUDGMENTS = DIKU / "judgments_long.csv"
DOMAIN = [1, 2, 3, 4]

pytestmark = pytest.mark.skipif(
    not JUDGMENTS.is_file(),
    reason=f"DIKU study not found at {JUDGMENTS} (unlicensed data, read from ../shared/data only)",
)


class Diku:
    """The study as dense codes, plus the reliability-data matrix the reference packages take."""

    def __init__(self) -> None:
        with JUDGMENTS.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        seen: set[tuple[str, str, str]] = set()
        self.duplicates: list[tuple[str, str, str]] = []
        kept = []
        for row in rows:
            key = (row["query_id"], row["doc_id"], row["annotator"])
            if key in seen:  # keep the first grade of a duplicated (item, annotator)
                self.duplicates.append(key)
                continue
            seen.add(key)
            kept.append(row)
        self.n_rows = len(rows)
        items = sorted({(int(r["query_id"]), r["doc_id"]) for r in kept})
        annotators = sorted({r["annotator"] for r in kept}, key=lambda a: int(a[1:]))
        item_code = {item: i for i, item in enumerate(items)}
        annotator_code = {a: i for i, a in enumerate(annotators)}
        self.annotators = annotators
        self.queries = sorted({q for q, _ in items})
        query_code = {q: i for i, q in enumerate(self.queries)}
        self.item_query = np.array([query_code[q] for q, _ in items], dtype=np.int64)
        self.ratings = Ratings(
            np.array([item_code[int(r["query_id"]), r["doc_id"]] for r in kept]),
            np.array([annotator_code[r["annotator"]] for r in kept]),
            np.array([float(r["rel_1to4"]) for r in kept]),
            len(items),
            len(annotators),
        )
        self.matrix = self.ratings.to_matrix()


@pytest.fixture(scope="module")
def diku() -> Diku:
    return Diku()


def test_loader_drops_exactly_the_known_duplicate(diku: Diku) -> None:
    assert diku.duplicates == [("5", "u123", "P9")]
    assert diku.n_rows == 500
    assert diku.ratings.n_ratings == 499
    assert diku.ratings.n_annotators == 10
    assert len(diku.queries) == 10


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_equals_krippendorff_package(diku: Diku, level: str) -> None:
    ours = alpha(diku.ratings, level, values=DOMAIN)  # type: ignore[arg-type]
    package = krippendorff.alpha(
        reliability_data=diku.matrix, level_of_measurement=level, value_domain=DOMAIN
    )
    assert ours.value == pytest.approx(package, abs=1e-6)
    assert ours.value == pytest.approx(package, abs=1e-12)  # in fact to rounding
    exact = reference_alpha(units_of(diku.ratings), level)
    assert exact is not None
    assert ours.value == pytest.approx(float(exact), abs=1e-12)


def test_default_level_trap_of_the_package(diku: Diku) -> None:
    """krippendorff.alpha defaults to interval; our alpha has no default level at all."""
    default = krippendorff.alpha(reliability_data=diku.matrix)
    assert default == pytest.approx(alpha(diku.ratings, "interval").value, abs=1e-12)
    assert abs(default - alpha(diku.ratings, "ordinal").value) > 1e-4


def test_per_query_alpha_equals_package_per_query(diku: Diku) -> None:
    result = alpha_by_group(diku.ratings, diku.item_query, len(diku.queries), "ordinal")
    for q in range(len(diku.queries)):
        block = diku.matrix[:, diku.item_query == q]
        pairable = (~np.isnan(block)).sum(axis=0) >= 2
        if not pairable.any():
            assert result.undefined_reason[q] == "no item has two or more grades"
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            package = krippendorff.alpha(
                reliability_data=block, level_of_measurement="ordinal", value_domain=DOMAIN
            )
        if math.isnan(package):
            assert math.isnan(result.value[q])
        else:
            assert result.value[q] == pytest.approx(package, abs=1e-9)


def test_leave_one_out_equals_package(diku: Diku) -> None:
    result = alpha_leave_one_out(diku.ratings, "ordinal", values=DOMAIN)
    for a in range(diku.ratings.n_annotators):
        package = krippendorff.alpha(
            reliability_data=np.delete(diku.matrix, a, axis=0),
            level_of_measurement="ordinal",
            value_domain=DOMAIN,
        )
        assert result.value[a] == pytest.approx(package, abs=1e-9)


def test_pairwise_cohen_equals_sklearn(diku: Diku) -> None:
    result = pairwise_cohen_kappa(diku.ratings, values=DOMAIN)
    compared = 0
    for p, (a, b) in enumerate(zip(result.annotator_a, result.annotator_b, strict=True)):
        shared = ~np.isnan(diku.matrix[a]) & ~np.isnan(diku.matrix[b])
        assert result.n_shared[p] == shared.sum()
        if shared.sum() < 2 or result.undefined_reason[p] is not None:
            continue
        for field, weights in (
            ("kappa", None),
            ("kappa_linear", "linear"),
            ("kappa_quadratic", "quadratic"),
        ):
            expected = cohen_kappa_score(
                diku.matrix[a, shared], diku.matrix[b, shared], labels=DOMAIN, weights=weights
            )
            assert float(getattr(result, field)[p]) == pytest.approx(expected, abs=1e-6)
        compared += 1
    assert compared >= 30  # most of the 45 pairs share enough documents


def test_fleiss_on_complete_subset_equals_statsmodels(diku: Diku) -> None:
    ratings = diku.ratings
    per_item = np.bincount(ratings.item, minlength=ratings.n_items)
    overall = fleiss_kappa(ratings)
    assert math.isnan(overall.value)
    assert overall.undefined_reason == (
        f"items have between {per_item.min()} and {per_item.max()} grades; "
        "Fleiss' kappa needs the same number for every item"
    )
    # the complete subsets: items graded by exactly N annotators, for every N with >= 5 items
    tested = 0
    for n_raters, n_items in sorted(Counter(per_item.tolist()).items()):
        if n_raters < 2 or n_items < 5:
            continue
        keep = per_item[ratings.item] == n_raters
        subset = ratings.select(keep)
        wide = diku.matrix[:, per_item == n_raters].T  # items x annotators, NaN = missing
        grades = np.array([row[~np.isnan(row)] for row in wide])  # items x N
        table, _ = aggregate_raters(grades.astype(int))
        ours = fleiss_kappa(subset)
        assert ours.n_raters == n_raters
        assert ours.n_items == n_items
        assert ours.value == pytest.approx(sm_fleiss_kappa(table), abs=1e-6)
        tested += 1
    assert tested >= 2


def test_spread_equals_numpy_per_item(diku: Diku) -> None:
    spread = item_spread(diku.ratings)
    for u in range(diku.ratings.n_items):
        grades = diku.matrix[:, u][~np.isnan(diku.matrix[:, u])]
        assert spread.n_grades[u] == grades.size
        assert spread.mean[u] == pytest.approx(grades.mean())
        assert spread.median[u] == np.median(grades)
        assert spread.std[u] == pytest.approx(grades.std(ddof=0))
        assert spread.range[u] == np.ptp(grades)
        assert spread.disputed[u] == (np.ptp(grades) >= 2)


def test_summary_is_consistent_with_the_parts(diku: Diku) -> None:
    summary = agreement_summary(
        diku.ratings,
        "ordinal",
        diku.item_query,
        len(diku.queries),
        values=DOMAIN,
        n_resamples=200,
        seed=3,
    )
    assert summary.alpha.value == pytest.approx(alpha(diku.ratings, "ordinal").value)
    assert summary.alpha_ci.low < summary.alpha.value < summary.alpha_ci.high
    assert summary.alpha_ci.n_resamples == 200
    np.testing.assert_allclose(
        summary.per_query.value,
        alpha_by_group(diku.ratings, diku.item_query, 10, "ordinal").value,
        atol=1e-12,
    )
    assert len(summary.leave_one_out) == 10
    assert len(summary.pairwise) == 45
    assert summary.spread.n_grades.sum() == 499
    assert math.isnan(summary.fleiss.value)
    assert (summary.n_items, summary.n_annotators, summary.n_ratings) == (
        diku.ratings.n_items,
        10,
        499,
    )
    np.testing.assert_array_equal(summary.values, DOMAIN)
