"""What Compare and Review show of the prediction-powered estimates (no Qt; a worker thread):
which machine sources there are, and the estimate from one of them of the picked pair
(Compare) or of every run (Review).

The human sample is every query whose machine-graded items all have human grades
(:func:`ndcg_studio.services.estimation.service.complete_queries`), taken as a uniform sample
of the queries — the interval is valid only if the humans chose those queries regardless of
the runs and of the grades (the CLI's ``--human-queries FILE`` names the sample instead). The
humans are every annotator in no source or in a source of kind ``human`` (their grades of an
item reduced by the mean); the measure is nDCG@K with the estimate's own scoring (linear gain,
the ideal from every judged document), whatever the view's scoring settings.
"""

from __future__ import annotations

from dataclasses import dataclass

from ndcg_studio.services.estimation.service import (
    EstimateReport,
    EstimateRequest,
    NoHumanQueries,
    estimate,
)
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database

__all__ = ["ScreenEstimate", "machine_sources", "screen_estimate"]


@dataclass(frozen=True)
class ScreenEstimate:
    """An estimate as a view shows it.

    Attributes:
        sources: the machine sources (kind ``model``, with annotators), by name; empty: none.
        source: the one estimated from ('' when nothing is shown).
        shown: a machine source and human grades exist (else the view shows nothing).
        report: the estimate; None when not ``shown`` or when no query is judged completely by
            the humans (then nothing is decided yet).
    """

    sources: tuple[str, ...]
    source: str
    shown: bool
    report: EstimateReport | None


def machine_sources(db: Database) -> tuple[str, ...]:
    """The machine sources (kind ``model``, with annotators), by name: those an estimate, or a
    ``ppi`` campaign's draw, may rest on."""
    with db.engine.connect() as conn:
        return _machines(source_store.sources(conn))


def _machines(rows: list[tuple[str, str, tuple[str, ...]]]) -> tuple[str, ...]:
    return tuple(name for name, kind, members in rows if kind == "model" and members)


def screen_estimate(
    db: Database, source: str, k: int, pair: tuple[str, str] | None = None
) -> ScreenEstimate:
    """Estimate from machine source ``source`` (the first one when it is not a machine source)
    the runs of ``pair`` and their difference, or every run without a pair, at cutoff ``k``.

    Raises:
        LookupError, InputError: as :func:`~ndcg_studio.services.estimation.service.estimate`
            (e.g. a source whose annotators graded nothing the runs returned).
    """
    with db.engine.connect() as conn:
        machines = _machines(source_store.sources(conn))
        humans = source_store.has_human_grades(conn)
    if not machines or not humans:
        return ScreenEstimate(machines, "", False, None)
    chosen = source if source in machines else machines[0]
    request = EstimateRequest(
        machine_source=chosen,
        k=k,
        runs=pair,
        pairs=(pair,) if pair is not None else (),
    )
    try:
        report = estimate(db, request)
    except NoHumanQueries:
        return ScreenEstimate(machines, chosen, True, None)
    return ScreenEstimate(machines, chosen, True, report)
