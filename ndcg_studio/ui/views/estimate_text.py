"""The prediction-powered estimate in the interface language, as Compare and Review show it
(:mod:`ndcg_studio.services.screens.estimate`): the pair's sentence ("A better than B — 95 %
interval [0.012, 0.034] from 14 human-judged queries and machine grades on 43; human grades
alone would need about 20 more queries for the same width (machine source gpt, κ 0.41 with the
humans)"), each run's interval, and "not yet decided — why" without enough human-judged queries
(never an interval then). When a ``ppi`` campaign's draw is the human sample, a sentence naming
the campaign follows, and while its draw is unfinished "not yet decided" says how far it is.

Built here from the estimate's numbers, not from the CLI's English
:func:`ndcg_studio.services.estimation.sentence.pair_sentence`, so that a translation gets each
sentence whole.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QObject

from ndcg_studio.domain.estimation.ppi import MIN_HUMAN_QUERIES, MeanEstimate
from ndcg_studio.services.campaigns.types import DrawProgress
from ndcg_studio.services.estimation.service import EstimateReport, PairEstimate
from ndcg_studio.ui.language import arg, number

__all__ = ["EstimateText", "interval_text"]


def interval_text(e: MeanEstimate) -> str:
    """``[low, high]`` to three decimals (the numbers the sentences show)."""
    return f"[{e.low:.3f}, {e.high:.3f}]"


def _queries(text: str, n: int) -> str:
    """English "query(ies)" of an untranslated numerus message."""
    return text.replace("query(ies)", "query" if n == 1 else "queries")


class EstimateText(QObject):
    """The sentences (a class: lupdate collects a ``%n`` plural only from ``self.tr``)."""

    def tooltip(self) -> str:
        """How the estimate is made, and on which assumption it is valid."""
        text = self.tr(
            "The machine source's mean nDCG@K over every query it graded, corrected by the "
            "humans' grades on the queries they judged whole (every item the machine graded): "
            "prediction-powered inference (PPI++, Angelopoulos, Duchi & Zrnic 2023). The "
            "human-judged queries are taken as a uniform sample of the queries: the interval is "
            "valid only if they were not chosen by their runs or grades. Below %1 human-judged "
            "queries no interval is given. κ: linear-weighted Cohen's kappa of the source with "
            "the humans on the items both graded. nDCG@K here: linear gain, the ideal from "
            "every judged document, whatever the scoring settings."
        )
        active = self.tr(
            "When a campaign in the ppi order drew the queries for the humans (in Compare the "
            "latest made for the pair, in Review the latest), its draw is the sample instead: "
            "each drawn query weighted by 1/π, its inclusion probability (active inference, "
            "Zrnic & Candès 2024), and no estimate until every drawn query is judged whole."
        )
        return f"{arg(text, MIN_HUMAN_QUERIES)} {active}"

    def campaign(self, name: str) -> str:
        """The sentence naming the ``ppi`` campaign whose draw is the human sample."""
        return arg(
            self.tr(
                "Human sample: the queries campaign %1 drew in the ppi order, each weighted by 1/π."
            ),
            name,
        )

    def draw_waiting(self, name: str, draw: DrawProgress) -> str:
        """Why there is no estimate yet: the campaign's draw is not judged whole."""
        text = self.tr(
            "campaign %1 drew %2 query(ies) for the humans, %3 judged whole; the estimate waits "
            "for all of them",
            "",
            draw.drawn,
        )
        return arg(_queries(text, draw.drawn), name, number(draw.drawn), number(draw.complete))

    def machine(self, source: str, kappa: float) -> str:
        """ "machine source gpt, κ 0.41 with the humans"."""
        if math.isnan(kappa):
            return arg(self.tr("machine source %1, κ with the humans unknown"), source)
        return arg(self.tr("machine source %1, κ %2 with the humans"), source, f"{kappa:.2f}")

    def too_few(self, n: int) -> str:
        """Why there is no interval (:attr:`MeanEstimate.note` in the interface language)."""
        return arg(
            self.tr("too few human-judged queries for the normal approximation (%1 < %2)"),
            n,
            MIN_HUMAN_QUERIES,
        )

    def no_complete_query(self) -> str:
        """Why there is no estimate at all: no query judged whole by the humans."""
        return self.tr("no query has human grades on every item the machine source graded")

    def pair_without_sample(self, a: str, b: str, source: str, why: str = "") -> str:
        """The pair's sentence when no query is judged whole by the humans, or ``why`` else."""
        text = self.tr("%1 vs %2: not yet decided — %3 (machine source %4)")
        return arg(text, a, b, why or self.no_complete_query(), source)

    def pair(self, p: PairEstimate, source: str, kappa: float) -> str:
        """The pair's sentence (module docstring)."""
        e, machine = p.estimate, self.machine(source, kappa)
        if not e.enough:
            text = self.tr("%1 vs %2: not yet decided — %3 (%4)")
            return arg(text, p.a, p.b, self.too_few(e.n_human), machine)
        if p.verdict:
            better, worse = (p.a, p.b) if p.verdict > 0 else (p.b, p.a)
            head = arg(self.tr("%1 better than %2"), better, worse)
        else:
            head = arg(self.tr("%1 vs %2: not yet decided"), p.a, p.b)
        more = ""  # no clause when the machine grades save no query
        if math.isfinite(e.extra_human_queries) and round(e.extra_human_queries) >= 1:
            m = round(e.extra_human_queries)
            more = self.tr(
                "; human grades alone would need about %1 more query(ies) for the same width",
                "",
                m,
            )
            more = arg(_queries(more, m), number(m))
        text = self.tr(
            "%1 — %2 % interval %3 from %4 human-judged queries and machine grades on %5%6 (%7)",
            "",
            e.n_human,
        )
        level = f"{100 * e.confidence:g}"
        return arg(
            text,
            head,
            level,
            interval_text(e),
            number(e.n_human),
            number(e.n_queries),
            more,
            machine,
        )

    def runs(self, runs: list[tuple[str, MeanEstimate]]) -> str:
        """Each run's estimate and interval: "bm25 0.512 [0.470, 0.554] · dense …"."""
        return " · ".join(f"{run} {e.estimate:.3f} {interval_text(e)}" for run, e in runs)

    def summary(self, report: EstimateReport | None, source: str, why: str = "") -> str:
        """Review's line: every run's interval, with the source and its κ, the human-judged
        queries and all; "not yet decided — why" without enough of them (``why``: the reason
        when there is no report, else no query judged whole)."""
        if report is None:
            text = self.tr("Estimate with machine source %1: not yet decided — %2")
            return arg(text, source, why or self.no_complete_query())
        machine = self.machine(source, report.kappa_linear)
        if not report.runs or not report.runs[0][1].enough:
            text = self.tr("Estimate with a machine judge (%1): not yet decided — %2")
            return arg(text, machine, self.too_few(report.n_human))
        e = report.runs[0][1]
        text = self.tr(
            "Estimate with a machine judge (%1), %2 % intervals from %3 human-judged queries "
            "and machine grades on %4: %5",
            "",
            report.n_human,
        )
        level = f"{100 * e.confidence:g}"
        return arg(
            text,
            machine,
            level,
            number(report.n_human),
            number(report.n_queries),
            self.runs(report.runs),
        )
