"""Shared machinery of the readers: decoding, issue collection, fast columns.

Private to :mod:`ndcg_studio.io`; the public names live in the format modules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from typing import NoReturn

import numpy as np
from numpy.typing import NDArray

from ndcg_studio.io.errors import MAX_ISSUES, InputFileError, ParseIssue
from ndcg_studio.io.reading.ticker import Ticker

PathArg = str | PathLike[str]


def display_path(path: PathArg) -> str:
    """The file name as shown in messages: the path exactly as the caller gave it."""
    return str(path)


class Issues:
    """Collects :class:`ParseIssue` values; raises :class:`InputFileError` on the 21st."""

    def __init__(self, path: PathArg) -> None:
        self.path = display_path(path)
        self.items: list[ParseIssue] = []

    def __len__(self) -> int:
        return len(self.items)

    def add(self, line: int, field: str, message: str) -> None:
        """Record one problem; raise at once (``truncated=True``) when it is one too many."""
        if len(self.items) >= MAX_ISSUES:
            raise InputFileError(self._sorted(), truncated=True)
        self.items.append(ParseIssue(self.path, int(line), field, message))

    def fail(self, line: int, field: str, message: str) -> NoReturn:
        """Record a problem after which reading cannot go on, and raise now."""
        self.add(line, field, message)
        raise InputFileError(self._sorted(), truncated=False)

    def raise_if_any(self) -> None:
        """Raise :class:`InputFileError` (not truncated) when anything was recorded."""
        if self.items:
            raise InputFileError(self._sorted(), truncated=False)

    def _sorted(self) -> list[ParseIssue]:
        return sorted(self.items, key=lambda issue: issue.line)


#: The longest line a text file may hold, in bytes. A longer one is refused as soon as it has
#: been read that far (a file of one 2 GB line — a binary file, a JSON dump — is never read
#: whole); the longest legitimate lines, documents with their text, stay far below it.
MAX_LINE_BYTES = 10 * 1024 * 1024

#: The blocks :func:`read_text` reads a file in (smaller than :data:`MAX_LINE_BYTES`, so a
#: line can only be too long across blocks).
READ_BLOCK_BYTES = 4 * 1024 * 1024


def too_long(issues: Issues, line: int) -> NoReturn:
    """Refuse line ``line`` (1-based) for being longer than :data:`MAX_LINE_BYTES`."""
    issues.fail(
        line,
        "line",
        f"longer than {MAX_LINE_BYTES // 2**20} MB (not a text file of lines? a file of one "
        "long line?); nothing after it was read",
    )


def _read_bounded(path: PathArg, issues: Issues) -> bytes:
    """The file's bytes, read in blocks; a line over :data:`MAX_LINE_BYTES` stops the reading."""
    blocks: list[bytes] = []
    since_newline = 0  # bytes of the current line read so far
    lines = 0  # newlines read so far
    with open(path, "rb") as handle:
        while block := handle.read(READ_BLOCK_BYTES):
            first = block.find(b"\n")
            if first < 0:
                since_newline += len(block)
                if since_newline > MAX_LINE_BYTES:
                    too_long(issues, lines + 1)
            else:
                if since_newline + first > MAX_LINE_BYTES:
                    too_long(issues, lines + 1)
                since_newline = len(block) - block.rfind(b"\n") - 1
                lines += block.count(b"\n")
            blocks.append(block)
    return blocks[0] if len(blocks) == 1 else b"".join(blocks)


def read_text(path: PathArg, issues: Issues, ticker: Ticker) -> str:
    """Read a whole file and decode it as UTF-8 (an optional BOM is dropped).

    Raises:
        OSError: the file cannot be read.
        InputFileError: a line longer than :data:`MAX_LINE_BYTES` (refused before the rest of
            the file is read).
        InputFileError: the bytes are not UTF-8, or contain a NUL byte (never part of these
            text formats; typical of UTF-16 files, and C readers such as trec_eval would cut
            the field there); the message names the byte, its 0-based byte offset in the file
            and its 1-based line.
        OperationCancelled: ``cancelled()`` returned True.
    """
    ticker.check()
    data = _read_bounded(path, issues)
    ticker.check()
    nul = data.find(b"\x00")
    if nul >= 0:
        issues.fail(
            data.count(b"\n", 0, nul) + 1,
            "encoding",
            f"NUL byte at offset {nul} (a UTF-16 file?); save the file as UTF-8 text",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start
        line = data.count(b"\n", 0, offset) + 1
        issues.fail(
            line,
            "encoding",
            f"not UTF-8 (byte 0x{data[offset]:02X} at offset {offset}); save the file as UTF-8",
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    bom = text.find("\ufeff")
    if bom >= 0:
        issues.fail(
            text.count("\n", 0, bom) + 1,
            "encoding",
            "a byte order mark (U+FEFF) inside the file (files joined together?); it may only "
            "open the file — remove it",
        )
    return text


#: The longest id or name, in UTF-8 bytes: the same limit on SQLite and PostgreSQL (whose
#: B-tree index entries hold at most ~2.7 KB).
MAX_ID_BYTES = 1000

#: Characters an id never holds: whitespace, control and format characters (ASCII and Unicode:
#: C0, DEL, C1, zero-width and bidi marks, line/paragraph separators, BOM) and lone surrogates.
#: A TREC file could not hold such an id (trec_eval splits fields on whitespace), so every
#: reader refuses them and every exported id can be read back.
_BAD_ID_CHAR = re.compile(
    "[\\s\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
#: Characters a name (annotator, run tag) or free text never holds: control characters other
#: than tab/LF/CR, BOM and lone surrogates (NUL would be cut by C tools and PostgreSQL
#: refuses it).
_BAD_NAME_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff\ud800-\udfff]")
_BAD_TEXT_CHAR = re.compile("[\x00\ud800-\udfff]")


def _describe_char(char: str) -> str:
    return f"U+{ord(char):04X}" + (" (a space)" if char == " " else "")


#: Bytes of printable ASCII and of the ASCII whitespace ``str.split()`` splits on.
_PRINTABLE_OR_SPACE = bytes(range(32, 127)) + b"\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def clean_ascii(text: str) -> bool:
    """True when ``text`` is ASCII without control characters other than whitespace: every
    field split from it on whitespace is then printable ASCII (two C-level scans of the file
    instead of one per column; ``benchmarks/bench_io_parse.py``)."""
    return text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_OR_SPACE)


def check_ids(
    values: Sequence[str],
    line: NDArray[np.int64],
    field: str,
    issues: Issues,
    *,
    clean: bool = False,
) -> None:
    """Record an issue for every id that is empty, longer than :data:`MAX_ID_BYTES` UTF-8
    bytes, or holds whitespace, a control or format character or a lone surrogate.

    ``clean=True``: the values were split on whitespace from a :func:`clean_ascii` text, so
    only their length is checked. Else a fast path: ASCII printable text without spaces
    (nearly every file) is proven clean by a few C-level string scans of the joined column."""
    if not values:
        return
    if clean:
        if max(map(len, values)) <= MAX_ID_BYTES:
            return
    else:
        joined = "".join(values)
        if (
            joined.isascii()
            and joined.isprintable()
            and " " not in joined
            and max(map(len, values)) <= MAX_ID_BYTES
            and "" not in values
        ):
            return
    for i, value in enumerate(values):
        bad = _BAD_ID_CHAR.search(value)
        if not value:
            issues.add(int(line[i]), field, "empty")
        elif bad is not None:
            issues.add(
                int(line[i]),
                field,
                f"{value!r} holds {_describe_char(bad.group())}; ids may not contain "
                "whitespace or control characters",
            )
        elif len(value.encode("utf-8")) > MAX_ID_BYTES:
            issues.add(int(line[i]), field, f"longer than {MAX_ID_BYTES} bytes (UTF-8)")


def check_names(values: Sequence[str], line: NDArray[np.int64], field: str, issues: Issues) -> None:
    """Like :func:`check_ids` for names (annotators, run tags): inner spaces are allowed, a
    blank name, control characters, a BOM or a lone surrogate are not. Each distinct name is
    checked once (a column holds few), and reported at its first line."""
    if not values:
        return
    for value in dict.fromkeys(values):
        bad = _BAD_NAME_CHAR.search(value)
        if value.strip() and bad is None and len(value.encode("utf-8")) <= MAX_ID_BYTES:
            continue
        i = values.index(value)
        if not value.strip():
            issues.add(int(line[i]), field, f"{value!r} is blank")
        elif bad is not None:
            issues.add(int(line[i]), field, f"{value!r} holds {_describe_char(bad.group())}")
        elif len(value.encode("utf-8")) > MAX_ID_BYTES:
            issues.add(int(line[i]), field, f"longer than {MAX_ID_BYTES} bytes (UTF-8)")


def check_text(value: str, line: int, field: str, issues: Issues) -> None:
    """Record an issue when free text (title, note, ...) holds NUL or a lone surrogate (from a
    JSON escape: raw bytes are refused by :func:`read_text`)."""
    bad = _BAD_TEXT_CHAR.search(value)
    if bad is not None:
        issues.add(line, field, f"holds {_describe_char(bad.group())}, which no text may hold")


def split_lines(text: str) -> list[str]:
    """Split on LF, dropping one trailing CR per line (CRLF files) and the empty tail after a
    final newline. Other line separators of ``str.splitlines`` (VT, FF, U+2028, ...) are NOT
    line breaks here, so line numbers agree with ``grep -n`` and editors."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def is_skipped(line: str) -> bool:
    """Blank lines and comment lines (``#`` in the first column, trec_eval 10's rule in
    ``get_qrels.c``: `` #q1 0 d1 2`` is a record) carry no data."""
    return line.startswith("#") or not line.strip()


# ASCII characters that str.split() treats as whitespace, besides LF.
_ASCII_SPACE = ("\t", " ", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


_KEEP_ONLY = {
    sep: bytes(byte for byte in range(256) if byte not in (ord(sep), ord("\n")))
    for sep in (" ", "\t")
}


def _all_lines_have(chunk_text: str, n_tokens: int, ncols: int) -> int | None:
    """Cheap proof that every line of ``chunk_text`` has exactly ``ncols`` whitespace fields.

    ``chunk_text`` is whole lines joined by LF (a final LF optional) and ``n_tokens`` the
    length of ``chunk_text.split()``. The proof holds when the text is ASCII, uses one
    separator character (space or tab) and no other whitespace, its skeleton (the text with
    everything but separators and LFs deleted, ``bytes.translate`` in C) is exactly
    ``ncols - 1`` separators per line, and there are ``ncols`` tokens per line: a line with
    ``ncols - 1`` separators has at most ``ncols`` fields, so that total is only reached if
    each line has exactly ``ncols``. Cheaper than splitting the lines (``bench_io_parse.py``).

    Returns:
        The number of lines when proven, else None (the caller checks line by line).
    """
    if not chunk_text or not chunk_text.isascii():
        return None
    sep = " " if " " in chunk_text else "\t"
    if any(other in chunk_text for other in _ASCII_SPACE if other != sep):
        return None
    data = chunk_text.encode("ascii")
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if n_tokens != ncols * n_lines:
        return None
    expected = (sep * (ncols - 1) + "\n").encode("ascii") * n_lines
    if not data.endswith(b"\n"):
        expected = expected[:-1]
    return n_lines if data.translate(None, _KEEP_ONLY[sep]) == expected else None


def _check_lines(
    chunk: list[str], first: int, ncols: int, has_hash: bool
) -> NDArray[np.int64] | None:
    """Line numbers of the data lines when every line has ``ncols`` fields or none (blank);
    None when some line is wrong or may be a comment (the slow path then reports)."""
    if has_hash:
        return None
    counts = np.fromiter(map(len, map(str.split, chunk)), np.int64, len(chunk))
    if not np.all((counts == ncols) | (counts == 0)):
        return None
    return (np.flatnonzero(counts) + (first + 1)).astype(np.int64)


@dataclass(frozen=True)
class _ColumnSplit:
    """How :func:`whitespace_columns` splits each chunk of lines: ``ncols`` fields a line, the
    fields at the 0-based positions ``keep`` appended to ``columns`` (one list each), a line
    with another number of fields reported to ``issues`` naming ``layout``."""

    ncols: int
    keep: Sequence[int]
    columns: list[list[str]]
    layout: str
    issues: Issues


def _split_lines_slowly(chunk: list[str], first: int, split: _ColumnSplit) -> NDArray[np.int64]:
    """Line by line: skip blank and comment lines, report wrong field counts, append the
    kept fields of good lines to ``split.columns``; returns their 1-based line numbers."""
    ncols = split.ncols
    kept_lines: list[int] = []
    for offset, line_text in enumerate(chunk):
        if is_skipped(line_text):
            continue
        fields = line_text.split()
        number = first + offset + 1
        if len(fields) != ncols:
            split.issues.add(
                number, "columns", f"expected {ncols} fields ({split.layout}), found {len(fields)}"
            )
            continue
        for column, k in zip(split.columns, split.keep, strict=True):
            column.append(fields[k])
        kept_lines.append(number)
    return np.asarray(kept_lines, dtype=np.int64)


def whitespace_columns(
    text: str,
    ncols: int,
    keep: Sequence[int],
    layout: str,
    issues: Issues,
    ticker: Ticker,
    first_line: int = 0,
) -> tuple[list[list[str]], NDArray[np.int64]]:
    """Split whitespace-separated lines (as trec_eval does) into ``ncols`` column lists.

    Lines end in LF or CRLF. Fields are separated by runs of whitespace (``str.split()``:
    spaces, tabs, ...). Blank lines and ``#`` comment lines are skipped. A line with another
    number of fields is an issue naming the ``layout`` (e.g. ``"qid Q0 docno rank score
    tag"``). Only the fields whose 0-based positions are in ``keep`` are returned, in that
    order. Progress is reported in lines (``ticker.total`` = number of lines).

    Speed: the text is cut into chunks of whole lines; per chunk ONE ``chunk.split()`` is
    sliced into columns, after checking every line's field count (cheaply by
    :func:`_all_lines_have`, else by ``len(line.split())``). This avoids keeping one Python
    list per line alive, which makes the cyclic garbage collector dominate the run time on
    million-line files.

    Returns:
        ``(columns, line)``: ``columns[j]`` is the list of str (length n rows) of field
        ``keep[j]`` and ``line`` is the int64 array (shape ``(n,)``) of 1-based source line
        numbers of the rows kept — counted from ``first_line`` + 1 when ``text`` is a piece of
        a file that has ``first_line`` lines before it (issues name those numbers too).
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    n_chars = len(text)
    n_lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    ticker.total = n_lines
    step_lines = ticker.chunk_size()
    step_chars = max(1, round(n_chars / max(n_lines, 1) * step_lines))
    split = _ColumnSplit(ncols, keep, [[] for _ in keep], layout, issues)
    line_parts: list[NDArray[np.int64]] = []
    ticker.tick(0)
    position = 0
    first = first_line  # 0-based index of the chunk's first line
    while position < n_chars:
        cut = text.find("\n", min(position + step_chars, n_chars) - 1)
        end = n_chars if cut < 0 else cut + 1
        kept, n_chunk_lines = _chunk_columns(text[position:end], first, split)
        position = end
        line_parts.append(kept)
        first += n_chunk_lines
        ticker.tick(first - first_line)
    line = np.concatenate(line_parts) if line_parts else np.zeros(0, dtype=np.int64)
    return split.columns, line


def _chunk_columns(
    chunk_text: str, first: int, split: _ColumnSplit
) -> tuple[NDArray[np.int64], int]:
    """One chunk of :func:`whitespace_columns` (whole lines after ``first`` lines): its kept
    fields appended to ``split.columns``; returns the kept lines' numbers and the chunk's line
    count."""
    ncols = split.ncols
    tokens = chunk_text.split()
    proven = None if "#" in chunk_text else _all_lines_have(chunk_text, len(tokens), ncols)
    kept: NDArray[np.int64] | None
    chunk: list[str] = []
    if proven is not None:
        kept = np.arange(first + 1, first + proven + 1, dtype=np.int64)
        n_chunk_lines = proven
    else:
        chunk = chunk_text.split("\n")
        if chunk[-1] == "":
            chunk.pop()
        n_chunk_lines = len(chunk)
        kept = _check_lines(chunk, first, ncols, "#" in chunk_text)
    if kept is not None:
        for column, k in zip(split.columns, split.keep, strict=True):
            column.extend(tokens[k::ncols])
    else:
        kept = _split_lines_slowly(chunk, first, split)
    return kept, n_chunk_lines


def canonical(values: list[str]) -> list[str]:
    """The same list with equal strings shared (one object per distinct value): saves memory
    for columns with few distinct values (run tags, annotators)."""
    if values and values.count(values[0]) == len(values):  # one value: C-speed check
        return [values[0]] * len(values)
    table: dict[str, str] = {}
    return list(map(table.setdefault, values, values))


def empty_file(issues: Issues) -> NoReturn:
    """Record and raise the "file is empty" issue (line 1)."""
    issues.fail(1, "file", "file is empty (no data lines)")
