"""What is said about a run pair's estimate, in words (the CLI's notes; Compare and Review).

"A better than B — 95 % interval [0.012, 0.034] from 14 human-judged queries and machine grades
on 43; human grades alone would need about 20 more queries for the same width (machine source
gpt4o, κ 0.41 with the humans)", or "A vs B: not yet decided — …".
"""

from __future__ import annotations

import math

from ndcg_studio.domain.estimation.ppi import MeanEstimate

__all__ = ["pair_sentence", "verdict_words"]


def verdict_words(a: str, b: str, verdict: int) -> str:
    """``A better than B``, ``B better than A`` or ``not yet decided`` (verdict 1, -1, 0)."""
    if verdict > 0:
        return f"{a} better than {b}"
    if verdict < 0:
        return f"{b} better than {a}"
    return "not yet decided"


def pair_sentence(
    a: str, b: str, verdict: int, e: MeanEstimate, source: str, kappa_linear: float
) -> str:
    """One sentence about the pair A − B (module docstring); without enough human-judged
    queries it says so instead of an interval."""
    kappa = "κ unknown" if math.isnan(kappa_linear) else f"κ {kappa_linear:.2f}"
    machine = f"(machine source {source}, {kappa} with the humans)"
    if not e.enough:
        return f"{a} vs {b}: not yet decided — {e.note} {machine}"
    head = verdict_words(a, b, verdict) if verdict else f"{a} vs {b}: not yet decided"
    level = f"{100 * e.confidence:g} %"
    extra = e.extra_human_queries
    more = (  # no clause when the machine grades save no query
        f"; human grades alone would need about {round(extra)} more queries for the same width"
        if math.isfinite(extra) and round(extra) >= 1
        else ""
    )
    return (
        f"{head} — {level} interval [{e.low:.3f}, {e.high:.3f}] from {e.n_human} human-judged "
        f"queries and machine grades on {e.n_queries}{more} {machine}"
    )
