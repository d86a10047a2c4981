"""Creating a campaign: checking its :class:`CampaignSpec` and choosing its items (the pool of
its runs over its queries, then the gold items). Used by
:meth:`ndcg_studio.services.campaigns.service.CampaignService.create`.

The ``ppi`` order (active human sampling; Zrnic & Candès 2024, "Active Statistical Inference",
ICML, arXiv:2403.03208) draws the queries the humans judge: each query i of the campaign gets
the weight w_i = |nDCG@K(A) − nDCG@K(B)| under the machine source's grades, the inclusion
probability π_i = :func:`~ndcg_studio.domain.estimation.active.inclusion_probabilities` (w,
n = ``sample``, a uniform share of 0.2: π_i ≥ 0.2 · n / N, so no weight 1 / π_i is huge) and is
drawn with ξ_i ~ Bernoulli(π_i) from the campaign's seed
(:func:`~ndcg_studio.domain.estimation.active.draw_queries`). Zrnic & Candès take π_i
proportional to the expected size of the machine's error on i, which nothing here measures;
|ΔnDCG| under the machine is its stand-in: the error of a query's difference is 0 where A and
B rank alike and can be large only where they differ in what the machine grades relevant. The
weights only make the interval narrower or wider: with the stored π the estimate is unbiased
whatever they are. The campaign's items are the pool of the drawn queries only; every query's π
and ξ are stored (``campaign_queries``).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ndcg_studio.domain.estimation.active import draw_queries, inclusion_probabilities
from ndcg_studio.domain.estimation.ppi import MIN_HUMAN_QUERIES
from ndcg_studio.services.campaigns.types import POOL_STRATEGIES, CampaignSpec
from ndcg_studio.storage.campaigns import records as cs

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = ["PPI_MIN_EXPECTED", "campaign_items", "ppi_sample_size", "validate"]

#: The ``ppi`` order's share of the expected sample spread uniformly over the queries.
PPI_UNIFORM_SHARE = 0.2


def _shuffle_key(seed: int, query: str, document: str) -> int:
    """A seeded 31-bit order key of an item (BLAKE2b; blind to runs and ranks)."""
    digest = hashlib.blake2b(f"{seed}\x1f{query}\x1f{document}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") >> 1


def validate(spec: CampaignSpec) -> tuple[str, list[str]]:
    """The stripped name and sorted annotators of ``spec``; see :meth:`CampaignService.create`."""
    name = spec.name.strip()
    if not name:
        raise ValueError("a campaign needs a name")
    if not spec.runs:
        raise ValueError("a campaign needs at least one run to pool")
    for label, value in (("overlap", spec.overlap), ("depth", spec.depth)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"the {label} is an integer ≥ 1, not {value!r}")
    if not 0.0 <= spec.gold_rate <= 1.0:
        raise ValueError(f"the gold rate is between 0 and 1, not {spec.gold_rate!r}")
    if spec.sample is not None and (spec.sample < 1 or spec.queries is not None):
        raise ValueError("--sample takes a number ≥ 1 and cannot go with --queries")
    if not spec.annotators:
        raise ValueError("a campaign needs at least one annotator")
    people = sorted({a.strip() for a in spec.annotators})
    if not all(people):
        raise ValueError("an annotator needs a name")
    _validate_strategy(spec)
    return name, people


def _validate_strategy(spec: CampaignSpec) -> None:
    if spec.strategy not in POOL_STRATEGIES:
        raise ValueError(
            f"the strategy is one of {', '.join(POOL_STRATEGIES)}, not {spec.strategy!r}"
        )
    if spec.strategy == "ppi":
        if spec.machine is None or spec.pair is None or spec.k is None:
            raise ValueError("the ppi strategy needs --machine SOURCE, --pair A B and --k K")
    elif spec.machine is not None:
        raise ValueError("a machine source belongs to the ppi strategy")
    if spec.strategy not in ("ab", "ppi"):
        if spec.pair is not None or spec.k is not None:
            raise ValueError("--pair and --k belong to the ab and ppi strategies")
        return
    if spec.pair is None or spec.k is None:
        raise ValueError(f"the {spec.strategy} strategy needs --pair A B and --k K")
    a, b = spec.pair
    if a == b or a not in spec.runs or b not in spec.runs:
        raise ValueError("--pair names two different runs among --runs")
    if isinstance(spec.k, bool) or not isinstance(spec.k, int) or spec.k < 1:
        raise ValueError(f"--k is an integer ≥ 1, not {spec.k!r}")


def _chosen(spec: CampaignSpec, available: set[str]) -> set[str]:
    """The queries of the campaign among ``available`` (those with pooled results)."""
    if spec.queries is not None:
        unknown = [x for x in spec.queries if x not in available]
        if unknown:
            raise ValueError(f"query {unknown[0]!r} has no results in these runs")
        return set(spec.queries)
    if spec.sample is not None:
        if spec.sample > len(available):
            raise ValueError(f"--sample {spec.sample}: the runs have only {len(available)} queries")
        return set(random.Random(spec.seed).sample(sorted(available), spec.sample))
    return available


#: The ``ppi`` order's smallest default expected sample. The number of queries drawn varies
#: around its expectation, and a draw under
#: :data:`~ndcg_studio.domain.estimation.ppi.MIN_HUMAN_QUERIES` gives no interval: with this many
#: expected, few draws fall short (``benchmarks/bench_ppi.py``, the ppi order's coverage table).
PPI_MIN_EXPECTED = MIN_HUMAN_QUERIES + 4


def ppi_sample_size(n_queries: int) -> int:
    """The ``ppi`` order's default expected sample: a quarter of the queries, at least
    :data:`PPI_MIN_EXPECTED`, at most all of them."""
    return min(n_queries, max(PPI_MIN_EXPECTED, math.ceil(n_queries / 4)))


def _drawn(
    spec: CampaignSpec, available: Mapping[str, int], weight: Mapping[str, float]
) -> list[tuple[int, float, bool]]:
    """The ``ppi`` draw (module docstring) over the campaign's queries (the listed ones, else
    every pooled one), by external id: (query id, π, drawn)."""
    if spec.queries is not None:
        unknown = [x for x in spec.queries if x not in available]
        if unknown:
            raise ValueError(f"query {unknown[0]!r} has no results in these runs")
        names = sorted(set(spec.queries))
    else:
        names = sorted(available)
    n = spec.sample if spec.sample is not None else ppi_sample_size(len(names))
    if n > len(names):
        raise ValueError(f"--sample {n}: the runs have only {len(names)} queries")
    w = [abs(weight.get(name, 0.0)) for name in names]
    pi = inclusion_probabilities(w, n_expected=n, uniform_share=PPI_UNIFORM_SHARE)
    xi = draw_queries(pi, spec.seed)
    if not xi.any():
        raise ValueError("the draw picked no query: give another --seed or a larger --sample")
    return [
        (available[name], float(p), bool(x))
        for name, p, x in zip(names, pi.tolist(), xi.tolist(), strict=True)
    ]


def campaign_items(
    session: Session,
    spec: CampaignSpec,
    run_ids: dict[str, int],
    weight: Mapping[str, float] | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[int, float, bool]]]:
    """The campaign's item rows (its pool over the chosen queries, then the gold items) and,
    under ``ppi``, the draw of queries as (query id, π, drawn) (``weight``: each query's
    machine |ΔnDCG@K| by external id; see the module docstring); else no draw."""
    pool = cs.pool_rows(session, run_ids.values(), spec.depth)
    draw: list[tuple[int, float, bool]] = []
    if spec.strategy == "ppi":
        draw = _drawn(spec, {qe: qi for qe, _de, qi, _di in pool}, weight or {})
        drawn = {qi for qi, _p, x in draw if x}
        chosen = {qe for qe, _de, qi, _di in pool if qi in drawn}
    else:
        chosen = _chosen(spec, {qe for qe, _de, _qi, _di in pool})
    items: dict[tuple[int, int], dict[str, Any]] = {}
    only = spec.only_items
    for qe, de, qi, di in pool:
        if qe in chosen and (only is None or (qi, di) in only):
            key = _shuffle_key(spec.seed, qe, de)
            items[(qi, di)] = {
                "query_id": qi,
                "document_id": di,
                "gold_grade": None,
                "gold": False,
                "shuffle": key,
            }
    if not items and only is not None:
        raise ValueError("no item of the pool is among the items selected (--where)")
    if not items:
        raise ValueError("the pool is empty: no results of these runs at this depth")
    for gold in spec.gold:
        gq, gd = cs.item_ids(session, gold.query, gold.document)
        if gq is None:
            raise ValueError(f"gold item: no query {gold.query!r}")
        if gd is None:
            raise ValueError(f"gold item: no document {gold.document!r}")
        if not 0 <= gold.grade <= 4:
            raise ValueError(f"gold item: grade {gold.grade} is outside 0–4")
        items[(gq, gd)] = {
            "query_id": gq,
            "document_id": gd,
            "gold_grade": gold.grade,
            "gold": True,
            "shuffle": _shuffle_key(spec.seed, gold.query, gold.document),
        }
    return list(items.values()), draw
