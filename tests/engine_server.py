"""A small search engine on the loopback interface for the ``fetch-run`` tests: real HTTP
(``http.server`` in threads) over the Cranfield documents, scored by term overlap.

``POST /search`` with ``{"q": TEXT, "size": K, "qid": ID}`` or ``GET /search?q=&size=&qid=``
answers ``{"total": N, "results": [{"doc_id", "score", "title"}]}``: the documents sharing at
least one word with the query, by the number of distinct query words they hold (ties in the
order of the collection, so many lists have ties). Faults are scripted per query id, one
behaviour consumed per request: ``429`` (``Retry-After: <retry_after>`` seconds), ``429-date``
(``Retry-After`` as an HTTP date one second ahead), ``500``, ``404``, ``301`` (moved),
``timeout`` (sleeps ``hang`` seconds before answering), ``truncated`` (an HTTP 200 whose JSON is
cut in half).
Every request is counted per query id (``requests``) with its headers and path logged, so a test
can check what was asked, how often, and where a credential went. ``latency`` seconds are slept
before every answer.
"""

from __future__ import annotations

import email.utils
import json
import re
import threading
import time
from collections import Counter
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

CRANFIELD = Path(__file__).resolve().parents[1] / "resources" / "demo" / "cranfield"
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in"})


def words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


@cache
def cranfield() -> tuple[tuple[str, str, frozenset[str]], ...]:
    """(doc id, title, words of title and text) of the 1400 Cranfield documents."""
    from ndcg_studio.io.smart import read_smart_documents

    d = read_smart_documents(CRANFIELD / "cran.all.1400")
    return tuple(
        (doc, title or "", frozenset(words(f"{title} {text}")))
        for doc, title, text in zip(d.doc_id, d.title, d.text, strict=True)
    )


def search(text: str, size: int) -> list[dict[str, Any]]:
    """The engine's ranked list for ``text``: what a fetched run must equal."""
    asked = words(text)
    scored = [
        (len(asked & terms), n, doc, title)
        for n, (doc, title, terms) in enumerate(cranfield())
        if asked & terms
    ]
    scored.sort(key=lambda row: (-row[0], row[1]))
    return [
        {"doc_id": doc, "score": float(s), "title": title} for s, _, doc, title in scored[:size]
    ]


class EngineServer:
    """The server (module docstring); ``url`` is its root, ``http://127.0.0.1:PORT``."""

    def __init__(
        self,
        *,
        faults: dict[str, list[str]] | None = None,
        latency: float = 0.0,
        hang: float = 3.0,
        retry_after: str = "1",
    ) -> None:
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.latency, self.hang, self.retry_after = latency, hang, retry_after
        self.requests: Counter[str] = Counter()
        self.log: list[tuple[str, dict[str, str]]] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread: threading.Thread | None = None

    def __enter__(self) -> EngineServer:
        cranfield()
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def _fault(self, qid: str, path: str, headers: dict[str, str]) -> str | None:
        with self._lock:
            self.requests[qid] += 1
            self.log.append((path, headers))
            plan = self.faults.get(qid)
            return plan.pop(0) if plan else None

    def answer(
        self, ask: dict[str, Any], path: str, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        qid = str(ask.get("qid", "?"))
        fault = self._fault(qid, path, headers)
        if fault == "429":
            return 429, {"Retry-After": self.retry_after}, b'{"error": "slow down"}'
        if fault == "429-date":
            when = email.utils.formatdate(time.time() + 1, usegmt=True)
            return 429, {"Retry-After": when}, b'{"error": "slow down"}'
        if fault == "301":
            return 301, {"Location": "http://127.0.0.2/elsewhere"}, b""
        if fault in ("500", "404"):
            return int(fault), {}, f'{{"error": "fault {fault} for {qid}"}}'.encode()
        if fault == "timeout":
            time.sleep(self.hang)
        time.sleep(self.latency)
        results = search(str(ask.get("q", "")), int(ask.get("size", 10)))
        body = json.dumps({"total": len(results), "results": results}).encode()
        if fault == "truncated":
            body = body[: len(body) // 2]
        return 200, {"Content-Type": "application/json"}, body

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, ask: dict[str, Any]) -> None:
                headers = {k: v for k, v in self.headers.items()}
                try:
                    status, extra, body = server.answer(ask, self.path, headers)
                    self.send_response(status)
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its time-out)

            def do_GET(self) -> None:
                query = parse_qs(urlsplit(self.path).query)
                self._send({k: v[0] for k, v in query.items()})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                self._send(json.loads(self.rfile.read(length) or b"{}"))

        return Handler
