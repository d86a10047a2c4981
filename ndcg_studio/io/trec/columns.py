"""TREC run and qrels files as byte columns, for evaluating files directly (``ndcg-studio eval``).

The readers of :mod:`ndcg_studio.io.trec.readers` build one Python string per field and line (what
the
database import needs); evaluating two files once needs less: each query once, the document
ids as one fixed-width ``bytes`` array, the scores and grades as numbers. These readers split
the file in blocks of lines with numpy (fields = runs of bytes other than space, tab, CR and
LF; a VT or FF, which trec_eval's ``isspace`` also splits on, sends the file to the strict
reader), so memory stays near the size of the columns.

They take this fast path only for plain files: every line has exactly the expected number of
fields, no blank or ``#`` comment line, no NUL or other control byte, valid UTF-8, numbers
that parse; grades may be any integer (trec_eval's -1 included). Any other file is read by
:func:`~ndcg_studio.io.trec.readers.read_trec_run` /
:func:`~ndcg_studio.io.trec.readers.read_trec_qrels`
(same rules and ``FILE:LINE: field: message`` errors as ``import``, its grade range), then
converted: such a file is accepted or refused exactly as ``import`` does.

Differences from :mod:`ndcg_studio.io.trec.readers` on the fast path: the rank column of a run is
not
parsed (trec_eval ignores it too), and the tag is kept for the last line only (trec_eval's
``runid``). Duplicates are not checked here: :func:`ndcg_studio.services.evaluation.evaluate`
finds them on the joined keys and asks the strict reader for the message.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.reading.text import MAX_LINE_BYTES, PathArg
from ndcg_studio.io.trec.readers import read_trec_qrels, read_trec_run

__all__ = ["QrelsColumns", "RunColumns", "read_qrels_columns", "read_run_columns"]

# Bytes per block: bounds the tokenizer's temporary arrays (~20 bytes per input byte), which
# at 1 MiB stay in the CPU's caches; 8 MiB blocks read a file markedly slower (bench_eval.py).
_BLOCK = 1 << 20
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, eq=False)
class RunColumns:
    """A run file by column (row i = i-th result line of the file).

    Attributes:
        query_ids: the distinct query ids, sorted by UTF-8 bytes (trec_eval's order).
        query: int64, shape (n,): index into ``query_ids`` of each row.
        doc: shape (n,), dtype ``S<w>``: the document id's UTF-8 bytes (numpy drops trailing
            NUL bytes; ids never contain NUL).
        score: float64, shape (n,): finite scores.
        tag: the tag (run id) of the last line.
        path: the file, as given.
    """

    query_ids: list[str]
    query: NDArray[np.int64]
    doc: NDArray[np.bytes_]
    score: NDArray[np.float64]
    tag: str
    path: str

    def __len__(self) -> int:
        return int(self.query.shape[0])


@dataclass(frozen=True, eq=False)
class QrelsColumns:
    """A qrels file by column (row i = i-th judgment line of the file).

    Attributes:
        query_ids, query, doc, path: as in :class:`RunColumns`.
        grade: int64, shape (n,): the grade as written (any integer, like trec_eval; a
            negative grade is judged but never relevant). Files that need the strict reader
            (comments, blank lines, ...) must have grades in the range ``import qrels`` takes.
    """

    query_ids: list[str]
    query: NDArray[np.int64]
    doc: NDArray[np.bytes_]
    grade: NDArray[np.int64]
    path: str

    def __len__(self) -> int:
        return int(self.query.shape[0])


class _Irregular(Exception):
    """The file needs the strict reader (it may still be valid)."""


def _blocks(path: PathArg) -> Iterator[NDArray[np.uint8]]:
    """Blocks of whole lines (each ends with LF) as uint8 arrays, BOM dropped; one block in
    memory at a time."""
    carry = b""
    first = True
    with Path(path).open("rb") as f:
        while True:
            data = f.read(_BLOCK)
            if first:
                if data.startswith(_BOM):
                    data = data[len(_BOM) :]
                first = False
            if not data:
                break
            data = carry + data
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                if len(data) > MAX_LINE_BYTES:
                    raise _Irregular  # the strict reader refuses the line, reading no further
                carry = data
                continue
            carry = data[cut:]
            yield np.frombuffer(data, dtype=np.uint8, count=cut)
    if carry:
        yield np.frombuffer(carry + b"\n", dtype=np.uint8)


def _fields(block: NDArray[np.uint8], n_fields: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(starts, ends), shape (lines, n_fields): byte offsets of each field of each line.

    Raises:
        _Irregular: a line without exactly ``n_fields`` fields, a ``#`` line, NUL or non-UTF-8.
    """
    control = np.count_nonzero(block < 32)
    newline = np.flatnonzero(block == 10)
    if control != newline.shape[0] + np.count_nonzero(block == 9) + np.count_nonzero(block == 13):
        raise _Irregular  # NUL, VT, FF or another control byte: the strict reader decides
    if block.max() >= 0x80:
        try:
            block.tobytes().decode("utf-8")
        except UnicodeDecodeError:
            raise _Irregular from None
    # word[i + 1]: block[i] is part of a field (tab, LF, CR and space separate fields);
    # word[0], before the block, is not, so a field at offset 0 starts there too
    word = np.empty(block.shape[0] + 1, dtype=bool)
    word[0] = False
    np.greater(block, 32, out=word[1:])
    edge = np.flatnonzero(word[1:] != word[:-1])  # every start and end, as offsets
    starts, ends = edge[0::2], edge[1::2]  # the block ends with LF, so every field ends
    n_lines = newline.shape[0]
    if starts.shape[0] != n_lines * n_fields:
        raise _Irregular
    starts = starts.reshape(n_lines, n_fields)
    ends = ends.reshape(n_lines, n_fields)
    # exactly n_fields fields per line: the last one before its LF, the next line's first after
    if not (np.all(ends[:, -1] <= newline) and np.all(starts[1:, 0] > newline[:-1])):
        raise _Irregular
    if (block[starts[:, 0]] == ord("#")).any():
        raise _Irregular
    return starts, ends


#: ``_LOW_BYTES[k]``: the mask of the k low bytes of a 64-bit word, k = 0..8.
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")


def _gather(
    block: NDArray[np.uint8], starts: NDArray[np.intp], ends: NDArray[np.intp]
) -> NDArray[np.bytes_]:
    """The fields ``block[starts[i]:ends[i]]`` as one fixed-width bytes array (``starts``
    ascending, as the fields of one column are).

    Fields of three bytes or more are read eight bytes at a time: every field's words as
    unaligned little-endian 64-bit integers at its start (+8, +16 ...), the bytes past its end
    masked to NUL; gathering the (n, width) bytes one by one cost up to twice as much
    (``bench_eval.py``). The last fields, whose last word would pass the end of the block, are
    gathered byte by byte."""
    n = starts.shape[0]
    length = ends - starts
    width = int(length.max()) if n else 1
    if width <= 2:
        return _gather_bytes(block, starts, length, width).view(f"S{width}").reshape(n)
    n_words = -(-width // 8)
    size = block.shape[0]
    inside = int(np.searchsorted(starts, size - 8 * n_words, side="right"))
    out = np.empty((n, n_words), dtype="<u8")
    if inside:
        # every byte offset of the block as the start of a word (strides of one byte)
        words = np.ndarray((size - 7,), dtype="<u8", buffer=block, strides=(1,))
        for i in range(n_words):
            word = words[starts[:inside] + 8 * i]
            word &= _LOW_BYTES[np.clip(length[:inside] - 8 * i, 0, 8)]
            out[:inside, i] = word
    if inside < n:
        out[inside:] = _gather_bytes(block, starts[inside:], length[inside:], 8 * n_words).view(
            "<u8"
        )
    fields = out.view(f"S{8 * n_words}").reshape(n)
    return fields if width == 8 * n_words else fields.astype(f"S{width}")


def _gather_bytes(
    block: NDArray[np.uint8], starts: NDArray[np.intp], length: NDArray[np.intp], width: int
) -> NDArray[np.uint8]:
    """(n, width) uint8: the bytes of each field, NUL after its end, gathered one by one."""
    column = np.arange(width)
    out = block.take(starts[:, None] + column, mode="clip")
    out *= column < length[:, None]
    return out


def _concat(parts: list[NDArray[np.bytes_]]) -> NDArray[np.bytes_]:
    width = max((p.dtype.itemsize for p in parts), default=1)
    return np.concatenate([p.astype(f"S{width}") for p in parts]) if parts else np.zeros(0, "S1")


def _query_runs(
    parts: list[NDArray[np.bytes_]],
) -> tuple[list[str], NDArray[np.int64]]:
    """Distinct query ids (byte order) and each row's index, from the runs of equal ids."""
    heads: list[NDArray[np.bytes_]] = []
    lengths: list[NDArray[np.int64]] = []
    for q in parts:
        change = np.flatnonzero(q[1:] != q[:-1]) + 1
        bounds = np.concatenate(([0], change, [q.shape[0]]))
        heads.append(q[bounds[:-1]])
        lengths.append(np.diff(bounds))
    distinct, inverse = np.unique(_concat(heads), return_inverse=True)
    query = np.repeat(inverse.reshape(-1).astype(np.int64), np.concatenate(lengths))
    return [bytes(b).decode("utf-8") for b in distinct], query


def _read_fast(
    path: PathArg, n_fields: int, keep: tuple[int, int, int]
) -> tuple[list[str], NDArray[np.int64], NDArray[np.bytes_], list[NDArray[np.bytes_]], bytes]:
    q_parts: list[NDArray[np.bytes_]] = []
    d_parts: list[NDArray[np.bytes_]] = []
    v_parts: list[NDArray[np.bytes_]] = []
    last = b""
    for block in _blocks(path):
        starts, ends = _fields(block, n_fields)
        if starts.shape[0] == 0:
            continue
        qi, di, vi = keep
        q_parts.append(_gather(block, starts[:, qi], ends[:, qi]))
        d_parts.append(_gather(block, starts[:, di], ends[:, di]))
        v_parts.append(_gather(block, starts[:, vi], ends[:, vi]))
        last = block[starts[-1, -1] : ends[-1, -1]].tobytes()
    if not q_parts:
        raise _Irregular  # empty: the strict reader says so
    query_ids, query = _query_runs(q_parts)
    return query_ids, query, _concat(d_parts), v_parts, last


def _numbers(parts: list[NDArray[np.bytes_]], dtype: type[np.generic]) -> NDArray[np.generic]:
    """Parse number fields; raise :class:`_Irregular` for what numpy takes and C does not
    (``1_000``, Python's digit separators) and for what does not parse at all.

    A block of one-digit grades (the usual qrels) is read by :func:`_digit_grades`: numpy's
    conversion of bytes to integers is the slow part of reading a qrels file; a block of
    plain decimal scores by :func:`_plain_decimals`, for the same reason with doubles. Guarded by
    ``bench_eval.py``; the numbers are in ``benchmarks/README.md``."""
    out = []
    for part in parts:
        value = _digit_grades(part) if dtype is np.int64 else _plain_decimals(part)
        if value is None:
            if (part.view(np.uint8) == ord("_")).any():
                raise _Irregular
            try:
                value = part.astype(dtype)
            except ValueError:
                raise _Irregular from None
        out.append(value)
    return np.concatenate(out)


#: Up to 15 digits, a plain decimal's digits read as an integer are exactly a double.
_MAX_DIGITS = 15
#: 10^0 .. 10^15, each exactly a double.
_POWERS_OF_TEN = np.array([float(10**k) for k in range(_MAX_DIGITS + 1)])


def _plain_decimals(part: NDArray[np.bytes_]) -> NDArray[np.float64] | None:
    """(n,) float64 values of fields that are all plain decimals (an optional sign, up to 15
    digits, at most one ``.``, no exponent: ``-12.5``, ``.5``, ``7.``); None when any is not.

    The digits read as an integer m with f of them after the point are exactly m / 10^f, and
    m and 10^f are both exact doubles: their one IEEE quotient is the correctly rounded value,
    the double ``strtod`` and ``float()`` give (Clinger 1990, "How to read floating point
    numbers accurately", the fast path). numpy's conversion of bytes to doubles costs most of
    reading a run file (``bench_eval.py``)."""
    n, width = part.shape[0], part.dtype.itemsize
    if n == 0:
        return None
    # one row per byte column of the fields: each pass below reads contiguous memory (the
    # columns of the (n, width) bytes are strided; transposed once, the passes cost a third)
    byte = np.ascontiguousarray(part.view(np.uint8).reshape(n, width).T)
    digit = (byte >= ord("0")) & (byte <= ord("9"))
    dot = byte == ord(".")
    sign = np.zeros((width, n), dtype=bool)
    sign[0] = (byte[0] == ord("-")) | (byte[0] == ord("+"))
    n_digits = np.count_nonzero(digit, axis=0)
    if not (
        np.all(digit | dot | sign | (byte == 0))
        and np.all(np.count_nonzero(dot, axis=0) <= 1)
        and np.all((n_digits >= 1) & (n_digits <= _MAX_DIGITS))
    ):
        return None
    mantissa = np.zeros(n, dtype=np.int64)
    after_point = np.zeros(n, dtype=np.int64)
    seen_point = np.zeros(n, dtype=bool)
    for j in range(width):  # a column at a time: width passes over n fields
        d = digit[j]
        mantissa = np.where(d, mantissa * 10 + (byte[j].astype(np.int64) - ord("0")), mantissa)
        seen_point |= dot[j]
        after_point += d & seen_point
    value = mantissa.astype(np.float64) / _POWERS_OF_TEN[after_point]
    return np.asarray(np.where(byte[0] == ord("-"), -value, value), dtype=np.float64)


def _digit_grades(part: NDArray[np.bytes_]) -> NDArray[np.int64] | None:
    """(n,) int64 values of one-byte fields that are all digits 0-9; None otherwise."""
    if part.dtype.itemsize != 1:
        return None
    digit = part.view(np.uint8) - np.uint8(ord("0"))  # other bytes wrap to > 9
    if digit.shape[0] and int(digit.max()) > 9:
        return None
    return digit.astype(np.int64)


def _to_bytes(ids: list[str]) -> NDArray[np.bytes_]:
    return np.array([s.encode("utf-8") for s in ids], dtype=bytes)


def _factorize(ids: list[str]) -> tuple[list[str], NDArray[np.int64]]:
    distinct, inverse = np.unique(_to_bytes(ids), return_inverse=True)
    return [bytes(b).decode("utf-8") for b in distinct], inverse.reshape(-1).astype(np.int64)


def read_run_columns(path: PathArg) -> RunColumns:
    """Read a TREC run file ``qid Q0 docno rank score tag`` as columns.

    Args:
        path: the file (UTF-8, LF or CRLF, optional BOM).

    Returns:
        A :class:`RunColumns`.

    Raises:
        InputFileError: as :func:`ndcg_studio.io.trec.readers.read_trec_run` (the file is refused by
            the same rules, except that duplicates are left to the caller).
        OSError: the file cannot be read.
    """
    try:
        query_ids, query, doc, score_parts, tag = _read_fast(path, 6, (0, 2, 4))
        score = np.asarray(_numbers(score_parts, np.float64), dtype=np.float64)
        if not np.isfinite(score).all():
            raise _Irregular
        return RunColumns(query_ids, query, doc, score, tag.decode("utf-8"), str(path))
    except _Irregular:
        pass
    run = read_trec_run(path)
    query_ids, query = _factorize(run.query_id)
    return RunColumns(query_ids, query, _to_bytes(run.doc_id), run.score, run.tag[-1], str(path))


def read_qrels_columns(path: PathArg) -> QrelsColumns:
    """Read a TREC qrels file ``qid iter docno grade`` as columns (any integer grade).

    Args:
        path: the file (UTF-8, LF or CRLF, optional BOM).

    Returns:
        A :class:`QrelsColumns`.

    Raises:
        InputFileError: as :func:`ndcg_studio.io.trec.readers.read_trec_qrels` without a grade map
            when the file needs that reader (then its grade range applies).
        OSError: the file cannot be read.
    """
    try:
        query_ids, query, doc, grade_parts, _ = _read_fast(path, 4, (0, 2, 3))
        grade = np.asarray(_numbers(grade_parts, np.int64), dtype=np.int64)
        return QrelsColumns(query_ids, query, doc, grade, str(path))
    except _Irregular:
        pass
    qrels = read_trec_qrels(path)
    query_ids, query = _factorize(qrels.query_id)
    return QrelsColumns(query_ids, query, _to_bytes(qrels.doc_id), qrels.grade, str(path))
