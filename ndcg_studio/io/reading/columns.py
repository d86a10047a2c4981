"""Fast conversions and checks of whole columns for the readers: decimal integers and floats
parsed in bulk (failures located and named one by one), and rows whose key repeats an earlier
row's. Private to :mod:`ndcg_studio.io`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from ndcg_studio.io.reading.text import Issues


#: Values converted per numpy call in :func:`_in_slices` (a short hold of the GIL each).
_SLICE = 1 << 16


def _in_slices(
    values: Sequence[Any], dtype: type[np.generic], each: Callable[[Any], Any] | None = None
) -> NDArray[Any]:
    """``np.array(values, dtype)`` (or of ``each(v)`` for every value), converted a slice of
    65,536 values at a time.

    One numpy call over a million strings holds the GIL for long enough to freeze the app's
    window; in slices, other threads (the window, an import's helper) get it back between
    slices (``benchmarks/bench_io_parse.py``). Same result, same errors (ValueError,
    OverflowError, TypeError) as the one call.
    """
    parts = [
        np.array(chunk, dtype=dtype)
        if each is None
        else np.fromiter(map(each, chunk), dtype=dtype, count=len(chunk))
        for chunk in (values[i : i + _SLICE] for i in range(0, len(values), _SLICE))
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def parse_int_column(
    values: Sequence[str],
    line: NDArray[np.int64],
    field: str,
    issues: Issues,
    *,
    plain: bool | None = None,
) -> NDArray[np.int64] | None:
    """Convert decimal integer strings to int64 in bulk (``numpy``), locating failures slowly.

    Accepts an optional sign and ASCII digits (``int()`` also takes ``_`` separators and other
    scripts' digits, ``1_000`` and ``١٢``; trec_eval's ``atol`` does not: refused). For each bad
    value an issue ``'x' is not a number`` or ``'1.5' is not an integer`` is recorded.

    ``plain``: whether the caller knows already that no value holds a non-ASCII character or
    ``_`` (None: checked here, see :func:`plain_ascii`).

    Returns:
        int64 array of shape ``(len(values),)``, or None when any value was bad.
    """
    if plain_ascii(values) if plain is None else plain:
        try:
            return in_int64(values)
        except (ValueError, OverflowError, TypeError):
            pass
    for i, text in enumerate(values):
        if not ASCII_INTEGER.fullmatch(text):
            number_like = ASCII_NUMBER.fullmatch(text)
            issues.add(
                int(line[i]),
                field,
                f"{text!r} is not an integer" if number_like else _not_a_number(text),
            )
            continue
        try:
            number = int(text)
        except ValueError:
            try:
                float(text)
            except ValueError:
                issues.add(int(line[i]), field, f"{text!r} is not a number")
            else:
                issues.add(int(line[i]), field, f"{text!r} is not an integer")
            continue
        if not -(2**63) <= number < 2**63:
            issues.add(int(line[i]), field, f"{text!r} is too large")
    return None


def parse_float_column(
    values: Sequence[str],
    line: NDArray[np.int64],
    field: str,
    issues: Issues,
    *,
    plain: bool | None = None,
) -> NDArray[np.float64] | None:
    """Convert decimal strings to float64 in bulk; NaN and ±infinity are rejected.

    Values are parsed as IEEE-754 binary64 (as trec_eval 10.0; trec_eval 9.0.8 and pytrec_eval
    read 32-bit floats, see METRICS.md). Only ASCII is read as a number: ``float()`` also takes
    ``1_000`` and ``١٢``, which trec_eval's ``atof`` reads as 1 and 0 — refused.

    ``plain``: as for :func:`parse_int_column`.

    Returns:
        float64 array of shape ``(len(values),)``, or None when any value was bad.
    """
    try:
        if not (plain_ascii(values) if plain is None else plain):
            raise ValueError("not plain ASCII")
        result = _in_slices(values, np.float64)
    except (ValueError, TypeError):
        for i, text in enumerate(values):
            try:
                if not text.isascii() or "_" in text:
                    raise ValueError(text)
                number = float(text)
            except ValueError:
                issues.add(int(line[i]), field, _not_a_number(text))
                continue
            if not math.isfinite(number):
                issues.add(int(line[i]), field, f"{text!r} is not a finite number")
        return None
    bad = np.flatnonzero(~np.isfinite(result))
    for i in bad.tolist():
        issues.add(int(line[i]), field, f"{values[i]!r} is not a finite number")
    return None if bad.size else result


#: An optionally signed ASCII decimal integer (what trec_eval's ``atol`` reads whole).
ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
#: An ASCII decimal number, integral or not (for the message "is not an integer").
ASCII_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def plain_ascii(values: Sequence[str]) -> bool:
    """True when no value holds a non-ASCII character or ``_`` (one C-level scan)."""
    joined = "".join(values)
    return joined.isascii() and "_" not in joined


def in_int64(values: Sequence[str]) -> NDArray[np.int64]:
    """``np.array(values, np.int64)`` a slice at a time (see :func:`_in_slices`)."""
    return _in_slices(values, np.int64)


def _not_a_number(text: str) -> str:
    if "_" in text or not text.isascii():
        return f"{text!r} is not a number (only ASCII digits, without '_' separators)"
    return f"{text!r} is not a number"


def duplicate_pairs(
    keys: Sequence[NDArray[np.int64]],
    exact: Callable[[int], Hashable] | None = None,
) -> list[tuple[int, int]]:
    """Rows whose key repeats an earlier row's, as ``(row, first_row)`` pairs sorted by row.

    Args:
        keys: equal-length int64 arrays forming a composite key (e.g. query codes and ranks).
        exact: when the int keys are only hashes of the true key, ``exact(row)`` gives the
            true key; rows whose int keys collide are then compared exactly, so a hash
            collision never produces a false duplicate.

    Stable ``np.lexsort`` puts equal keys together in row order, so the first row of each
    group is its first occurrence. O(n log n); the exact pass only visits colliding rows.
    """
    n = len(keys[0])
    if n < 2:
        return []
    order = np.lexsort(tuple(reversed(keys)))
    same = np.ones(n - 1, dtype=bool)
    for key in keys:
        ordered = key[order]
        same &= ordered[1:] == ordered[:-1]
    if not same.any():
        return []
    if exact is not None:
        candidate = np.zeros(n, dtype=bool)
        candidate[order[1:][same]] = True
        candidate[order[:-1][same]] = True
        first_seen: dict[Hashable, int] = {}
        pairs: list[tuple[int, int]] = []
        for row in np.flatnonzero(candidate).tolist():
            first = first_seen.setdefault(exact(row), row)
            if first != row:
                pairs.append((row, first))
        return pairs
    new_group = np.concatenate(([True], ~same))
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(n), 0))
    dup_positions = np.flatnonzero(~new_group)
    rows = order[dup_positions]
    firsts = order[group_start[dup_positions]]
    return sorted(zip(rows.tolist(), firsts.tolist(), strict=True))


def string_hashes(values: Sequence[str]) -> NDArray[np.int64]:
    """``hash`` of each string as int64 (cheap when the hashes are cached already)."""
    return _in_slices(values, np.int64, hash)


def duplicate_string_pairs(columns: Sequence[Sequence[str]]) -> list[tuple[int, int]]:
    """Like :func:`duplicate_pairs` for a composite key of string columns.

    Fast path: ``hash`` each row's key tuple into int64 and sort; only when two hashes are
    equal are the colliding rows compared exactly.
    """
    n = len(columns[0])
    if n < 2:
        return []
    if len(columns) == 1:
        hashes = _in_slices(columns[0], np.int64, hash)
    else:  # the rows' key tuples, hashed a slice at a time (see _in_slices)
        hashes = np.concatenate(
            [
                np.fromiter(
                    map(hash, zip(*(c[i : i + _SLICE] for c in columns), strict=True)),
                    dtype=np.int64,
                    count=min(_SLICE, n - i),
                )
                for i in range(0, n, _SLICE)
            ]
        )
    return hashed_duplicate_pairs(hashes, lambda row: tuple(column[row] for column in columns))


def hashed_duplicate_pairs(
    hashes: NDArray[np.int64], exact: Callable[[int], Hashable]
) -> list[tuple[int, int]]:
    """Duplicates among rows whose true key is ``exact(row)`` and ``hashes`` a 64-bit hash of
    it: one ``np.sort`` proves there are none (the usual case); otherwise only rows with
    colliding hashes are compared exactly (:func:`duplicate_pairs`)."""
    if len(hashes) < 2:
        return []
    ordered = np.sort(hashes)
    if not (ordered[1:] == ordered[:-1]).any():
        return []
    return duplicate_pairs([hashes], exact=exact)


#: Odd 64-bit constant (2^64 / golden ratio, as a signed int64) used to mix ints into hashes.
_MIX = np.int64(-7046029254386353131)


def mix_hash(hashes: NDArray[np.int64], values: NDArray[np.int64]) -> NDArray[np.int64]:
    """A 64-bit hash of (key, value) from the key's hash and an int64 value (wrapping
    multiply-xor, Fibonacci hashing); collisions are resolved by the exact comparison."""
    return hashes ^ (values * _MIX)
