"""A text file read in pieces of whole lines, each decoded and checked as a whole file is
(:func:`~ndcg_studio.io.reading.text.read_text`): the chunked TREC readers of
:mod:`ndcg_studio.io.trec.readers`
are built on it, and so are their whole-file forms (one piece)."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator

from ndcg_studio.io.reading.text import MAX_LINE_BYTES, Issues, PathArg, read_text, too_long
from ndcg_studio.io.reading.ticker import Ticker
from ndcg_studio.progress import Cancelled, Progress

#: Bytes read per piece by the chunked readers: ~900,000 lines of a typical qrels file, ~500,000
#: of a run, so a 10M-line file is never held whole (its text and one Python str per field would
#: take ~6 GB).
CHUNK_BYTES = 16 << 20


def pieces(
    path: PathArg,
    chunk_bytes: int | None,
    by_query: bool,
    issues: Issues,
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> Iterator[tuple[str, int, Ticker]]:
    """The file as ``(text, lines before it, ticker)`` pieces of whole lines, decoded and
    checked as :func:`~ndcg_studio.io.reading.text.read_text` checks a whole file (a BOM only at
    the very start). ``by_query``: a piece ends before the lines that share the first field of
    its last line (unless they fill it). Each piece's ticker reports progress in the file's
    bytes, as ``progress(bytes done, file size)``. ``chunk_bytes`` None: the whole file is
    one piece, whose ticker reports progress in lines, as ``progress(lines done, lines)``."""
    if chunk_bytes is None:
        ticker = Ticker(progress, cancelled)
        yield read_text(path, issues, ticker), 0, ticker
        return
    size = max(os.path.getsize(path), 1)
    lines_before = 0
    done = 0  # bytes before the current piece
    rest = b""
    with open(path, "rb") as f:
        while True:
            Ticker(None, cancelled).check()
            data = f.read(chunk_bytes)
            at_end = not data
            buf = rest + data if rest else data
            if not at_end:
                cut = buf.rfind(b"\n")
                if cut < 0:  # one line longer than a piece: read on, up to the longest line
                    if len(buf) > MAX_LINE_BYTES:
                        too_long(issues, lines_before + 1)
                    rest = buf
                    continue
                if by_query:
                    cut = _query_start(buf, cut)
                piece, rest = buf[: cut + 1], buf[cut + 1 :]
            else:
                piece, rest = buf, b""
            del buf, data
            if piece:
                text = _decode(piece, issues, lines_before, done)
                n_lines = piece.count(b"\n") + (0 if piece.endswith(b"\n") else 1)
                base, span = done, len(piece)
                report: Progress | None = None
                if progress is not None:
                    report = functools.partial(_in_bytes, progress, size, base, span)
                done += len(piece)
                del piece
                yield text, lines_before, Ticker(report, cancelled)
                del text
                lines_before += n_lines
            if at_end:
                return


def _in_bytes(progress: Progress, size: int, base: int, span: int, done: int, total: int) -> None:
    """A piece's progress in lines (``done`` of ``total``) as the file's, in bytes."""
    progress(base + span * done // max(total, 1), size)


def _query_start(buf: bytes, cut: int) -> int:
    """The end (index of its ``\\n``) of the last line in ``buf[: cut + 1]`` whose first
    field differs from that of the line ending at ``cut`` — or ``cut`` when every line back to
    the start shares it (the query then goes on in the next piece)."""
    start = buf.rfind(b"\n", 0, cut) + 1
    fields = buf[start:cut].split(None, 1)
    if not fields:
        return cut
    key = fields[0]
    end = start - 1
    while end >= 0:
        start = buf.rfind(b"\n", 0, end) + 1
        fields = buf[start:end].split(None, 1)
        if not fields or fields[0] != key:
            return end
        end = start - 1
    return cut


def _decode(piece: bytes, issues: Issues, lines_before: int, bytes_before: int) -> str:
    """A piece of a file as text; problems name lines and byte offsets counted from the
    file's start (``lines_before`` and ``bytes_before`` lie before the piece)."""
    nul = piece.find(b"\x00")
    if nul >= 0:
        issues.fail(
            lines_before + piece.count(b"\n", 0, nul) + 1,
            "encoding",
            f"NUL byte at offset {bytes_before + nul} (a UTF-16 file?); save the file as UTF-8 "
            "text",
        )
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start
        issues.fail(
            lines_before + piece.count(b"\n", 0, offset) + 1,
            "encoding",
            f"not UTF-8 (byte 0x{piece[offset]:02X} at offset {bytes_before + offset}); save "
            "the file as UTF-8",
        )
    if bytes_before == 0 and text.startswith("\ufeff"):
        text = text[1:]
    bom = text.find("\ufeff")
    if bom >= 0:
        issues.fail(
            lines_before + text.count("\n", 0, bom) + 1,
            "encoding",
            "a byte order mark (U+FEFF) inside the file (files joined together?); it may only "
            "open the file — remove it",
        )
    return text
