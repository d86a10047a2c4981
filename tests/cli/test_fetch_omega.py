"""``fetch-run`` against a real search engine: Xapian's Omega (Debian's ``xapian-omega``) over the
1400 Cranfield documents, its CGI program run per request by a small HTTP server on 127.0.0.1
(Python's own CGI server runs scripts as ``nobody`` when started as root, who cannot read the
test's folders), answering through a JSON template. The fetched run must equal what Omega
answers for each query, asked directly. Skipped, with the reason, where Omega is not installed
(``.ci/run`` installs it)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ndcg_studio.app import main
from tests.cli.test_fetch_run import stored
from tests.engine_server import CRANFIELD

INDEX_FILES = ("index.script", "docs.txt")
OMEGA = Path("/usr/lib/cgi-bin/omega/omega")
SCRIPTINDEX = shutil.which("scriptindex")

pytestmark = pytest.mark.skipif(
    not OMEGA.exists() or SCRIPTINDEX is None,
    reason="Xapian Omega is not installed (apt install xapian-omega)",
)

#: Omega's answer as JSON (OmegaScript; ``$.`` is a comma, ``$weight`` the BM25 weight)
TEMPLATE = (
    '$httpheader{Content-Type,application/json}{"total":$msize,"hits":[$hitlist{'
    '$if{$ne{$hit,0},$.}{"id":"$json{$field{id}}","score":$weight,'
    '"title":"$json{$field{title}}"}}]}\n'
)

ENDPOINT = """\
name = "omega"
url = "{url}/cgi-bin/omega?DB=cran&FMT=json&DEFAULTOP=or&HITSPERPAGE={{k}}&P={{query_text}}"

[response]
hits = "hits"
id = "id"
score = "score"
title = "title"
"""


@pytest.fixture(scope="module")
def omega(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Omega's root URL, serving the Cranfield index (built here with scriptindex)."""
    from ndcg_studio.io.smart import read_smart_documents

    root = tmp_path_factory.mktemp("omega")
    d = read_smart_documents(CRANFIELD / "cran.all.1400")
    with open(root / "docs.txt", "w", encoding="utf-8") as handle:
        for doc, title, text in zip(d.doc_id, d.title, d.text, strict=True):
            one_line = [" ".join((t or "").split()) for t in (title, text)]
            handle.write(f"id={doc}\ntitle={one_line[0]}\ntext={one_line[1]}\n\n")
    (root / "index.script").write_text(
        "id : field boolean=Q unique=Q\ntitle : field index\ntext : index\n"
    )
    for folder in ("dbs", "logs", "templates"):
        (root / folder).mkdir(parents=True)
    (root / "templates" / "json").write_text(TEMPLATE)
    assert SCRIPTINDEX is not None
    subprocess.run(
        [SCRIPTINDEX, str(root / "dbs" / "cran"), *(str(root / f) for f in INDEX_FILES)],
        check=True,
        capture_output=True,
    )
    (root / "omega.conf").write_text(
        f"database_dir {root / 'dbs'}\ntemplate_dir {root / 'templates'}\nlog_dir {root / 'logs'}\n"
    )
    config = {**os.environ, "OMEGA_CONFIG_FILE": str(root / "omega.conf")}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _cgi_handler(config))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _cgi_handler(environ: dict[str, str]) -> type[BaseHTTPRequestHandler]:
    """GET /cgi-bin/omega?QUERY: Omega run as a CGI program, its headers and body relayed."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            query = urllib.parse.urlsplit(self.path).query
            env = {**environ, "REQUEST_METHOD": "GET", "QUERY_STRING": query}
            output = subprocess.run([str(OMEGA)], env=env, capture_output=True, check=True).stdout
            head, _, body = output.replace(b"\r\n", b"\n").partition(b"\n\n")
            self.send_response(200)
            for line in head.decode().splitlines():
                name, _, value = line.partition(":")
                self.send_header(name.strip(), value.strip())
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def ask(url: str, text: str, k: int) -> list[tuple[str, int, float]]:
    """Omega's own answer, asked directly."""
    fields = {"DB": "cran", "FMT": "json", "DEFAULTOP": "or", "HITSPERPAGE": k, "P": text}
    query = urllib.parse.urlencode(fields)
    with urllib.request.urlopen(f"{url}/cgi-bin/omega?{query}", timeout=30) as answer:
        hits = json.load(answer)["hits"]
    return [(h["id"], n, h["score"]) for n, h in enumerate(hits, start=1)]


def test_the_fetched_run_equals_omegas_answers(
    omega: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ndcg_studio.io.smart import read_smart_queries

    q = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    texts = dict(list(zip(q.query_id, q.text, strict=True))[:25])
    queries = tmp_path / "queries.tsv"
    queries.write_text("".join(f"{k}\t{v}\n" for k, v in texts.items()), encoding="utf-8")
    endpoint = tmp_path / "omega.toml"
    endpoint.write_text(ENDPOINT.format(url=omega), encoding="utf-8")
    db = tmp_path / "studio.sqlite"
    code = main(
        ["--db", str(db), "fetch-run", "-q", "--name", "omega", "--endpoint", str(endpoint),
         "--queries", str(queries), "--k", "50", "--concurrency", "4"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    want = {qid: ask(omega, text, 50) for qid, text in texts.items()}
    assert sum(len(v) for v in want.values()) > 1000
    assert stored(db, "omega") == {qid: hits for qid, hits in want.items() if hits}


class FaultProxy:
    """A proxy on 127.0.0.1 in front of Omega that answers the first request of a query
    (by its ``P=`` text) with a planned fault — 429 with Retry-After, 500, a hang past the
    client's time-out, a truncated body — and relays Omega's answer after that."""

    def __init__(self, upstream: str, plan: dict[str, str]) -> None:
        self.upstream, self.plan = upstream, dict(plan)
        self.requests: dict[str, int] = {}
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                text = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)["P"][0]
                with proxy._lock:
                    proxy.requests[text] = proxy.requests.get(text, 0) + 1
                    fault = proxy.plan.pop(text, None)
                if fault == "429":
                    self._reply(429, b'{"error": "slow down"}', {"Retry-After": "1"})
                    return
                if fault == "500":
                    self._reply(500, b'{"error": "upstream hiccup"}')
                    return
                if fault == "hang":
                    time.sleep(3)  # past the client's 1 s time-out
                with urllib.request.urlopen(proxy.upstream + self.path, timeout=30) as answer:
                    body = answer.read()
                if fault == "truncated":
                    body = body[: len(body) // 2]
                self._reply(200, body, {"Content-Type": "application/json"})

            def _reply(
                self, status: int, body: bytes, headers: dict[str, str] | None = None
            ) -> None:
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                # the client may have given up (its time-out) before the answer
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)


def test_faults_of_a_proxy_in_front_of_omega_are_survived(
    omega: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """429 with Retry-After, 500, a time-out and truncated JSON between fetch-run and Omega:
    each faulty query is asked again and the stored run still equals Omega's answers."""
    from ndcg_studio.io.smart import read_smart_queries

    q = read_smart_queries(CRANFIELD / "cran.qry", renumber=True)
    texts = dict(list(zip(q.query_id, q.text, strict=True))[:8])
    queries = tmp_path / "queries.tsv"
    queries.write_text("".join(f"{k}\t{v}\n" for k, v in texts.items()), encoding="utf-8")
    faulty = list(texts.values())[:4]
    plan = dict(zip(faulty, ("429", "500", "hang", "truncated"), strict=True))
    with FaultProxy(omega, plan) as proxy:
        endpoint = tmp_path / "omega.toml"
        endpoint.write_text(ENDPOINT.format(url=proxy.url), encoding="utf-8")
        db = tmp_path / "studio.sqlite"
        code = main(
            ["--db", str(db), "fetch-run", "-q", "--name", "omega", "--endpoint", str(endpoint),
             "--queries", str(queries), "--k", "20", "--timeout", "1", "--concurrency", "2"]
        )  # fmt: skip
        err = capsys.readouterr().err
        assert code == 0, err
        sent = dict(proxy.requests)
    assert proxy.plan == {}  # every planned fault was served
    # the texts as Omega received them: each faulty query twice, the others once
    assert sorted(sent.values()) == [1] * 4 + [2] * 4, sent
    want = {qid: ask(omega, text, 20) for qid, text in texts.items()}
    assert stored(db, "omega") == {qid: hits for qid, hits in want.items() if hits}
