"""The OpenAI-compatible backend: one chat-completions request per item, through the official
``openai`` client (OpenAI, Azure, vLLM, Ollama and llama.cpp's server all speak it).

Retries are the client's own: on 408, 409, 429, 5xx, time-outs and lost connections it waits
``Retry-After`` when the server sends one (up to its cap), else an exponential back-off with
jitter (0.5 s doubling, at most 8 s), up to ``max_retries`` times. An item whose request still
fails is stored ``failed`` with the reason and asked again by the next run; an answer that
cannot be read is stored ``unparsed`` with its raw text. A refused key (401, 403) or an unknown
model or endpoint (404) stops the whole job (:class:`JudgeStopped`): every other item would fail
the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ndcg_studio.domain.judges.templates import Template
from ndcg_studio.services.judges.pacing import Pacer
from ndcg_studio.storage.judges.items import ItemText
from ndcg_studio.storage.judges.labels import LabelRow

__all__ = ["JudgeStopped", "RemoteJudge", "fields_of", "public_url"]

#: The longest error text kept in a label's ``problem``.
_PROBLEM_CHARS = 500


class JudgeStopped(Exception):
    """The server refuses every request of this job (key, permission, model or URL): stop."""


def public_url(url: str) -> str:
    """``url`` without a user name or password (what provenance and messages may show)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


def fields_of(item: ItemText) -> dict[str, str | None]:
    """The named fields of a template for one item."""
    return {
        "query": item.query_text,
        "description": item.description,
        "narrative": item.narrative,
        "title": item.title,
        "text": item.text,
    }


class RemoteJudge:
    """Ask an OpenAI-compatible server for one item's grade at a time (thread-safe).

    Args:
        base_url: the server's API root (``https://api.openai.com/v1``, ``http://host:8000/v1``).
        model: the model name as the server knows it.
        template: the prompt template.
        api_key: the key (None: servers that need none; the client is given a placeholder).
        temperature: sampling temperature (0 for the most repeatable grades).
        timeout: seconds per attempt.
        max_retries: the client's retries per item.
        rate: at most this many requests started per second (None: no bound).
    """

    chunk = 1
    kind = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        template: Template,
        *,
        api_key: str | None,
        temperature: float = 0.0,
        timeout: float = 60.0,
        max_retries: int = 6,
        rate: float | None = None,
    ) -> None:
        from openai import OpenAI

        self.base_url, self.model, self.template = base_url, model, template
        self.temperature, self.timeout, self.max_retries = temperature, timeout, max_retries
        self.pacer = Pacer(rate)
        self.client = OpenAI(
            base_url=base_url,
            api_key=api_key or "no-key",
            timeout=timeout,
            max_retries=max_retries,
        )

    def params(self) -> dict[str, Any]:
        """What is recorded with each label (never the key)."""
        return {
            "backend": self.kind,
            "base_url": public_url(self.base_url),
            "temperature": self.temperature,
            "max_tokens": self.template.max_tokens,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()

    def grade(self, items: Sequence[ItemText]) -> list[LabelRow]:
        """One label per item (``chunk`` is 1: one request).

        Raises:
            JudgeStopped: 401, 403 or 404 from the server.
        """
        return [self._one(item) for item in items]

    def _request(self, item: ItemText) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self.template.render(fields_of(item)),
            "temperature": self.temperature,
            "max_tokens": self.template.max_tokens,
        }
        if self.template.answer == "json":
            kwargs["response_format"] = {"type": "json_object"}
        return kwargs

    def _one(self, item: ItemText) -> LabelRow:
        import openai

        def failed(problem: str) -> LabelRow:
            return LabelRow(
                item.query_id, item.document_id, "failed", None, None, None,
                problem[:_PROBLEM_CHARS], None, None,
            )  # fmt: skip

        self.pacer.wait()
        try:
            response = self.client.chat.completions.create(**self._request(item))
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise JudgeStopped(f"{public_url(self.base_url)} refused the key: {exc}") from None
        except openai.NotFoundError as exc:
            raise JudgeStopped(
                f"{public_url(self.base_url)}: no model {self.model!r} or no chat-completions "
                f"endpoint there (HTTP 404): {exc}"
            ) from None
        except openai.APIStatusError as exc:
            return failed(f"HTTP {exc.status_code} after {self.max_retries} retries: {exc}")
        except openai.APITimeoutError:
            return failed(f"no answer within {self.timeout:g} s after {self.max_retries} retries")
        except openai.APIConnectionError as exc:
            return failed(f"connection failed after {self.max_retries} retries: {exc}")
        except Exception as exc:  # a body the client cannot read: the item is asked again later
            return failed(f"unreadable response: {type(exc).__name__}: {exc}")
        return self._label(item, response)

    def _label(self, item: ItemText, response: Any) -> LabelRow:
        choices = getattr(response, "choices", None) or []
        choice = choices[0] if choices else None
        message = getattr(choice, "message", None)
        text = getattr(message, "content", None)
        usage = getattr(response, "usage", None)
        prompt_tokens = getattr(usage, "prompt_tokens", None)
        completion_tokens = getattr(usage, "completion_tokens", None)
        reported = getattr(response, "model", None)
        reading = self.template.read(text)
        status, problem = "graded", None
        if reading.grade is None:
            status, problem = "unparsed", reading.problem
            if getattr(choice, "finish_reason", None) == "length":
                problem = f"{problem}; the answer was cut at max_tokens={self.template.max_tokens}"
        raw = text if isinstance(text, str) else (None if text is None else json.dumps(text))
        return LabelRow(
            query_id=item.query_id,
            document_id=item.document_id,
            status=status,
            grade=reading.grade,
            model_reported=str(reported) if reported else None,
            raw_answer=raw,
            problem=problem,
            prompt_tokens=prompt_tokens if isinstance(prompt_tokens, int) else None,
            completion_tokens=completion_tokens if isinstance(completion_tokens, int) else None,
        )
