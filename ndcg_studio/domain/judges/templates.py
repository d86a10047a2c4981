"""Prompt templates of machine judges: named fields, a grade scale, its map onto 0–4, how the
answer is read, and a hash that names the template in each label's provenance.

A template is a TOML document (``tomllib``)::

    name = "my-prompt"
    citation = "where the prompt comes from"
    scale = [0, 1, 2]                  # the grades the prompt asks for
    grade_map = { 0 = 0, 1 = 2, 2 = 3 }  # each onto the product's 0..4
    answer = "json"                    # or "final-score" (see domain.judges.answers)
    max_tokens = 50                    # the answer's budget (also the token estimate)
    system = "optional system message"
    user = "... {query} ... {title} {text} ..."

Fields are written ``{name}``: ``query`` (the query's text), ``description`` and ``narrative``
(the topics file's, empty when it had none), ``title`` and ``text`` (the document's). Other
braces are left as they are (a JSON example in a prompt needs no escaping); ``{word}`` naming no
field is refused. A line in which every field is empty is left out, so a prompt that uses the
description reads well for queries that have none.

The hash (:attr:`Template.digest`) is SHA-256 over the canonical JSON of what is sent and how the
answer is read (system, user, scale, map, answer kind, max_tokens) — not the name or citation, so
renaming a template does not make a resumed job ask again.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field

from ndcg_studio.domain.judges.answers import ANSWER_KINDS, Reading, read_grade

__all__ = [
    "FIELDS",
    "SHIPPED",
    "Template",
    "TemplateProblem",
    "parse_template",
    "shipped_template",
]

#: The named fields a template may use.
FIELDS = ("query", "description", "narrative", "title", "text")

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class TemplateProblem(ValueError):
    """A template that cannot be used: ``line`` (1-based, 0 when none applies), ``field`` and
    what is wrong; the io layer adds the file's name."""

    def __init__(self, line: int, field_name: str, message: str) -> None:
        super().__init__(f"{line}: {field_name}: {message}")
        self.line = line
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class Template:
    """One prompt template (see the module docstring).

    Attributes:
        name, citation: how it is shown; not part of the hash.
        user, system: the messages, with ``{field}`` placeholders.
        scale: the template's grades, ascending, distinct.
        grade_map: each grade of ``scale`` onto the product's 0..4.
        answer: one of :data:`~ndcg_studio.domain.judges.answers.ANSWER_KINDS`.
        max_tokens: the answer's budget in tokens (>= 1).
    """

    name: str
    user: str
    scale: tuple[int, ...]
    grade_map: Mapping[int, int]
    answer: str
    max_tokens: int = 100
    system: str = ""
    citation: str = ""
    fields: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        used = [m for part in (self.system, self.user) for m in _FIELD.findall(part)]
        object.__setattr__(self, "fields", tuple(dict.fromkeys(used)))

    @property
    def digest(self) -> str:
        """SHA-256 (64 hex digits) of what is sent and how the answer is read."""
        canonical = json.dumps(
            {
                "system": self.system,
                "user": self.user,
                "scale": list(self.scale),
                "grade_map": {str(k): v for k, v in sorted(self.grade_map.items())},
                "answer": self.answer,
                "max_tokens": self.max_tokens,
            },
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def render(self, values: Mapping[str, str | None]) -> list[dict[str, str]]:
        """The chat messages for one item: ``[{"role": "system", ...}?, {"role": "user", ...}]``.

        ``values``: field name → text (None or missing: empty). A line whose fields are all
        empty is left out; text outside fields is sent as written.
        """
        messages = []
        if self.system:
            messages.append({"role": "system", "content": _fill(self.system, values)})
        messages.append({"role": "user", "content": _fill(self.user, values)})
        return messages

    def read(self, text: str | None) -> Reading:
        """The answer's grade mapped onto 0..4 (see
        :func:`~ndcg_studio.domain.judges.answers.read_grade`)."""
        reading = read_grade(text, self.answer, self.scale)
        if reading.grade is None:
            return reading
        return Reading(int(self.grade_map[reading.grade]))


def _fill(text: str, values: Mapping[str, str | None]) -> str:
    out = []
    for line in text.split("\n"):
        names = _FIELD.findall(line)
        known = [n for n in names if n in FIELDS]
        if known and not any((values.get(n) or "").strip() for n in known):
            continue
        out.append(_FIELD.sub(lambda m: _value(m, values), line))
    return "\n".join(out)


def _value(match: re.Match[str], values: Mapping[str, str | None]) -> str:
    name = match.group(1)
    return (values.get(name) or "") if name in FIELDS else match.group(0)


def _line_of(text: str, key: str) -> int:
    """The 1-based line where ``key = ...`` is written (0 if nowhere)."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=", re.MULTILINE)
    found = pattern.search(text)
    return text.count("\n", 0, found.start()) + 1 if found else 0


def parse_template(text: str, default_name: str = "template") -> Template:
    """Parse a TOML template (see the module docstring).

    Raises:
        TemplateProblem: TOML that does not parse (its line), a missing or wrong key, a grade of
            ``scale`` without a map onto 0..4 or mapped outside 0..4, an unknown answer kind, a
            ``{word}`` that names no field, a ``user`` message without ``{text}``.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise TemplateProblem(int(line.group(1)) if line else 0, "toml", str(exc)) from None

    def problem(key: str, message: str) -> TemplateProblem:
        return TemplateProblem(_line_of(text, key), key, message)

    for key in ("user", "scale", "grade_map", "answer"):
        if key not in data:
            raise TemplateProblem(0, key, "missing")
    unknown = sorted(set(data) - {*Template.__dataclass_fields__} - {"fields"})
    if unknown or "fields" in data:
        raise problem((unknown or ["fields"])[0], "unknown key")
    for key in ("user", "system", "name", "citation"):
        if key in data and not isinstance(data[key], str):
            raise problem(key, "must be a string")
    scale = data["scale"]
    if not (
        isinstance(scale, list)
        and scale
        and all(isinstance(g, int) and not isinstance(g, bool) for g in scale)
        and sorted(set(scale)) == scale
    ):
        raise problem("scale", "must be a list of distinct integers, ascending")
    grade_map = _grade_map(data["grade_map"], scale, problem)
    if data["answer"] not in ANSWER_KINDS:
        raise problem("answer", f"must be one of {', '.join(ANSWER_KINDS)}")
    max_tokens = data.get("max_tokens", 100)
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise problem("max_tokens", "must be an integer >= 1")
    for key in ("system", "user"):
        for name in _FIELD.findall(data.get(key, "")):
            if name not in FIELDS:
                raise problem(key, f"{{{name}}} names no field (fields: {', '.join(FIELDS)})")
    if "{text}" not in data["user"]:
        raise problem("user", "must contain {text} (the document)")
    return Template(
        name=str(data.get("name", default_name)),
        user=data["user"],
        system=str(data.get("system", "")),
        scale=tuple(scale),
        grade_map=grade_map,
        answer=str(data["answer"]),
        max_tokens=max_tokens,
        citation=str(data.get("citation", "")),
    )


def _grade_map(raw: object, scale: list[int], problem: object) -> dict[int, int]:
    assert callable(problem)
    if not isinstance(raw, dict):
        raise problem("grade_map", "must be a table such as { 0 = 0, 1 = 2 }")
    out: dict[int, int] = {}
    for key, value in raw.items():
        try:
            grade = int(key)
        except ValueError:
            raise problem("grade_map", f"key {key!r} is not an integer grade") from None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 4:
            raise problem("grade_map", f"{key} = {value!r}: must map onto 0..4")
        out[grade] = value
    if sorted(out) != scale:
        raise problem("grade_map", f"must map exactly the grades of the scale {scale}")
    return out


def shipped_template(name: str) -> Template:
    """One of the :data:`SHIPPED` templates by name.

    Raises:
        KeyError: an unknown name.
    """
    return parse_template(SHIPPED[name], name)


_UMBRELA = '''
name = "umbrela"
citation = """UMBRELA: Upadhyay, Pradeep, Thakur, Craswell & Lin (2024), "UMBRELA: UMbrela is the \
(Open-Source Reproduction of the) Bing RELevance Assessor", arXiv:2406.06519; prompt as in \
github.com/castorini/umbrela (zero-shot). TREC DL's 0-3 grades map onto 0-3 unchanged."""
scale = [0, 1, 2, 3]
grade_map = { 0 = 0, 1 = 1, 2 = 2, 3 = 3 }
answer = "final-score"
max_tokens = 100
user = """Given a query and a passage, you must provide a score on an integer scale of 0 to 3 \
with the following meanings:
0 = represent that the passage has nothing to do with the query,
1 = represents that the passage seems related to the query but does not answer it,
2 = represents that the passage has some answer for the query, but the answer may be a bit \
unclear, or hidden amongst extraneous information and
3 = represents that the passage is dedicated to the query and contains the exact answer.

Important Instruction: Assign category 1 if the passage is somewhat related to the topic but \
not completely, category 2 if passage presents something very important related to the entire \
topic but also has some extra information and category 3 if the passage only and entirely refers \
to the topic. If none of the above satisfies give it category 0.

Query: {query}
Passage: {title} {text}

Split this problem into steps:
Consider the underlying intent of the search.
Measure how well the content matches a likely intent of the query (M).
Measure how trustworthy the passage is (T).
Consider the aspects above and the relative importance of each, and decide on a final score \
(O). Final score must be an integer value only.
Do not provide any code in result. Provide each score in the format of: ##final score: score \
without providing any reasoning."""
'''

_THOMAS = '''
name = "thomas"
citation = """Thomas, Spielman, Craswell & Mitra (2024), "Large language models can accurately \
predict searcher preferences", SIGIR 2024 (arXiv:2309.10621, 2023), the prompt with \
description, narrative and aspects (M, T, O); the answer asked as a JSON object {"grade": O} \
instead of an array. Its 0-2 grades map onto 0, 2 (relevant), 3 (highly relevant)."""
scale = [0, 1, 2]
grade_map = { 0 = 0, 1 = 2, 2 = 3 }
answer = "json"
max_tokens = 50
system = "You are a search quality rater evaluating the relevance of web pages."
user = """Given a query and a web page, you must provide a score on an integer scale of 0 to 2 \
with the following meanings:
2 = highly relevant, very helpful for this query
1 = relevant, may be partly helpful but might contain other irrelevant content
0 = not relevant, should never be shown for this query
Assume that you are writing a report on the subject of the topic. If you would use any of the \
information contained in the web page in such a report, mark it 1. If the web page is primarily \
about the topic, or contains vital information about the topic, mark it 2. Otherwise, mark it 0.

Query
A person has typed [{query}] into a search engine.
They were looking for: {description}
{narrative}

Result
Consider the following web page.
—BEGIN WEB PAGE CONTENT—
{title}
{text}
—END WEB PAGE CONTENT—

Instructions
Split this problem into steps:
Consider the underlying intent of the search.
Measure how well the content matches a likely intent of the query (M).
Measure how trustworthy the web page is (T).
Consider the aspects above and the relative importance of each, and decide on a final score (O).
Produce a JSON object without providing any reasoning: {"grade": O}"""
'''

#: The shipped templates' TOML, by name (each cites its source).
SHIPPED: dict[str, str] = {"umbrela": _UMBRELA, "thomas": _THOMAS}
