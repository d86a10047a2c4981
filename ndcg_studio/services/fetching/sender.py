"""One query's request to a search engine and its answer, with a time-out per request and
retries with exponential back-off on 429, 5xx, time-outs, broken connections and answers that
are not JSON (a truncated body), honouring ``Retry-After`` (seconds or an HTTP date).

Other 3xx and 4xx answers are not retried (a moved URL, a wrong one, a refused key).
Credentials (``${ENV_NAME}``) are filled in only here, from the environment, and never appear
in a message: failures name the status and quote the start of the answer, never the URL that
was sent.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import urllib3
from urllib3.exceptions import HTTPError, TimeoutError

from ndcg_studio.io.endpoints.file import Endpoint
from ndcg_studio.io.endpoints.template import fill, fill_environment
from ndcg_studio.services.judges.pacing import Pacer

__all__ = ["Policy", "Query", "QueryFailed", "Sender", "retry_after"]

#: Characters of an answer quoted in a failure.
QUOTED = 200

#: Statuses not retried: redirects (not followed: the Location could take the credentials
#: elsewhere) and the client errors other than 429 (a wrong URL, a refused key, a bad body).
_FINAL = frozenset(f"HTTP {n}" for n in range(300, 500) if n != 429)


@dataclass(frozen=True)
class Policy:
    """How hard to try: ``timeout`` seconds per request, up to ``retries`` more attempts after
    the first, waiting ``backoff * 2**attempt`` seconds (or the server's ``Retry-After``),
    never more than ``max_wait``."""

    timeout: float = 30.0
    retries: int = 4
    backoff: float = 0.5
    max_wait: float = 60.0


class QueryFailed(Exception):
    """A query without a usable answer after every attempt: ``status`` (``HTTP 503``,
    ``time-out``, ``connection failed``, ``not JSON``) and the start of the answer."""

    def __init__(self, status: str, answer: str = "") -> None:
        super().__init__(f"{status}: {answer}" if answer else status)
        self.status = status
        self.answer = answer[:QUOTED]


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delay-seconds or an HTTP date), or None
    when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class Query:
    """What a template may say of one query."""

    query_id: str
    text: str
    description: str | None = None


class Sender:
    """Sends the endpoint's request for one query at a time (thread-safe; one connection pool
    of ``connections`` connections shared by the workers).

    Args:
        environ: where ``${ENV_NAME}`` is read (default: ``os.environ``).
        sleep: injectable for tests.

    Raises:
        MissingVariable: (at construction) an ``${ENV_NAME}`` of the file is not set.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        k: int,
        policy: Policy,
        pacer: Pacer,
        *,
        connections: int = 4,
        environ: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.endpoint, self.k, self.policy, self.pacer = endpoint, k, policy, pacer
        self._url = fill_environment(endpoint.url, environ)
        self._headers = {n: fill_environment(v, environ) for n, v in endpoint.headers.items()}
        self._sleep = sleep
        self._pool = urllib3.PoolManager(num_pools=2, maxsize=connections, retries=False)

    def close(self) -> None:
        """Close the pooled connections."""
        self._pool.clear()

    def answer(self, query: Query) -> Any:
        """The decoded JSON answer to ``query``.

        Raises:
            QueryFailed: no 2xx JSON answer after the retries, or a 4xx other than 429.
        """
        values = {
            "query_text": query.text,
            "query_id": query.query_id,
            "k": self.k,
            "description": query.description,
        }
        url = fill(self._url, values, "url")
        headers = {n: fill(v, values, "text") for n, v in self._headers.items()}
        body = None
        if self.endpoint.body is not None:
            json_body = self.endpoint.json_body
            body = fill(self.endpoint.body, values, "json" if json_body else "text").encode()
        attempt = 0
        while True:
            failure, wait = self._attempt(url, headers, body)
            if isinstance(failure, _Answer):
                return failure.value
            if failure.status in _FINAL:
                raise failure
            if attempt >= self.policy.retries:
                raise failure
            backoff = self.policy.backoff * 2**attempt
            self._sleep(min(self.policy.max_wait, backoff if wait is None else wait))
            attempt += 1

    def _attempt(
        self, url: str, headers: dict[str, str], body: bytes | None
    ) -> tuple[_Answer | QueryFailed, float | None]:
        """One request: the answer, or the failure and the server's ``Retry-After``."""
        self.pacer.wait()
        try:
            response = self._pool.request(
                self.endpoint.method,
                url,
                body=body,
                headers=headers,
                timeout=urllib3.Timeout(total=self.policy.timeout),
                retries=False,
            )
        except TimeoutError:
            return QueryFailed("time-out", f"no answer within {self.policy.timeout:g} s"), None
        except HTTPError as exc:  # refused, reset, cut short: the message may name the URL
            return QueryFailed("connection failed", type(exc).__name__), None
        text = response.data.decode("utf-8", errors="replace")
        if 300 <= response.status < 400:
            where = "redirected: give the final URL in the endpoint file"
            return QueryFailed(f"HTTP {response.status}", where), None
        if not 200 <= response.status < 300:
            wait = retry_after(response.headers.get("Retry-After"))
            return QueryFailed(f"HTTP {response.status}", text), wait
        try:
            return _Answer(json.loads(text)), None
        except ValueError:
            return QueryFailed("not JSON", text), None


@dataclass(frozen=True)
class _Answer:
    value: Any
