"""How far each machine source can be trusted: its labels' provenance, and its agreement with
the humans on the items both graded.

Against the humans' grades: Cohen's kappa (unweighted, linear, quadratic), Krippendorff's alpha
(ordinal), the confusion matrix and each grade's precision and recall — the same computation
Stability shows for every two sources (:func:`ndcg_studio.services.stability.sets.
source_agreement`), here with the humans as one side. The humans are every annotator in no
source or in a source of kind ``human``, reduced per item by the mean; each machine source's
annotators likewise. Against the humans' *decision* (the run order, Kendall's tau and tau_AP,
the run pairs that flip): ``ndcg-studio stability --by source`` and the Stability view, where
the machine source stands beside the humans.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.services.stability.report import SourceAgreement
from ndcg_studio.services.stability.sets import source_agreement
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges.labels import Provenance, provenance
from ndcg_studio.storage.queries.judgments import all_grades
from ndcg_studio.storage.queries.names import annotator_names

__all__ = ["HUMANS", "machine_trust", "mixed_notes", "provenance_of", "trust_lines"]

#: The name of the human side.
HUMANS = "humans"


def provenance_of(db: Database, source: str | None = None) -> list[Provenance]:
    """The provenance of every annotator with machine labels (only ``source``'s when given)."""
    with db.engine.connect() as conn:
        rows = provenance(conn)
    return [p for p in rows if source is None or p.source == source]


def mixed_notes(db: Database) -> list[str]:
    """One sentence per source whose current labels come from more than one model or template
    (empty when none does)."""
    out = []
    for p in provenance_of(db):
        if p.mixed:
            models = ", ".join(f"{m} ({n})" for m, n in sorted(p.models.items()))
            templates = ", ".join(f"{t} ({n})" for t, n in sorted(p.templates.items()))
            out.append(
                f"MIXED: source {p.source or p.annotator!r} has labels from models {models}; "
                f"templates {templates}"
            )
    return out


def _side(grades: NDArray[Any], mask: NDArray[np.bool_]) -> Any:
    g = grades[mask]
    return consensus_qrels(g["query"], g["doc"], g["annotator"], g["grade"], method="mean")


def machine_trust(db: Database) -> list[SourceAgreement]:
    """Each source of kind ``model`` (and ``vendor``) against the humans, by source name: a
    :class:`~ndcg_studio.services.stability.report.SourceAgreement` whose ``source_a`` is
    :data:`HUMANS` (rows of ``confusion``) and ``source_b`` the source (columns)."""
    with db.engine.connect() as conn:
        grades = all_grades(conn)
        names = annotator_names(conn)
        of = source_store.source_of(conn)
    source = np.array(
        [of.get(names[int(a)], ("", "human")) for a in grades["annotator"].tolist()],
        dtype=object,
    ).reshape(-1, 2)
    kinds = source[:, 1] if len(source) else np.array([], dtype=object)
    human = kinds == "human"
    machines = sorted({str(s) for s, k in source.tolist() if k != "human"})
    if not human.any():
        return []
    humans = _side(grades, human)
    out = []
    for name in machines:
        side = _side(grades, source[:, 0] == name)
        out.extend(source_agreement([HUMANS, name], [humans, side]))
    return out


def _fmt(value: float) -> str:
    return "—" if np.isnan(value) else f"{value:.3f}"


def trust_lines(db: Database) -> Iterator[str]:
    """The lines ``ndcg-studio judges`` prints: provenance, then trust (see the module)."""
    prov = provenance_of(db)
    if not prov:
        yield "no machine labels yet (ndcg-studio judge makes them)"
    for p in prov:
        flag = "  MIXED" if p.mixed else ""
        models = ", ".join(f"{m} ({n})" for m, n in sorted(p.models.items())) or "—"
        templates = ", ".join(f"{t} ({n})" for t, n in sorted(p.templates.items())) or "—"
        yield (
            f"{p.source or '(no source)'} / {p.annotator}: {p.graded} graded, {p.unparsed} "
            f"unparsed, {p.failed} failed; models {models}; templates {templates}; tokens "
            f"{p.prompt_tokens} + {p.completion_tokens}{flag}"
        )
    for x in machine_trust(db):
        yield (
            f"{x.source_b} vs {x.source_a}: {x.n_shared} items, kappa {_fmt(x.kappa)}, "
            f"linear {_fmt(x.kappa_linear)}, quadratic {_fmt(x.kappa_quadratic)}, "
            f"alpha (ordinal) {_fmt(x.alpha)}"
        )
        yield "  confusion (rows humans 0-4, columns the source 0-4):"
        for g in range(5):
            counts = " ".join(f"{int(c):6d}" for c in x.confusion[g])
            yield (
                f"    {g}: {counts}   precision {_fmt(float(x.precision[g]))} "
                f"recall {_fmt(float(x.recall[g]))}"
            )
