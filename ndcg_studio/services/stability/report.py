"""What the stability service reports: grade-set kinds, sources, the spread of nDCG over the
annotators and sources, the source-vs-source label agreement, and the run orders under every grade
set (:mod:`ndcg_studio.services.stability.service` computes them; the CLI and the Stability view
show
them). Pure data, no database.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.stability import StabilityResult
from ndcg_studio.services.scoring.report import ScoreReport
from ndcg_studio.services.scoring.settings import ScoringSettings
from ndcg_studio.vocabulary import GRADES

__all__ = [
    "BY_ANNOTATOR_COLUMNS",
    "BY_CHOICES",
    "CONSENSUS_RULES",
    "DEFAULT_MIN_COVERAGE",
    "DEFAULT_SOURCE",
    "STABILITY_COLUMNS",
    "By",
    "Source",
    "SourceAgreement",
    "SourceKind",
    "SpreadReport",
    "StabilityReport",
]

By = Literal["annotator", "source", "consensus"]
BY_CHOICES: tuple[By, ...] = ("annotator", "source", "consensus")
SourceKind = Literal["human", "vendor", "model"]
CONSENSUS_RULES = ("mean", "median", "majority", "max", "min")
#: The grade set of the annotators that belong to no source.
DEFAULT_SOURCE = "humans"
DEFAULT_MIN_COVERAGE = 0.5

#: First columns of ``ndcg-studio stability --format csv``.
STABILITY_COLUMNS = (
    "set_a",
    "set_b",
    "kendall_tau",
    "tau_ap",
    "n_runs",
    "flipped_pairs",
    "significance_flips",
)
#: Columns of ``ndcg-studio score --by-annotator`` (long format).
BY_ANNOTATOR_COLUMNS = ("query_id", "run", "annotator", "source", "kind", "k", "ndcg")


@dataclass(frozen=True)
class Source:
    """A judgment source and its annotators (names ascending)."""

    name: str
    kind: SourceKind
    annotators: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class SpreadReport:
    """nDCG@K of every (run, query) group under each annotator and each source.

    Attributes:
        report: the consensus report (the groups, their order and the settings).
        sets: the grade sets, annotators first (names ascending), then sources (``source:NAME``).
        kinds: per set ``annotator`` or ``source``.
        values: float64[n_sets, n_groups]; NaN where the set graded nothing of the group's
            query pool (annotators) or of the query (sources).
        low, high: float64[n_groups] min and max over the sets (NaN: no set has a value).
    """

    report: ScoreReport
    sets: list[str]
    kinds: list[str]
    values: NDArray[np.float64]
    low: NDArray[np.float64]
    high: NDArray[np.float64]

    @property
    def spread(self) -> NDArray[np.float64]:
        """float64[n_groups] ``high - low`` (0 with one set, NaN with none)."""
        return self.high - self.low

    def annotator_values(self) -> dict[str, NDArray[np.float64]]:
        """``{annotator: float64[n_groups]}`` (the annotator sets only)."""
        return {
            s: self.values[i]
            for i, (s, k) in enumerate(zip(self.sets, self.kinds, strict=True))
            if k == "annotator"
        }

    def by_group(self, group: int) -> dict[str, float]:
        """``{set: nDCG}`` of one group, the sets with a value only."""
        return {
            s: float(self.values[i, group])
            for i, s in enumerate(self.sets)
            if not np.isnan(self.values[i, group])
        }


@dataclass(frozen=True, eq=False)
class SourceAgreement:
    """Label agreement of two sources on the items both graded.

    Attributes:
        source_a, source_b: names.
        n_shared: items graded by both.
        kappa_linear: Cohen's kappa with linear weights (NaN when undefined).
        alpha: Krippendorff's alpha, ordinal, over the two sources (NaN when undefined).
        confusion: int64[5, 5], rows = a's grade 0..4, columns = b's (grades rounded to the
            nearest integer, halves up, when a source's consensus is fractional).
        n_two_apart: items whose grades differ by two or more (the correction queue).
        kappa, kappa_quadratic: Cohen's kappa unweighted and with quadratic weights.
        precision, recall: ``(5,) float64`` per grade 0..4 of b's grades against a's
            (:func:`ndcg_studio.domain.judges.trust.precision_recall` of ``confusion``; NaN
            where b never gave, or a never had, the grade): a machine source beside the humans.
    """

    source_a: str
    source_b: str
    n_shared: int
    kappa_linear: float
    alpha: float
    confusion: NDArray[np.int64]
    n_two_apart: int
    kappa: float = float("nan")
    kappa_quadratic: float = float("nan")
    precision: NDArray[np.float64] = field(default_factory=lambda: np.full(5, np.nan))
    recall: NDArray[np.float64] = field(default_factory=lambda: np.full(5, np.nan))


@dataclass(frozen=True, eq=False)
class StabilityReport:
    """The run orders under every grade set of one kind and what they say.

    Attributes:
        by: the kind of grade sets.
        settings: the scoring settings (K, gains, consensus rule of the sources).
        result: orders, tau, flips and verdicts (:class:`ndcg_studio.domain.stability.
            StabilityResult`).
        coverage: per annotator (``by="annotator"``) the smallest share of a run's top K they
            graded; empty otherwise.
        excluded: the annotators below ``min_coverage``.
        min_coverage: the threshold used.
        agreement: label agreement of every two sources (``by="source"``), else empty.
        mixed: one sentence per machine source whose labels come from more than one model
            version or template (``by="source"``; see
            :func:`ndcg_studio.services.judges.trust.mixed_notes`).
    """

    by: By
    settings: ScoringSettings
    result: StabilityResult
    coverage: dict[str, float]
    excluded: list[str]
    min_coverage: float
    agreement: list[SourceAgreement]
    mixed: tuple[str, ...] = ()

    def describe(self) -> str:
        """The settings line of the CSV's settings file."""
        return (
            f"by={self.by} min_coverage={self.min_coverage:g} alpha={self.result.alpha:g} "
            f"n_resamples={self.result.n_resamples} {self.settings.describe()}"
        )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        """One row per pair of grade sets, :data:`STABILITY_COLUMNS`."""
        r = self.result
        for p in r.pairs:
            sig = []
            for v in r.verdicts:
                if v.significant[p.set_a] != v.significant[p.set_b]:
                    sig.append(r.order_label(p.set_a, v.run_a, v.run_b))
            yield (
                r.sets[p.set_a].name,
                r.sets[p.set_b].name,
                _cell(p.kendall_tau),
                _cell(p.tau_ap),
                p.n_runs,
                r.flipped_label(p),
                "|".join(sig),
            )

    def notes(self) -> list[str]:
        """Notes for the settings file: who was left out, and the sentence for two runs."""
        out = [
            "kendall_tau is tau-b (ties as scipy.stats.kendalltau); tau_ap is the mean of "
            "tau_AP in both directions (Yilmaz, Aslam & Robertson 2008); flipped_pairs lists "
            "run pairs ordered oppositely (in set_a's order); significance_flips the run pairs "
            f"whose paired randomization test at alpha {self.result.alpha:g} says different "
            "things under the two sets"
        ]
        if self.excluded:
            cov = ", ".join(f"{a} {self.coverage[a]:.0%}" for a in self.excluded)
            out.append(
                f"annotators below {self.min_coverage:.0%} coverage of every run's top "
                f"{self.settings.k} left out: {cov}"
            )
        for x in self.agreement:
            rows = "; ".join(
                f"{g}: " + " ".join(str(int(c)) for c in x.confusion[g]) for g in GRADES
            )
            out.append(
                f"{x.source_a} vs {x.source_b}: {x.n_shared} items, kappa_linear "
                f"{x.kappa_linear:.4f}, alpha_ordinal {x.alpha:.4f}, {x.n_two_apart} two grades "
                f"or more apart; confusion ({x.source_a}'s grade: {x.source_b}'s 0 1 2 3 4) {rows}"
            )
            pr = " ".join(
                f"{g}: {p:.2f}/{r:.2f}"
                for g, p, r in zip(GRADES, x.precision, x.recall, strict=True)
            )
            out.append(
                f"{x.source_a} vs {x.source_b}: kappa {x.kappa:.4f}, kappa_quadratic "
                f"{x.kappa_quadratic:.4f}; {x.source_b}'s precision/recall per grade "
                f"against {x.source_a} {pr}"
            )
        out.extend(self.mixed)
        if len(self.result.runs) == 2 and len(self.result.sets):
            out.append(self.result.sentence(*self.result.runs))
        return out


def _cell(value: float) -> float | None:
    return None if np.isnan(value) else float(value)
