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

When a campaign in the ``ppi`` order drew the humans' queries (:mod:`ndcg_studio.services.
campaigns.setup`) — for Compare, the latest one made for the compared pair, either way round;
for Review, the latest one — its draw is the human sample instead, as ``ndcg-studio estimate
--campaign`` (inverse-probability weighting; Zrnic & Candès 2024, "Active Statistical
Inference", ICML): the queries such a campaign finished are those of the largest π first, no
uniform sample. Until every drawn query is judged completely no estimate is made, and the
draw's progress is given instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ndcg_studio.services.campaigns.types import DrawProgress
from ndcg_studio.services.estimation.service import (
    DrawNotComplete,
    EstimateReport,
    EstimateRequest,
    NoHumanQueries,
    estimate,
)
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database

__all__ = ["ScreenEstimate", "machine_sources", "ppi_campaign", "screen_estimate"]


@dataclass(frozen=True)
class ScreenEstimate:
    """An estimate as a view shows it.

    Attributes:
        sources: the machine sources (kind ``model``, with annotators), by name; empty: none.
        source: the one estimated from ('' when nothing is shown).
        shown: a machine source and human grades exist (else the view shows nothing).
        report: the estimate; None when not ``shown``, when no query is judged completely by
            the humans, or while ``campaign``'s draw is not (then nothing is decided yet).
        campaign: the ``ppi`` campaign whose draw is the human sample ('' : the queries the
            humans judged completely, taken as a uniform sample).
        draw: that campaign's progress through its drawn queries (None without one).
    """

    sources: tuple[str, ...]
    source: str
    shown: bool
    report: EstimateReport | None
    campaign: str = ""
    draw: DrawProgress | None = None


def machine_sources(db: Database) -> tuple[str, ...]:
    """The machine sources (kind ``model``, with annotators), by name: those an estimate, or a
    ``ppi`` campaign's draw, may rest on."""
    with db.engine.connect() as conn:
        return _machines(source_store.sources(conn))


def _machines(rows: list[tuple[str, str, tuple[str, ...]]]) -> tuple[str, ...]:
    return tuple(name for name, kind, members in rows if kind == "model" and members)


def ppi_campaign(db: Database, pair: tuple[str, str] | None) -> tuple[str, DrawProgress] | None:
    """The latest campaign (by creation) in the ``ppi`` order made for ``pair`` (either way
    round; None: any pair) with a stored draw, and its draw's progress
    (:func:`~ndcg_studio.services.campaigns.status.draw_progress`); None when there is none."""
    # the campaign modules (and the ORM) only here, in the worker: Compare imports this module
    # to build the window (tests/ui/test_startup.py)
    from ndcg_studio.services.campaigns.status import draw_progress
    from ndcg_studio.storage.campaigns import records as campaign_store

    with db.transaction() as session:
        rows = [r for r in campaign_store.campaign_rows(session) if r.pool_strategy == "ppi"]
        for row in sorted(rows, key=lambda r: -int(r.id)):
            if pair is not None:
                runs = campaign_store.campaign_runs(session, row.id)
                if {name for name, _id, side in runs if side is not None} != set(pair):
                    continue
            draw = campaign_store.campaign_queries(session, row.id)
            if draw:
                progress = campaign_store.item_progress_of(session, row.id)
                return str(row.name), draw_progress(draw, progress, int(row.overlap))
    return None


def screen_estimate(
    db: Database, source: str, k: int, pair: tuple[str, str] | None = None
) -> ScreenEstimate:
    """Estimate from machine source ``source`` (the first one when it is not a machine source)
    the runs of ``pair`` and their difference, or every run without a pair, at cutoff ``k``;
    on the draw of :func:`ppi_campaign` when there is one (module docstring).

    Raises:
        LookupError, InputError: as :func:`~ndcg_studio.services.estimation.service.estimate`
            (e.g. a source whose annotators graded nothing the runs returned).
    """
    with db.engine.connect() as conn:
        machines = _machines(source_store.sources(conn))
        humans = source_store.has_human_grades(conn)
    if not machines:
        return ScreenEstimate(machines, "", False, None)
    found = ppi_campaign(db, pair)
    if found is None and not humans:
        return ScreenEstimate(machines, "", False, None)
    chosen = source if source in machines else machines[0]
    request = EstimateRequest(
        machine_source=chosen,
        k=k,
        runs=pair,
        pairs=(pair,) if pair is not None else (),
    )
    if found is not None:
        name, draw = found
        if not draw.ready:
            return ScreenEstimate(machines, chosen, True, None, name, draw)
        try:
            report = estimate(db, replace(request, campaign=name))
        except DrawNotComplete:  # a grade withdrawn since the progress was read
            return ScreenEstimate(machines, chosen, True, None, name, draw)
        return ScreenEstimate(machines, chosen, True, report, name, draw)
    try:
        report = estimate(db, request)
    except NoHumanQueries:
        return ScreenEstimate(machines, chosen, True, None)
    return ScreenEstimate(machines, chosen, True, report)
