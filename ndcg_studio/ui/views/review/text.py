"""Review's sentences in the interface language: the note under the per-run table (queries
without judgments, not returned, IDCG = 0) and why nothing is scored yet."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject

from ndcg_studio.services.annotation.types import DatabaseCounts
from ndcg_studio.services.scoring.report import RunSummary
from ndcg_studio.ui.language import arg, number, plural


class ReviewText(QObject):
    """Review's ``%n`` plurals (lupdate collects a numerus only from ``self.tr``); the count
    is ``%1`` to keep the language's digit grouping."""

    def judgments_no_run(self, n: int) -> str:
        text = self.tr(
            "Nothing to score yet: %1 judgment(s), but no run.\n"
            "Import a run (File ▸ Import… ▸ A run) to score it.",
            "",
            n,
        )
        return arg(plural(text, n), number(n))

    def runs_no_judgments(self, n: int) -> str:
        text = self.tr(
            "Nothing to score yet: %1 run(s), but no judgments.\n"
            "Judge documents in Annotate, or import judgments (File ▸ Import…).",
            "",
            n,
        )
        return arg(plural(text, n), number(n))


def coverage_note(summaries: list[RunSummary]) -> str:
    """The note under the per-run table: per run, the queries without judgments, not returned
    or with IDCG = 0 (or that every query has judgments and a result in every run)."""
    parts = []
    for s in summaries:
        extra = []
        if s.n_without_judgments:
            extra.append(
                arg(
                    QCoreApplication.translate("ReviewView", "%1 without judgments (no nDCG)"),
                    s.n_without_judgments,
                )
            )
        if s.n_missing_from_run:
            extra.append(
                arg(
                    QCoreApplication.translate("ReviewView", "%1 not returned (scored 0)"),
                    s.n_missing_from_run,
                )
            )
        if s.n_idcg_zero:
            extra.append(
                arg(QCoreApplication.translate("ReviewView", "%1 with IDCG = 0"), s.n_idcg_zero)
            )
        if extra:
            parts.append(
                arg(
                    QCoreApplication.translate("ReviewView", "%1: %2"),
                    s.run,
                    QCoreApplication.translate("ReviewView", ", ").join(extra),
                )
            )
    if not parts:
        return QCoreApplication.translate(
            "ReviewView", "Every query has judgments and a result in every run."
        )
    return arg(
        QCoreApplication.translate("ReviewView", "%1."),
        QCoreApplication.translate("ReviewView", "; ").join(parts),
    )


def nothing_to_score_text(counts: DatabaseCounts | None) -> str:
    """Why nothing is scored, naming only what is missing (a database with 11,386
    judgments and no run was told to import "a run and judgments")."""
    runs = counts is None or counts.runs > 0
    judgments = counts is None or counts.judgments > 0
    if counts is not None and not runs and judgments:
        return ReviewText().judgments_no_run(counts.judgments)
    if counts is not None and runs and not judgments:
        return ReviewText().runs_no_judgments(counts.runs)
    if counts is not None and runs and judgments:
        return QCoreApplication.translate(
            "ReviewView",
            "Nothing to score yet: no query has both results in a run and judgments.\n"
            "Judge the runs' documents in Annotate, or import judgments for their queries.",
        )
    if counts is not None and not runs and not judgments:
        return QCoreApplication.translate(
            "ReviewView",
            "Nothing to score yet: no run and no judgments.\nImport a run and judgments "
            "(File ▸ Import…), or judge a few documents in Annotate.",
        )
    return QCoreApplication.translate(
        "ReviewView",
        "Nothing to score yet.\nImport a run and judgments (File ▸ Import…), "
        "or judge a few documents in Annotate.",
    )
