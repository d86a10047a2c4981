"""What to score and how: :class:`ScoringSettings` (defaults follow trec_eval ``ndcg_cut.10``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ndcg_studio.domain.bands import BandThresholds
from ndcg_studio.domain.metrics.measures import ScoringParams
from ndcg_studio.vocabulary import ConsensusMethod

__all__ = ["ScoringSettings"]


@dataclass(frozen=True)
class ScoringSettings:
    """What to score and how. Defaults follow trec_eval ``ndcg_cut.10``.

    Attributes:
        k: cutoff K >= 1.
        gain: ``linear`` (gain = grade) or ``exponential`` (2**grade - 1).
        custom_gains: gain per grade (overrides ``gain``), like trec_eval ``ndcg.0=0,1=1,2=3``.
        ideal: ``judged`` (IDCG from all judged documents of the query) or ``list`` (from the
            returned list only).
        order: ``score`` (trec_eval) or ``rank`` (the file's rank column).
        consensus: how several annotators' grades become one (an adjudicated grade wins).
        annotator: score against this annotator's grades only (no consensus, no adjudication).
        runs: run names to score (None: all runs).
        relevance_threshold: grade >= threshold is relevant for P@K and RR.
        bands: quality band thresholds.
    """

    k: int = 10
    gain: Literal["linear", "exponential"] = "linear"
    custom_gains: Mapping[int, float] | None = None
    ideal: Literal["judged", "list"] = "judged"
    order: Literal["score", "rank"] = "score"
    consensus: ConsensusMethod = "mean"
    annotator: str | None = None
    runs: tuple[str, ...] | None = None
    relevance_threshold: float = 1.0
    bands: BandThresholds = field(default_factory=BandThresholds)

    def params(self) -> ScoringParams:
        """The domain parameters (positions already encode the run order, hence ``rank``)."""
        gain: Any = dict(self.custom_gains) if self.custom_gains else self.gain
        return ScoringParams(
            k=self.k,
            gain=gain,
            ideal=self.ideal,
            order="rank",
            relevance_threshold=self.relevance_threshold,
        )

    def describe(self) -> str:
        """One line naming every setting, for report headers: enough to reproduce a report."""
        gain = (
            "custom " + ",".join(f"{g}:{v:g}" for g, v in sorted(self.custom_gains.items()))
            if self.custom_gains
            else self.gain
        )
        who = f"annotator={self.annotator}" if self.annotator else f"consensus={self.consensus}"
        runs = ",".join(self.runs) if self.runs else "all"
        b = self.bands
        return (
            f"k={self.k} gain={gain} ideal={self.ideal} order={self.order} {who} runs={runs} "
            f"relevance_threshold={self.relevance_threshold:g} bands={b.excellent:g}/{b.good:g}/"
            f"{b.fair:g}/{b.poor:g}"
        )
