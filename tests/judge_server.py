"""An OpenAI-compatible chat-completions server on the loopback interface, for the machine
judge's tests and benchmark: real HTTP (``http.server`` in threads), answers from a table.

Each prompt names its document by a token ``DOC-<name>`` written in the document's text; the
table maps the name to a grade, answered UMBRELA-style (``##final score: N``) or, when the
request asks for JSON (``response_format``), as ``{"grade": N}``. Faults are scripted per
document: a list of behaviours consumed one per request for that document —

``429`` (with ``Retry-After: <retry_after>``), ``500``, ``timeout`` (sleeps ``hang`` seconds
before answering), ``malformed`` (HTTP 200 whose body is not JSON), ``truncated`` (an answer cut
mid-way, ``finish_reason: length``), ``garbage`` (an answer without a grade), ``401``.

The reported model name is ``model`` for the first ``switch_after`` answers and
``switched_model`` after (a provider updating its model mid-run). ``latency`` seconds are slept
before every answer. Every request is counted per document (``requests``) and logged with its
JSON body (``bodies``), so a test can check what was asked, how often, and that no key leaked.

Run as a program (``python -m tests.judge_server GRADES.json``) it prints its URL and serves
until killed: the kill-and-resume test and the benchmark use it that way too.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_DOC = re.compile(r"DOC-([A-Za-z0-9_.-]+)")


class JudgeServer:
    """The server (see the module docstring); ``url`` is its API root, ``.../v1``."""

    def __init__(
        self,
        grades: dict[str, int],
        *,
        faults: dict[str, list[str]] | None = None,
        latency: float = 0.0,
        hang: float = 2.0,
        retry_after: str = "0.05",
        model: str = "judge-v1",
        switched_model: str = "judge-v2",
        switch_after: int | None = None,
    ) -> None:
        self.grades = dict(grades)
        self.faults = {k: list(v) for k, v in (faults or {}).items()}
        self.latency, self.hang, self.retry_after = latency, hang, retry_after
        self.model, self.switched_model, self.switch_after = model, switched_model, switch_after
        self.requests: Counter[str] = Counter()
        self.times: dict[str, list[float]] = {}
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.answered = 0
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread: threading.Thread | None = None

    def start(self) -> JudgeServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> JudgeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------------- one request
    def _next_fault(self, doc: str) -> str | None:
        with self._lock:
            self.requests[doc] += 1
            self.times.setdefault(doc, []).append(time.monotonic())
            plan = self.faults.get(doc)
            return plan.pop(0) if plan else None

    def _reported_model(self) -> str:
        with self._lock:
            self.answered += 1
            switched = self.switch_after is not None and self.answered > self.switch_after
        return self.switched_model if switched else self.model

    def _answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        found = _DOC.search(prompt)
        doc = found.group(1) if found else "?"
        fault = self._next_fault(doc)
        if fault == "429":
            error = {"error": {"message": "rate limited", "type": "rate_limit"}}
            return 429, {"Retry-After": self.retry_after}, json.dumps(error).encode()
        if fault in ("500", "401"):
            error = {"error": {"message": f"fault {fault}", "type": "server"}}
            return int(fault), {}, json.dumps(error).encode()
        if fault == "timeout":
            time.sleep(self.hang)
        time.sleep(self.latency)
        if fault == "malformed":
            return 200, {}, b'{"id": "x", "choices": [ this is not json'
        grade = self.grades.get(doc, 0)
        as_json = body.get("response_format", {}).get("type") == "json_object"
        text = json.dumps({"grade": grade}) if as_json else f"##final score: {grade}"
        finish = "stop"
        if fault == "truncated":
            text, finish = text[: len(text) // 2], "length"
        elif fault == "garbage":
            text = "I cannot decide on this one."
        reply = {
            "id": f"chatcmpl-{doc}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self._reported_model(),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                }
            ],
            "usage": {
                "prompt_tokens": len(prompt) // 4,
                "completion_tokens": 5,
                "total_tokens": len(prompt) // 4 + 5,
            },
        }
        return 200, {}, json.dumps(reply).encode()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def setup(self) -> None:
                super().setup()
                # headers and body go out in two writes: without this, Nagle's algorithm and
                # the client's delayed ACK add ~40 ms to every answer
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.bodies.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                if not self.path.endswith("/chat/completions"):
                    status, extra, payload = 404, {}, b'{"error": {"message": "not found"}}'
                else:
                    status, extra, payload = server._answer(body)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for k, v in extra.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a time-out fault)

        return Handler


def main(argv: list[str]) -> int:
    """``python -m tests.judge_server GRADES.json [LATENCY]``: serve until killed."""
    with open(argv[0], encoding="utf-8") as f:
        grades = json.load(f)
    latency = float(argv[1]) if len(argv) > 1 else 0.0
    server = JudgeServer(grades, latency=latency).start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
