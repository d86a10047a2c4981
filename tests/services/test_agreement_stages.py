"""The Agreement view's two stages (issue #20: the headline within 2 s, the rest streamed in):
``complete(headline(s))`` has every number of ``report(s)``, the one-pass report."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndcg_studio.services.agreement import AgreementService, AgreementSettings
from ndcg_studio.services.importing.service import ImportService
from ndcg_studio.services.screens.agreement import complete_agreement, load_agreement, load_headline


@pytest.fixture
def judged(db: Any, tmp_path: Path) -> Any:
    """40 queries x 1-4 documents, 3 annotators who skip some items; seed fixed."""
    rng = np.random.default_rng(7)
    path = tmp_path / "judgments.csv"
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["query_id", "doc_id", "annotator", "grade"])
        for q in range(40):
            for d in range(int(rng.integers(1, 5))):
                true = int(rng.integers(0, 5))
                for a in ("ann1", "ann2", "ann3"):
                    if rng.random() < 0.8:
                        grade = min(4, max(0, true + int(rng.integers(-1, 2))))
                        writer.writerow([f"q{q}", f"d{q}-{d}", a, grade])
    ImportService(db).import_judgments(path)
    return db


def _same(a: Any, b: Any) -> None:
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_headline_then_complete_equals_the_report(judged: Any, level: Any) -> None:
    service = AgreementService(judged)
    settings = AgreementSettings(level=level, n_resamples=200, seed=3)
    full = service.report(settings)
    head = service.headline(settings)
    assert not head.complete and head.doc_external == []
    assert (
        math.isnan(head.summary.alpha_ci.low) and np.isnan(head.summary.leave_one_out.value).all()
    )
    assert head.summary.alpha.value == full.summary.alpha.value
    assert head.summary.fleiss.value == full.summary.fleiss.value or (
        math.isnan(head.summary.fleiss.value) and math.isnan(full.summary.fleiss.value)
    )
    done = service.complete(head)
    assert done.complete and service.complete(done) is done
    s, f = done.summary, full.summary
    assert (s.alpha_ci.low, s.alpha_ci.high, s.alpha_ci.n_resamples) == (
        f.alpha_ci.low,
        f.alpha_ci.high,
        f.alpha_ci.n_resamples,
    )
    _same(s.alpha_ci.samples, f.alpha_ci.samples)
    for group in ("per_query", "leave_one_out"):
        _same(getattr(s, group).value, getattr(f, group).value)
        _same(getattr(s, group).n_items, getattr(f, group).n_items)
    _same(s.pairwise.kappa_linear, f.pairwise.kappa_linear)
    _same(s.spread.range, f.spread.range)
    assert done.doc_external == full.doc_external and len(done.doc_external) == s.n_items
    assert list(done.rows("item")) == list(full.rows("item"))
    assert list(done.rows("annotator")) == list(full.rows("annotator"))


def test_the_views_two_loads_give_the_one_pass_disputed_list(judged: Any) -> None:
    settings = AgreementSettings(n_resamples=100)
    one_pass = load_agreement(judged, settings)
    head = load_headline(judged, settings)
    assert len(head.disputed) == 0 and not head.report.complete
    two = complete_agreement(judged, head)
    assert len(two.disputed) == len(one_pass.disputed) > 0
    _same(two.disputed.query, one_pass.disputed.query)
    _same(two.disputed.document, one_pass.disputed.document)
    assert two.disputed.grades == one_pass.disputed.grades


def test_an_empty_database_has_an_undefined_headline(db: Any) -> None:
    head = AgreementService(db).headline()
    assert head.summary.n_ratings == 0 and math.isnan(head.summary.alpha.value)
    assert AgreementService(db).complete(head).complete
