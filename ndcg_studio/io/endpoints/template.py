"""Templates of an endpoint's request: ``{placeholder}`` filled with a query's values, and
``${ENV_NAME}`` with an environment variable (credentials, read when sent, never stored).

A placeholder's value is JSON-escaped inside a JSON body (the template writes the quotes:
``"query": "{query_text}"``), URL-encoded inside a URL, and put as it is elsewhere (a header).
Only ``{name}`` with a name of letters, digits and ``_`` is a placeholder, so JSON's own braces
(``{"size": {k}}``) are left alone.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Literal
from urllib.parse import quote

__all__ = [
    "PLACEHOLDERS",
    "MissingVariable",
    "environment_names",
    "fill",
    "fill_environment",
    "unknown_placeholders",
]

#: The placeholders a template may use, filled per query.
PLACEHOLDERS = ("query_text", "query_id", "k", "description")

_PLACEHOLDER = re.compile(r"(?<!\$)\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ENVIRONMENT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

Context = Literal["json", "url", "text"]


class MissingVariable(KeyError):
    """An ``${ENV_NAME}`` of the endpoint file is not set in the environment."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def unknown_placeholders(template: str) -> list[str]:
    """The ``{name}`` placeholders of ``template`` that are not in :data:`PLACEHOLDERS`."""
    return [m.group(1) for m in _PLACEHOLDER.finditer(template) if m.group(1) not in PLACEHOLDERS]


def environment_names(template: str) -> list[str]:
    """The ``${ENV_NAME}`` names used in ``template``."""
    return _ENVIRONMENT.findall(template)


def fill(template: str, values: Mapping[str, object], context: Context) -> str:
    """``template`` with each known placeholder replaced by its value, escaped for ``context``.

    ``${ENV_NAME}`` is left as it is (see :func:`fill_environment`); a value of None fills in
    the empty string.
    """

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in PLACEHOLDERS:
            return match.group(0)
        value = values.get(name)
        text = "" if value is None else str(value)
        if context == "json":
            return json.dumps(text, ensure_ascii=False)[1:-1]
        if context == "url":
            return quote(text, safe="")
        return text

    return _PLACEHOLDER.sub(one, template)


def fill_environment(template: str, environ: Mapping[str, str] | None = None) -> str:
    """``template`` with every ``${ENV_NAME}`` replaced by that variable's value.

    Raises:
        MissingVariable: a named variable is not set.
    """
    env = os.environ if environ is None else environ

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            raise MissingVariable(name)
        return env[name]

    return _ENVIRONMENT.sub(one, template)
