"""Agreement's sentences in the interface language: Krippendorff's α with its interval, Fleiss'
κ or why it does not apply, and why an α-without-an-annotator is undefined.

The reasons come from the domain (:mod:`ndcg_studio.domain.agreement.alpha`,
:mod:`ndcg_studio.domain.agreement.kappa`), marked there with ``QT_TRANSLATE_NOOP("Agreement",
…)`` and translated here.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from ndcg_studio.services.agreement import AgreementReport
from ndcg_studio.translatable import QT_TRANSLATE_NOOP
from ndcg_studio.ui.language import arg, counted, label, number

if TYPE_CHECKING:
    from ndcg_studio.storage.judges.labels import Provenance

#: the α level's name inside the headline sentence
_LEVEL_NAMES = {
    "ordinal": QT_TRANSLATE_NOOP("AgreementView", "ordinal"),
    "interval": QT_TRANSLATE_NOOP("AgreementView", "interval"),
    "ratio": QT_TRANSLATE_NOOP("AgreementView", "ratio"),
    "nominal": QT_TRANSLATE_NOOP("AgreementView", "nominal"),
}


def _reason(text: str | None) -> str:
    return label("Agreement", text or "")


def loo_note_text(report: AgreementReport) -> str:
    """'' when every α-without is defined; else the reason(s) it is not."""
    loo = report.summary.leave_one_out
    names = list(report.annotators)
    undefined = [
        (
            names[i] if i < len(names) else str(i),
            reason or QCoreApplication.translate("AgreementView", "undefined"),
        )
        for i, (value, reason) in enumerate(
            zip(loo.value.tolist(), loo.undefined_reason, strict=False)
        )
        if math.isnan(value)
    ]
    if not undefined:
        return ""
    reasons = sorted({_reason(reason) for _, reason in undefined})
    if len(undefined) == len(names):
        text = QCoreApplication.translate("AgreementView", "α undefined for every annotator: %1.")
        return arg(text, QCoreApplication.translate("AgreementView", "; ").join(reasons))
    text = QCoreApplication.translate("AgreementView", "α undefined without %1: %2.")
    return arg(
        text,
        QCoreApplication.translate("AgreementView", ", ").join(name for name, _ in undefined),
        QCoreApplication.translate("AgreementView", "; ").join(reasons),
    )


def alpha_html(report: AgreementReport) -> str:
    """The headline: alpha, its interval, and what it is computed on."""
    s = report.summary
    a, ci = s.alpha, s.alpha_ci
    level = QCoreApplication.translate(
        "AgreementView", _LEVEL_NAMES.get(report.settings.level, report.settings.level)
    )
    if math.isnan(a.value):
        text = QCoreApplication.translate(
            "AgreementView", "<b>Krippendorff's α (%1)</b>: undefined — %2. %3, %4."
        )
        return arg(
            text,
            level,
            _reason(a.undefined_reason),
            counted(s.n_annotators, "annotators"),
            counted(s.n_ratings, "judgments"),
        )
    interval = (
        # the second stage of the view's load computes it (LOADING_STATUS of AgreementView)
        QCoreApplication.translate("AgreementView", "Computing agreement…")
        if not report.complete
        else arg(
            QCoreApplication.translate(
                "AgreementView", "95% interval %1 – %2 (%3 bootstrap resamples of the documents)"
            ),
            f"{ci.low:.3f}",
            f"{ci.high:.3f}",
            number(ci.n_resamples),
        )
        if not math.isnan(ci.low)
        else arg(
            QCoreApplication.translate("AgreementView", "no interval: %1"),
            _reason(ci.undefined_reason),
        )
    )
    text = QCoreApplication.translate(
        "AgreementView",
        "<b>Krippendorff's α (%1) = %2</b> &nbsp; %3 &nbsp;·&nbsp; "
        "%4 documents graded by two or more of %5 annotators, %6",
    )
    return arg(
        text,
        level,
        f"{a.value:.3f}",
        interval,
        number(a.n_items),
        s.n_annotators,
        counted(s.n_ratings, "judgments"),
    )


def fleiss_text(report: AgreementReport) -> str:
    f = report.summary.fleiss
    if math.isnan(f.value):
        if f.n_items and f.min_grades != f.max_grades:
            reason = arg(
                QCoreApplication.translate(
                    "AgreementView",
                    "items have between %1 and %2 grades; Fleiss' kappa needs the same "
                    "number for every item",
                ),
                f.min_grades,
                f.max_grades,
            )
        else:
            reason = _reason(f.undefined_reason)
        return arg(
            QCoreApplication.translate("AgreementView", "Fleiss' κ: not applicable — %1."), reason
        )
    text = QCoreApplication.translate(
        "AgreementView", "Fleiss' κ = %1 (%2 documents, %3 grades each; nominal, chance-corrected)"
    )
    return arg(text, f"{f.value:.3f}", number(f.n_items), f.n_raters)


def provenance_html(machine: Sequence[Provenance]) -> str:
    """One line per annotator with machine labels: its source, models (as the servers reported
    them) and templates, flagged when there is more than one of either."""
    lines = []
    for p in machine:
        models = ", ".join(f"{m} ({n:,})" for m, n in sorted(p.models.items()))
        templates = ", ".join(f"{t} ({n:,})" for t, n in sorted(p.templates.items()))
        line = arg(
            QCoreApplication.translate(
                "AgreementView", "Machine source %1: labels from %2; templates %3"
            ),
            html.escape(p.source or p.annotator),
            html.escape(models or "—"),
            html.escape(templates or "—"),
        )
        if p.mixed:
            flag = QCoreApplication.translate("AgreementView", "more than one model or template")
            line += f" <b style='color:#b00020'>{html.escape(flag)}</b>"
        lines.append(line)
    return "<br>" + "<br>".join(lines) if lines else ""
