"""The values the campaign service takes and returns (see
:mod:`ndcg_studio.services.campaigns.service`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

DEFAULT_GOLD_RATE: Final = 0.05
DEFAULT_GOLD_THRESHOLD: Final = 0.7
#: How long an offered item stays held for its annotator (seconds).
DEFAULT_HOLD_SECONDS: Final = 30 * 60
MarkState = Literal["cant_judge", "later"]
PoolStrategy = Literal["depth", "mtf", "bandit", "ab", "ppi"]
#: The orders a campaign's queue may offer its pool in (``campaign create --strategy``): the
#: pooling strategies of :mod:`ndcg_studio.domain.pooling.strategies`, then ``ppi`` (active human
#: sampling: a seeded draw of queries, offered query by query; see :mod:`.setup`).
POOL_STRATEGIES: Final[tuple[PoolStrategy, ...]] = ("depth", "mtf", "bandit", "ab", "ppi")


@dataclass(frozen=True, slots=True)
class GoldItem:
    """A gold item: query and document external ids and the known grade (0–4)."""

    query: str
    document: str
    grade: int


@dataclass(frozen=True, slots=True)
class CampaignSpec:
    """What :meth:`CampaignService.create` needs (see the CLI ``campaign create``).

    ``strategy`` orders the queue (:data:`POOL_STRATEGIES`); ``pair`` (runs A and B, both among
    ``runs``) and ``k`` (cutoff ≥ 1) belong to ``ab`` and ``ppi`` and are required by them;
    ``machine`` (a model source) belongs to ``ppi`` and is required by it. Under ``ppi``,
    ``sample`` is the expected number of queries drawn (default: a quarter of the queries, at
    least 12 or all of them).
    """

    name: str
    runs: Sequence[str]
    depth: int
    overlap: int
    annotators: Sequence[str]
    queries: Sequence[str] | None = None
    sample: int | None = None
    seed: int = 0
    gold: Sequence[GoldItem] = ()
    gold_rate: float = DEFAULT_GOLD_RATE
    gold_threshold: float = DEFAULT_GOLD_THRESHOLD
    guidelines: str = ""
    strategy: PoolStrategy = "depth"
    pair: tuple[str, str] | None = None
    k: int | None = None
    machine: str | None = None
    #: only these (query id, document id) of the pool (None: all of it), e.g. where a machine
    #: judge and the humans disagree (:mod:`ndcg_studio.services.judges.corrections`)
    only_items: frozenset[tuple[int, int]] | None = None


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """A stored campaign (``items`` counts pooled items, ``gold`` the gold items; ``pair`` and
    ``k`` are the ``ab`` strategy's, else None)."""

    id: int
    name: str
    status: str
    guidelines: str
    pool_depth: int
    overlap: int
    gold_rate: float
    gold_threshold: float
    seed: int | None
    runs: tuple[str, ...]
    annotators: tuple[str, ...]
    items: int
    gold: int
    complete: int
    strategy: str = "depth"
    pair: tuple[str, str] | None = None
    k: int | None = None


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One item offered to an annotator: blind (no run, rank, gold flag or other grade)."""

    query_id: int
    document_id: int
    query: str
    document: str


@dataclass(frozen=True, slots=True)
class OwnProgress:
    """An annotator's progress in a campaign: items graded, can't judge, put off, and the
    campaign's complete/total items."""

    done: int
    cant_judge: int
    later: int
    complete: int
    total: int


@dataclass(frozen=True, slots=True)
class AnnotatorStatus:
    """One row of the lead's dashboard (see :meth:`CampaignService.status` for definitions)."""

    annotator: str
    assigned: int
    done: int
    cant_judge: int
    later: int
    median_seconds: float
    leniency: float
    kappa_vs_others: float
    alpha_without: float
    gold_exact: float
    gold_within_one: float
    gold_n: int
    grades: tuple[int, ...]
    gold_warning: bool


@dataclass(frozen=True, slots=True)
class QueryStatus:
    """Progress of one query of a campaign: non-gold items with N grades / all of them."""

    query: str
    complete: int
    total: int


@dataclass(frozen=True, slots=True)
class MarkedItem:
    """A "can't judge" or "later" mark, listed for the lead."""

    annotator: str
    query: str
    document: str
    state: str
    reason: str | None


@dataclass(frozen=True, slots=True)
class DrawProgress:
    """How far the humans are through the queries a ``ppi`` campaign drew.

    Attributes:
        queries: the campaign's queries (N, every query its draw covered).
        drawn: the queries drawn (n; their pools are the campaign's items).
        expected: the sample size asked for (the sum of the inclusion probabilities).
        complete: the drawn queries judged completely: every item of the pool graded to the
            campaign's overlap, with at least one human grade (what ``estimate --campaign`` asks).
        unfinished: the other drawn queries' external ids in the queue's order (largest π
            first, then query id): the first is the one the queue offers now.
    """

    queries: int
    drawn: int
    expected: float
    complete: int
    unfinished: tuple[str, ...]

    @property
    def ready(self) -> bool:
        """Every drawn query complete: ``estimate --campaign`` gives the active estimate."""
        return not self.unfinished


@dataclass(frozen=True, slots=True)
class CampaignStatus:
    """The lead's dashboard of one campaign."""

    campaign: CampaignInfo
    annotators: list[AnnotatorStatus]
    queries: list[QueryStatus]
    marks: list[MarkedItem] = field(default_factory=list)
    draw: DrawProgress | None = None  # the ppi order's drawn queries; None for other orders


@dataclass(frozen=True, slots=True)
class GradeRow:
    """One grade or mark of a campaign item, for exports."""

    campaign: str
    query: str
    document: str
    annotator: str
    state: str
    grade: int | None
    explanation: str | None
    seconds: float | None
    reason: str | None
    gold: bool
