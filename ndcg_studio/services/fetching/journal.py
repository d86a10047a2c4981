"""The journal of a fetch: one JSON line per query whose ranked list has been fetched, written
as each answer arrives, so a fetch that is killed and started again sends only the queries the
journal does not hold.

It lives in the user cache folder, named by the run, the endpoint's template hash and the
database (a changed endpoint file or another database starts afresh), and is deleted once the
run is stored. A line of another query text (the queries file changed) is not reused; a last
line cut short by the kill is ignored.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ndcg_studio.io.endpoints.mapping import Hit

__all__ = ["Entry", "Journal", "journal_folder", "journal_path"]


@dataclass(frozen=True)
class Entry:
    """One fetched query: its text as sent and its ranked hits."""

    text: str
    hits: list[Hit]


def journal_folder() -> Path:
    """The folder of the journals: ``fetch`` in the user cache folder."""
    from platformdirs import user_cache_dir

    from ndcg_studio.storage.database import APP_NAME

    return Path(user_cache_dir(APP_NAME, appauthor=False)) / "fetch"


def journal_path(folder: Path, run: str, template_hash: str, database: str) -> Path:
    """The journal file of fetching run ``run`` with the endpoint ``template_hash`` into the
    database ``database`` (its URL or label)."""
    key = hashlib.sha256(f"{run}\n{template_hash}\n{database}".encode()).hexdigest()[:16]
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", run)[:60]
    return folder / f"{safe}-{key}.jsonl"


class Journal:
    """The journal at ``path`` (created with its folder on the first :meth:`add`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def load(self) -> dict[str, Entry]:
        """The queries fetched by earlier attempts (empty when there is no journal)."""
        entries: dict[str, Entry] = {}
        if not self.path.is_file():
            return entries
        with open(self.path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    row = json.loads(line)
                    hits = [Hit(h[0], float(h[1]), h[2], h[3]) for h in row["hits"]]
                    entries[str(row["query"])] = Entry(str(row["text"]), hits)
                except (ValueError, KeyError, IndexError, TypeError):
                    continue  # a line cut short by a kill
        return entries

    def add(self, query_id: str, text: str, hits: list[Hit]) -> None:
        """Append one fetched query (flushed at once: a kill keeps it)."""
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (kept open)
            if self._handle.tell() and not self.path.read_bytes().endswith(b"\n"):
                self._handle.write("\n")  # after a line cut short
        row = {
            "query": query_id,
            "text": text,
            "hits": [[h.doc_id, h.score, h.title, h.text] for h in hits],
        }
        self._handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._handle.flush()

    def close(self) -> None:
        """Close the file (it stays on disk)."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def remove(self) -> None:
        """Delete the journal (the run is stored)."""
        self.close()
        self.path.unlink(missing_ok=True)
