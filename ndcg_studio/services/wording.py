"""Counted nouns in messages: "1 run", "2 runs", "1,837 judgments".

Every message that states a count goes through :func:`count`, so a later move of the strings
to Qt's ``tr()`` (whose ``%n`` forms pick singular or plural per language) touches one place per
message and finds the singular and plural side by side.
"""

from __future__ import annotations

#: the singular of the plural nouns our messages count (irregular or not)
SINGULAR = {
    "annotators": "annotator",
    "changes": "change",
    "documents": "document",
    "items": "item",
    "judgments": "judgment",
    "lines": "line",
    "queries": "query",
    "results": "result",
    "rows": "row",
    "runs": "run",
}


def count(n: int, plural: str, singular: str | None = None) -> str:
    """``n`` with thousands separators and the noun in the number it needs: ``count(1, "runs")``
    is ``"1 run"``, ``count(1837, "judgments")`` is ``"1,837 judgments"``. A plural noun may be
    followed by more words (``"queries created"`` -> ``"1 query created"``).

    Args:
        n: the count (0 and 2+ take the plural, as in English).
        plural: the plural noun, optionally followed by words that do not change.
        singular: its singular; default :data:`SINGULAR`, else the plural minus a final "s".
    """
    if n != 1:
        return f"{n:,} {plural}"
    noun, _, rest = plural.partition(" ")
    one = singular or SINGULAR.get(noun) or (noun[:-1] if noun.endswith("s") else noun)
    if singular is None and rest:
        one = f"{one} {rest}"
    return f"{n:,} {one}"
