"""The mapping of an engine's JSON answer to a ranked list: JMESPath expressions (the
``jmespath`` library) for the list of hits and, relative to one hit, its document id, score and
optional title and text.

A hit's id may be a string or an integer (written as text); its score a number (or a numeric
string). The engine's order is the ranking: ranks are 1, 2, … in the order of the hits list.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import jmespath
from jmespath.exceptions import JMESPathError

__all__ = ["FIELDS", "Hit", "Mapping", "MappingError", "compile_expression"]

#: The keys of a ``[response]`` table, in order: required ones first.
FIELDS = ("hits", "id", "score", "title", "text")
REQUIRED = ("hits", "id", "score")


class MappingError(ValueError):
    """An answer the mapping cannot read: ``field`` names the ``[response]`` key."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Hit:
    """One result of a query, as the engine ranked it."""

    doc_id: str
    score: float
    title: str | None = None
    text: str | None = None


def compile_expression(text: str) -> Any:
    """The compiled JMESPath expression.

    Raises:
        ValueError: not a JMESPath expression (the message says why).
    """
    try:
        return jmespath.compile(text)  # type: ignore[no-untyped-call]
    except JMESPathError as exc:
        first = str(exc).splitlines()[0].rstrip(", ")
        raise ValueError(f"{text!r} is not a JMESPath expression: {first}") from None


@dataclass(frozen=True)
class Mapping:
    """The ``[response]`` table: the source text of each expression and its compiled form."""

    sources: dict[str, str]
    compiled: dict[str, Any]

    @classmethod
    def of(cls, sources: dict[str, str]) -> Mapping:
        """Compile ``sources`` (``ValueError`` names no field: the caller knows which)."""
        return cls(dict(sources), {k: compile_expression(v) for k, v in sources.items()})

    def hits(self, answer: Any) -> list[Hit]:
        """The ranked hits of one decoded JSON answer.

        Raises:
            MappingError: ``hits`` gives no list, or a hit without an id or a numeric score.
        """
        found = self.compiled["hits"].search(answer)
        if not isinstance(found, list):
            kind = "null" if found is None else type(found).__name__
            raise MappingError("hits", f"{self.sources['hits']!r} gives {kind}, not a list of hits")
        return [self._hit(n, item) for n, item in enumerate(found, start=1)]

    def _hit(self, rank: int, item: Any) -> Hit:
        doc_id = self.compiled["id"].search(item)
        if isinstance(doc_id, bool) or not isinstance(doc_id, str | int) or doc_id == "":
            raise MappingError("id", f"{self.sources['id']!r} gives {doc_id!r} for hit {rank}")
        doc = str(doc_id)
        if any(c.isspace() for c in doc):
            raise MappingError("id", f"document id {doc!r} of hit {rank} holds white space")
        raw = self.compiled["score"].search(item)
        try:
            score = float(raw) if not isinstance(raw, bool) else math.nan
        except (TypeError, ValueError):
            score = math.nan
        if not math.isfinite(score):
            raise MappingError(
                "score", f"{self.sources['score']!r} gives {raw!r} for hit {rank}, not a number"
            )
        return Hit(doc, score, self._text(item, "title"), self._text(item, "text"))

    def _text(self, item: Any, field: str) -> str | None:
        expression = self.compiled.get(field)
        if expression is None:
            return None
        value = expression.search(item)
        if isinstance(value, list):  # Solr's multi-valued fields: ["the title"]
            value = " ".join(str(v) for v in value if v is not None)
        return None if value is None or value == "" else str(value)
