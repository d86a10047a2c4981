"""Reading an endpoint file (TOML, ``tomllib``): what to send for each query and how to read the
answer; see docs/live-engine.md for the keys and an example per engine.

Everything is checked before any request is sent: a TOML error, an unknown key, a missing
``url`` or ``[response]`` key, a method other than GET or POST, an unknown ``{placeholder}``, a
body that is not JSON once filled in (when it is sent as JSON), an ``${ENV_NAME}`` outside the
URL and the headers, or an expression that is not JMESPath raise
:class:`~ndcg_studio.io.errors.InputFileError` with ``FILE:LINE: field: message``.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ndcg_studio.io.endpoints.mapping import FIELDS, REQUIRED, Mapping
from ndcg_studio.io.endpoints.presets import PRESET_KEYS, PRESETS, preset_fields
from ndcg_studio.io.endpoints.template import (
    PLACEHOLDERS,
    environment_names,
    fill,
    unknown_placeholders,
)
from ndcg_studio.io.reading.text import Issues, PathArg, display_path

__all__ = ["Endpoint", "public_url", "read_endpoint"]

_REQUEST_KEYS = ("url", "method", "headers", "body", "response")
_KEYS = ("preset", "name", "base_url", *PRESET_KEYS, *_REQUEST_KEYS)
_SAMPLE = {"query_text": 'a "quoted" query', "query_id": "1", "k": 10, "description": "x"}


@dataclass(frozen=True)
class Endpoint:
    """A checked endpoint file.

    Attributes:
        path: the file as named in messages.
        engine: the preset's name, else ``generic``; ``name`` the file's own name for it.
        url, headers: templates (``{placeholders}`` and ``${ENV_NAME}`` not yet filled in).
        body: the body template (POST), None for GET.
        json_body: the body is sent as JSON (placeholders JSON-escaped).
        mapping: the ``[response]`` table.
        lines: the line of each ``[response]`` key in the file (for messages).
    """

    path: str
    engine: str
    name: str
    url: str
    method: str
    headers: dict[str, str]
    body: str | None
    json_body: bool
    mapping: Mapping
    lines: dict[str, int] = field(default_factory=dict)

    def template_hash(self) -> str:
        """SHA-256 of the request and the mapping as written (credentials not filled in)."""
        template = {
            "url": self.url,
            "method": self.method,
            "headers": self.headers,
            "body": self.body,
            "response": self.mapping.sources,
        }
        canonical = json.dumps(template, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def shown_url(self) -> str:
        """The URL as messages and the run's description show it: no user or password, and
        ``${ENV_NAME}`` not filled in."""
        return public_url(self.url)


def public_url(url: str) -> str:
    """``url`` without the user and password of its authority part."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


def read_endpoint(path: PathArg) -> Endpoint:
    """Read and check the endpoint file at ``path`` (module docstring).

    Raises:
        InputFileError: the file's problems (nothing is sent).
        OSError: the file cannot be read.
    """
    issues = Issues(path)
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
        spec = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        issues.fail(1 + raw[: exc.start].count(b"\n"), "encoding", "not UTF-8")
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"at line (\d+)", str(exc))
        issues.fail(int(where.group(1)) if where else 0, "toml", str(exc))
    lines = _KeyLines(text)
    for key in spec:
        if key not in _KEYS:
            issues.add(lines.of(key), key, f"unknown key; the keys are {', '.join(_KEYS)}")
    engine = _engine(spec, lines, issues)
    fields = dict(spec)
    if engine != "generic":
        try:
            given = preset_fields(engine, spec)
        except KeyError as exc:
            issues.fail(lines.of("preset"), str(exc.args[0]), f"the {engine} preset needs it")
        response = {**given.pop("response"), **dict(spec.get("response", {}))}
        fields = {**given, **{k: v for k, v in spec.items() if k in _REQUEST_KEYS}}
        fields["response"] = response
    endpoint = _checked(display_path(path), engine, fields, lines, issues)
    issues.raise_if_any()
    assert endpoint is not None
    return endpoint


def _engine(spec: dict[str, Any], lines: _KeyLines, issues: Issues) -> str:
    preset = spec.get("preset", "generic")
    if preset != "generic" and preset not in PRESETS:
        issues.fail(lines.of("preset"), "preset", f"{preset!r}: one of {', '.join(PRESETS)}")
    if preset != "generic" and "base_url" not in spec:
        issues.fail(lines.of("preset"), "base_url", f"the {preset} preset needs it")
    return str(preset)


def _checked(
    path: str, engine: str, fields: dict[str, Any], lines: _KeyLines, issues: Issues
) -> Endpoint | None:
    url, method = fields.get("url"), str(fields.get("method", "GET")).upper()
    if not isinstance(url, str) or not re.match(r"https?://", url):
        issues.add(lines.of("url"), "url", f"an http:// or https:// URL is needed, got {url!r}")
        url = ""
    if method not in ("GET", "POST"):
        issues.add(lines.of("method"), "method", f"GET or POST, got {fields.get('method')!r}")
    headers = fields.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        issues.add(lines.of("headers"), "headers", 'a table of strings ([headers] Name = "…")')
        headers = {}
    body = fields.get("body")
    if body is not None and (not isinstance(body, str) or method != "POST"):
        issues.add(lines.of("body"), "body", 'a string, sent only with method = "POST"')
        body = None
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), None)
    json_body = body is not None and (
        "json" in (content_type or "") or (content_type is None and body.lstrip()[:1] in "{[")
    )
    if json_body and content_type is None:
        headers = {**headers, "Content-Type": "application/json"}
    _check_templates(url, headers, body, json_body, lines, issues)
    mapping = _mapping(fields.get("response"), lines, issues)
    if issues or mapping is None:
        return None
    name = str(fields.get("name") or engine)
    table = lines.of("response")
    where = {key: lines.of(key, after=table) if table else table for key in mapping.sources}
    return Endpoint(path, engine, name, url, method, headers, body, json_body, mapping, where)


def _check_templates(
    url: str,
    headers: dict[str, str],
    body: str | None,
    json_body: bool,
    lines: _KeyLines,
    issues: Issues,
) -> None:
    known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
    parts = [("url", url), *((f"headers.{k}", v) for k, v in headers.items()), ("body", body)]
    for part, template in parts:
        if template is None:
            continue
        line = lines.of(part.partition(".")[2] or part)
        for name in unknown_placeholders(template):
            issues.add(line, part, f"unknown placeholder {{{name}}}; the placeholders: {known}")
    if body is not None and environment_names(body):
        issues.add(lines.of("body"), "body", "${ENV_NAME} only in the url and the headers")
    if body is not None and json_body and not unknown_placeholders(body):
        try:
            json.loads(fill(body, _SAMPLE, "json"))
        except json.JSONDecodeError as exc:
            issues.add(lines.of("body"), "body", f"not JSON once filled in: {exc}")


def _mapping(response: Any, lines: _KeyLines, issues: Issues) -> Mapping | None:
    line = lines.of("response")
    if not isinstance(response, dict):
        issues.add(line, "response", "a [response] table with hits, id and score is needed")
        return None
    sources: dict[str, str] = {}
    for key, value in response.items():
        where = lines.of(key, after=line)
        if key not in FIELDS:
            issues.add(where, f"response.{key}", f"unknown key; the keys are {', '.join(FIELDS)}")
        elif not isinstance(value, str):
            issues.add(where, f"response.{key}", "a JMESPath expression in quotes")
        else:
            try:
                Mapping.of({key: value})
                sources[key] = value
            except ValueError as exc:
                issues.add(where, f"response.{key}", str(exc))
    for key in REQUIRED:
        if key not in response:
            issues.add(line, f"response.{key}", "missing (a JMESPath expression)")
    return None if issues else Mapping.of(sources)


class _KeyLines:
    """The 1-based line of a key (or ``[table]``) in the file's text; 0 when not found."""

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines()

    def of(self, key: str, *, after: int = 0) -> int:
        name = re.escape(key)
        pattern = re.compile(rf"^\s*(\[\s*{name}\s*\]|\"?{name}\"?\s*=)")
        for number, line in enumerate(self._lines[after:], start=after + 1):
            if pattern.match(line):
                return number
        return 0
