"""The spreadsheet guard of exported text cells, and its exact inverse for imports.

A spreadsheet runs a cell whose text starts with ``=``, ``+``, ``-``, ``@``, tab or carriage
return as a formula (OWASP, "CSV Injection",
https://owasp.org/www-community/attacks/CSV_Injection). The writers therefore put a single
quote ``'`` before such a text: Excel, LibreOffice and Google Sheets then show it as text.

To make export → import lossless the guard must be undone on import, and undoing must never
eat a quote that was really there. The rule, for a text ``t``:

- :func:`guard` adds one ``'`` when ``t`` starts with a formula character, **or** when ``t``
  starts with ``'`` followed by a formula character or another ``'`` (the escape: a text
  that would otherwise look guarded);
- :func:`unguard` removes one leading ``'`` exactly when the rest starts with a formula
  character or with ``'``.

So ``unguard(guard(t)) == t`` for every text (a property test checks it), a real id ``'x`` or
``'`` is written and read unchanged, ``'=x`` is written ``''=x`` and read back as ``'=x``, and
no written cell starts with a formula character.
"""

from __future__ import annotations

__all__ = ["FORMULA_TRIGGERS", "guard", "unguard", "unguard_column"]

#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")

#: Second characters after a leading ``'`` that make the quote a guard (see the module doc).
_AFTER_QUOTE = frozenset((*FORMULA_TRIGGERS, "'"))


def guard(text: str) -> str:
    """``text`` as written to a CSV cell: ``'`` + text when a spreadsheet could run it or when
    it already looks guarded, else unchanged."""
    if text.startswith(FORMULA_TRIGGERS) or (text[:1] == "'" and text[1:2] in _AFTER_QUOTE):
        return "'" + text
    return text


def unguard(text: str) -> str:
    """The inverse of :func:`guard`: drop a leading ``'`` when the rest starts with a formula
    character or ``'``; any other text is returned unchanged."""
    if text[:1] == "'" and text[1:2] in _AFTER_QUOTE:
        return text[1:]
    return text


def unguard_column(values: list[str]) -> list[str]:
    """``[unguard(v) for v in values]``, with no work per value when no value holds a ``'``
    (the common case: a million-row column costs one join and one C-level scan)."""
    if "'" not in "".join(values):
        return values
    return [unguard(v) for v in values]
