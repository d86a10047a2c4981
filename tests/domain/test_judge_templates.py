"""Machine-judge templates and answers: the shipped templates, fields, the hash, reading
UMBRELA's and JSON answers, and templates refused with their line and field."""

from __future__ import annotations

import pytest

from ndcg_studio.domain.judges.answers import read_grade
from ndcg_studio.domain.judges.templates import (
    FIELDS,
    SHIPPED,
    TemplateProblem,
    parse_template,
    shipped_template,
)
from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.judge_files import read_pairs, read_template

ITEM = {"query": "how tall is k2", "title": "K2", "text": "K2 is 8,611 m high."}


def test_shipped_templates_cite_their_source_and_map_onto_0_to_4() -> None:
    umbrela, thomas = shipped_template("umbrela"), shipped_template("thomas")
    assert "arXiv:2406.06519" in umbrela.citation
    assert "predict searcher preferences" in thomas.citation
    assert umbrela.scale == (0, 1, 2, 3) and umbrela.answer == "final-score"
    assert dict(thomas.grade_map) == {0: 0, 1: 2, 2: 3} and thomas.answer == "json"
    assert set(SHIPPED) == {"umbrela", "thomas"}
    from ndcg_studio.cli.judge import SHIPPED_PROMPTS

    assert set(SHIPPED_PROMPTS) == set(SHIPPED)


def test_render_fills_fields_and_drops_lines_whose_fields_are_all_empty() -> None:
    t = shipped_template("thomas")
    text = t.render({**ITEM, "description": None, "narrative": ""})[1]["content"]
    assert "A person has typed [how tall is k2] into a search engine." in text
    assert "They were looking for" not in text  # no description: the line is left out
    assert "K2 is 8,611 m high." in text
    assert '{"grade": O}' in text  # other braces are sent as written
    with_desc = t.render({**ITEM, "description": "the height of K2"})[1]["content"]
    assert "They were looking for: the height of K2" in with_desc
    assert t.render(ITEM)[0] == {"role": "system", "content": t.system}


def test_hash_names_what_is_sent_not_the_name() -> None:
    base = shipped_template("umbrela")
    renamed = parse_template(SHIPPED["umbrela"].replace('name = "umbrela"', 'name = "x"'))
    assert renamed.digest == base.digest and len(base.digest) == 64
    changed = parse_template(SHIPPED["umbrela"].replace("max_tokens = 100", "max_tokens = 99"))
    assert changed.digest != base.digest


@pytest.mark.parametrize(
    ("text", "kind", "scale", "grade", "problem"),
    [
        ("##final score: 2", "final-score", (0, 1, 2, 3), 2, None),
        ("M: 2, T: 1\n##Final Score: 3", "final-score", (0, 1, 2, 3), 3, None),
        ("##final score: 1 ... ##final score: 0", "final-score", (0, 1, 2, 3), 0, None),
        ("##final score: 7", "final-score", (0, 1, 2, 3), None, "not on the scale"),
        ("##final score: 2.5", "final-score", (0, 1, 2, 3), None, "not an integer"),
        ("##final sc", "final-score", (0, 1, 2, 3), None, "no '##final score"),
        ("", "final-score", (0, 1, 2, 3), None, "empty answer"),
        ('{"grade": 2}', "json", (0, 1, 2), 2, None),
        ('Sure! ```json\n{"grade": "1"}\n```', "json", (0, 1, 2), 1, None),
        ('{"grade": true}', "json", (0, 1, 2), None, "not a number"),
        ('{"grade": 2', "json", (0, 1, 2), None, "no JSON object"),
        ('{"score": 2}', "json", (0, 1, 2), None, "no JSON object"),
    ],
)
def test_read_grade(
    text: str, kind: str, scale: tuple[int, ...], grade: int | None, problem: str | None
) -> None:
    reading = read_grade(text, kind, scale)
    assert reading.grade == grade
    if problem is None:
        assert reading.problem is None
    else:
        assert reading.problem is not None and problem in reading.problem


def test_template_read_maps_onto_0_to_4() -> None:
    assert shipped_template("thomas").read('{"grade": 2}').grade == 3
    assert shipped_template("thomas").read('{"grade": 1}').grade == 2


GOOD = """name = "mine"
scale = [0, 1]
grade_map = { 0 = 0, 1 = 3 }
answer = "json"
user = 'Query {query}. Document {text}. Answer {"grade": 0 or 1}.'
"""


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        (GOOD.replace('answer = "json"', 'answer = "yaml"'), 4, "answer"),
        (GOOD.replace("{query}", "{qurey}"), 5, "user"),
        (GOOD.replace("1 = 3", "1 = 5"), 3, "grade_map"),
        (GOOD.replace("1 = 3 ", "").replace("0 = 0,", "0 = 0"), 3, "grade_map"),
        (GOOD.replace("[0, 1]", "[1, 0]"), 2, "scale"),
        (GOOD.replace("Document {text}.", ""), 5, "user"),
        (GOOD.replace('name = "mine"', "name = "), 1, "toml"),
        (GOOD + "temperature = 3\n", 6, "temperature"),
        ("\n".join(GOOD.splitlines()[:-1]), 0, "user"),
    ],
)
def test_bad_templates_name_line_and_field(text: str, line: int, field: str) -> None:
    with pytest.raises(TemplateProblem) as info:
        parse_template(text)
    assert (info.value.line, info.value.field) == (line, field)


def test_template_file_errors_name_file_line_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.toml"
    path.write_text(GOOD.replace("{query}", "{topic}"), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"p\.toml:5: user: \{topic\} names no field"):
        read_template(path)
    path.write_text(GOOD, encoding="utf-8")
    t = read_template(path)
    assert t.name == "mine" and t.fields == ("query", "text") and set(t.fields) <= set(FIELDS)


def test_pairs_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "pairs.txt"
    path.write_text("# header\nq1 d1\n\nq2 0 d2 3\n", encoding="utf-8")
    assert read_pairs(path) == [("q1", "d1"), ("q2", "d2")]
    path.write_text("q1 d1\nq2 d2 x\nq3\n", encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        read_pairs(path)
    assert [str(i).split(": ")[0] for i in info.value.issues] == [f"{path}:2", f"{path}:3"]
