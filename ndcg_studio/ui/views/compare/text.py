"""Compare's sentences in the interface language: the verdict over the Annotate pool, the mean
delta with wins / losses / ties, and the paired randomization test.

The verdict's numbers come from :func:`ndcg_studio.services.verdict.pair_verdict`; the English
sentence equals :func:`ndcg_studio.services.verdict.verdict_text` (the CLI's), built here so
that a translation gets the whole sentence.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel

from ndcg_studio.services.scoring.report import RunSummary
from ndcg_studio.services.screens.compare import CompareRows
from ndcg_studio.services.verdict import PairVerdict
from ndcg_studio.ui.bands import best_text_color
from ndcg_studio.ui.language import arg, number, plural
from ndcg_studio.ui.models.table import signed


class CompareText(QObject):
    """The verdict sentence (a class: lupdate collects the ``%n`` plural only from
    ``self.tr``)."""

    def verdict(self, v: PairVerdict) -> str:
        """:func:`ndcg_studio.services.verdict.verdict_text` in the interface language (the same
        English text), built here from the verdict's numbers."""
        interval = arg(
            self.tr("Δ mean nDCG@%1 (A − B) ∈ [%2, %3] whatever grades the unjudged documents get"),
            v.k,
            f"{v.low:+.4f}",
            f"{v.high:+.4f}",
        )
        p = arg(self.tr("P(A better) ≈ %1 (estimate)"), f"{v.p_a_better:.0%}")
        judged, pooled = number(v.judged), number(v.pooled)
        if v.decided:
            loser = v.run_b if v.better == v.run_a else v.run_a
            text = self.tr(
                "%1 better than %2 — decided after %3 of %4 pooled documents (depth %5). %6. %7."
            )
            return arg(text, v.better, loser, judged, pooled, v.depth, interval, p)
        if v.to_settle is None:
            more = self.tr(
                "even every pooled document judged at its expected grade would not settle it "
                "(estimate)"
            )
        else:
            n = v.to_settle
            more = self.tr(
                "about %1 more judgment(s) would settle it at the current rate (estimate)", "", n
            )
            more = arg(plural(more, n), number(n))
        text = self.tr("Not yet decided (%1 of %2 pooled documents judged, depth %3): %4. %5. %6.")
        return arg(text, judged, pooled, v.depth, more, interval, p)


def verdict_sentence(v: PairVerdict) -> str:
    """:func:`ndcg_studio.services.verdict.verdict_text` in the interface language."""
    return CompareText().verdict(v)


def verdict_html(rows: CompareRows) -> str:
    """Mean delta and wins / losses / ties over the paired queries."""
    c = rows.comparison
    if c is None or c.n == 0:
        return QCoreApplication.translate("CompareView", "No query has an nDCG in both runs.")
    text = QCoreApplication.translate(
        "CompareView",
        "Over the %1 queries scored in both runs: mean Δ (A − B) = "
        "<b>%2</b> &nbsp;·&nbsp; A better on <b>%3</b> "
        "&nbsp;·&nbsp; B better on <b>%4</b> &nbsp;·&nbsp; ties %5",
    )
    return arg(
        text,
        number(c.n),
        signed(c.mean_delta, 4),
        number(c.wins),
        number(c.losses),
        number(c.ties),
    )


def significance_text(rows: CompareRows) -> str:
    """The paired randomization test's p-value and what it means at 0.05."""
    c = rows.comparison
    if c is None or c.n == 0:
        return ""
    if math.isnan(c.p_value):  # the deltas are shown, the test follows (in a worker)
        return QCoreApplication.translate(
            "CompareView", "Paired randomization test: computing (10,000 sign flips)…"
        )
    p = c.p_value
    p_text = "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"
    if p < 0.05:
        text = QCoreApplication.translate(
            "CompareView",
            "Paired randomization test (two-sided, random sign flips of the per-query "
            "deltas): %1 — the difference is significant at the 0.05 level.",
        )
    else:
        text = QCoreApplication.translate(
            "CompareView",
            "Paired randomization test (two-sided, random sign flips of the per-query "
            "deltas): %1 — the difference is not significant at the 0.05 level.",
        )
    return arg(text, p_text)


def summary_texts(
    k: int, summary: RunSummary | None, scored: NDArray[np.float64]
) -> tuple[str, str, str]:
    """A run's mean nDCG@K, 95% interval and judged queries (rich text) from its ``summary``;
    before the summary arrives, the mean of its ``scored`` (n,) nDCG values (no NaN) and
    "computing" for the interval (the bootstrap follows the first rows)."""

    if summary is None and scored.size:
        mean = f"{float(scored.mean()):.4f}"
        return (
            arg(QCoreApplication.translate("CompareView", "mean nDCG@%1 <b>%2</b>"), k, mean),
            QCoreApplication.translate("CompareView", "95% CI computing…"),
            arg(
                QCoreApplication.translate("CompareView", "%1 judged queries"), number(scored.size)
            ),
        )
    if summary is None or math.isnan(summary.ndcg.mean):
        return QCoreApplication.translate("CompareView", "no judged queries"), "", ""
    m = summary.ndcg
    return (
        arg(
            QCoreApplication.translate("CompareView", "mean nDCG@%1 <b>%2</b>"), k, f"{m.mean:.4f}"
        ),
        arg(
            QCoreApplication.translate("CompareView", "95% CI %1 – %2"),
            f"{m.low:.4f}",
            f"{m.high:.4f}",
        ),
        arg(QCoreApplication.translate("CompareView", "%1 judged queries"), number(m.n)),
    )


def chip_label(text: str, color: str) -> QLabel:
    """The coloured "A" / "B" chip beside a run's name."""
    label = QLabel(text)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setMinimumWidth(22)
    label.setStyleSheet(
        f"QLabel {{ background: {color}; color: {best_text_color(QColor(color)).name()}; "
        "border-radius: 4px; "
        "padding: 1px 6px; font-weight: bold; }"
    )
    return label
