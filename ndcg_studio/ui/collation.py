"""Text in the user's language: sorting by the locale's collation, and matching for filters.

Sorting by code point puts ``ё`` after ``я`` and Chinese in radical-stroke order
(``中 北 张 阿``). :func:`collation_ranks` ranks texts with :class:`QCollator` instead (ICU in
the Qt wheels; the Unicode Collation Algorithm with the locale's CLDR tailoring: ``ё`` sorts
with ``е``, ``zh_CN`` in pinyin order ``阿 北 张 中``; numeric mode, so ``q2`` < ``q10``), once
per distinct text: a table model caches the ranks per column and then sorts integers with numpy.

:func:`fold` is the form filters compare: ``str.casefold`` (``Ё`` → ``ё``, ``ß`` → ``ss``) with
``ё`` → ``е``, as Russian text is written both ways (``елка`` finds ``Ёлка``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QCollator, QLocale

__all__ = ["collation_ranks", "collator", "fold"]


def fold(text: str) -> str:
    """``text`` as filters compare it: case-folded, ``ё`` as ``е``."""
    return text.casefold().replace("ё", "е")


def collator(locale: QLocale | None = None) -> QCollator:
    """A :class:`QCollator` for ``locale`` (default: ``QLocale()``, the application's locale),
    in numeric mode (digit runs compare as numbers). The C/POSIX locale (a server, a bare
    ``LANG``), where Qt compares code points, gets English, i.e. CLDR's root collation (English
    has no tailoring): ``a`` < ``B``, ``е`` < ``ё`` < ``ж``."""
    chosen = locale if locale is not None else QLocale()
    if chosen.language() == QLocale.Language.C:
        chosen = QLocale("en_US")
    result = QCollator(chosen)
    result.setNumericMode(True)
    return result


def collation_ranks(
    texts: Sequence[str] | NDArray[Any], locale: QLocale | None = None
) -> NDArray[np.int64]:
    """(n,) int64 rank of each text in the collation order of ``locale``.

    Equal texts get equal ranks; distinct texts distinct ranks (texts the collator finds equal,
    e.g. differing only in an ignorable character, keep their case-folded code point order).
    Each distinct text is compared by the collator; the texts are first put in case-folded code
    point order, which for alphabetic scripts is close to the collation order, so the exact
    sort that follows (Python's, which finds runs) needs about one comparison per text.

    Args:
        texts: strings (a list or a numpy ``str``/object array; other values are ``str()``'d).
        locale: the collation's locale; None: ``QLocale()``.

    Returns:
        (n,) int64 ranks in ``0 .. n_distinct - 1``.
    """
    values = texts.tolist() if isinstance(texts, np.ndarray) else list(texts)
    values = [v if type(v) is str else str(v) for v in values]
    distinct = sorted(dict.fromkeys(values), key=fold)
    distinct.sort(key=functools.cmp_to_key(collator(locale).compare))
    rank = {text: i for i, text in enumerate(distinct)}
    return np.fromiter(map(rank.__getitem__, values), dtype=np.int64, count=len(values))
