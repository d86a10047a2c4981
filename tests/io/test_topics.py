"""TREC topic files (``import topics``): the classic ``<top>`` form of TREC ad hoc / Robust04 and
its variants, the ``<topic number=…>`` XML form of TREC Web, bad input as FILE:LINE: field."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from ndcg_studio.app import main
from ndcg_studio.io.errors import InputFileError
from ndcg_studio.io.topics import looks_like_topics, read_topics
from ndcg_studio.storage import models
from ndcg_studio.storage.database import open_database

# TREC-8 ad hoc style (topics 401-450 follow it): open tags, labels, fields over several lines
CLASSIC = """
<top>

<num> Number: 301
<title> International Organized Crime

<desc> Description:
Identify organizations that participate in international criminal
activity, the activity, and, if possible, collaborating organizations
and the countries involved.

<narr> Narrative:
A relevant document must as a minimum identify the organization and the
type of illegal activity (e.g., Columbian cartel exporting cocaine).

</top>

<top>
<num> Number: 302 </num>
<title> Topic: Poliomyelitis and
Post-Polio </title>
<smry> Summary:
not kept
<desc>
Is the disease of Poliomyelitis (polio) under control in the world?
</top>
<top lang='bn'>
<num>176</num>
<title>অপরাধ</title>
</top>
"""

XML = """<?xml version="1.0" encoding="UTF-8"?>
<webtrack2009>
<topic number="1" type="faceted">
  <query>obama family tree</query>
  <description>Find information on President Barack Obama's family
  history, including genealogy.
  </description>
  <subtopic number="1" type="nav">
    Find the TIME magazine photo essay "Barack Obama's Family Tree".
  </subtopic>
</topic>
<topic number="2">
  <title>french lick resort and casino</title>
  <narrative>Relevant pages describe the resort.</narrative>
</topic>
</webtrack2009>
"""


def test_classic_topics_with_their_variants(tmp_path: Path) -> None:
    path = tmp_path / "topics.301-302.txt"
    path.write_text(CLASSIC, encoding="utf-8")
    topics = read_topics(path)
    assert topics.query_id == ["301", "302", "176"]
    assert topics.text == ["International Organized Crime", "Poliomyelitis and Post-Polio", "অপরাধ"]
    assert topics.description == [
        "Identify organizations that participate in international criminal activity, the "
        "activity, and, if possible, collaborating organizations and the countries involved.",
        "Is the disease of Poliomyelitis (polio) under control in the world?",
        None,
    ]
    assert topics.narrative[0] is not None and topics.narrative[0].startswith("A relevant")
    assert topics.narrative[0].endswith("exporting cocaine).")
    assert topics.narrative[1:] == [None, None]
    assert topics.line.tolist() == [2, 18, 27]
    assert looks_like_topics(CLASSIC[:200])


def test_xml_topics(tmp_path: Path) -> None:
    path = tmp_path / "wt09.topics.xml"
    path.write_text(XML, encoding="utf-8")
    topics = read_topics(path)
    assert topics.query_id == ["1", "2"]
    assert topics.text == ["obama family tree", "french lick resort and casino"]
    assert topics.description == [
        "Find information on President Barack Obama's family history, including genealogy.",
        None,
    ]
    assert topics.narrative == [None, "Relevant pages describe the resort."]
    assert topics.line.tolist() == [3, 12]
    assert looks_like_topics(XML[:200])
    assert not looks_like_topics("1\tquery one\n2\tquery two\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<top>\n<title> no number\n</top>\n", [":1: num: the topic has no number"]),
        ("<top>\n<num> Number: 7\n</top>\n", [":1: title: topic 7 has no title"]),
        (
            "<top>\n<num> 7\n<title> a\n</top>\n<top>\n<num> 7\n<title> b\n</top>\n",
            [":5: num: topic '7' repeats the topic of line 1"],
        ),
        ("<top>\n<num> 7\n<title> a\n", [":1: topic: <top> without </top>"]),
        ("<num> 7\n", [":1: num: <num> outside <top> … </top>"]),
        (
            "<top>\n<num> 7\n<title> a\n</top>\nstray words\n",
            [":5: topic: text outside <top> … </top>"],
        ),
        (
            "<top>\n<num> 7\n<title> a\n<top>\n<num> 8\n<title> b\n</top>\n",
            [":4: topic: <top> inside a topic: is a </top> missing?"],
        ),
        (
            '<topics>\n<topic number="1">\n<query>a</query>\n</topics>\n',
            [":4: xml: mismatched tag"],
        ),
        (
            "<topics>\n<topic>\n<query>a</query>\n</topic>\n</topics>\n",
            [":2: num: the topic has no number"],
        ),
        ("\n\n", [":1: file: file is empty"]),
    ],
)
def test_bad_topic_files_name_the_line_and_field(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as exc:
        read_topics(path)
    lines = str(exc.value).splitlines()
    assert len(lines) == len(expected)
    for line, want in zip(lines, expected, strict=True):
        assert line.startswith(str(path)) and want in line, line


def test_import_topics_stores_title_description_and_narrative(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "topics.txt"
    good.write_text(CLASSIC, encoding="utf-8")
    assert main(["--db", db_url, "import", "topics", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("<top>\n<num> 999\n<title> new\n</top>\n<top>\n<num> 7\n</top>\n")
    assert main(["--db", db_url, "import", "topics", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:5: title: topic 7 has no title" in err and "Traceback" not in err
    db = open_database(db_url)
    try:
        q = models.queries
        with db.transaction() as s:
            rows = s.execute(
                select(q.c.external_id, q.c.text, q.c.description, q.c.narrative).order_by(
                    q.c.external_id
                )
            ).all()
    finally:
        db.dispose()
    assert [r[0] for r in rows] == ["176", "301", "302"]  # nothing of the bad file
    assert rows[1][1:3] == (
        "International Organized Crime",
        "Identify organizations that participate in international criminal activity, the "
        "activity, and, if possible, collaborating organizations and the countries involved.",
    )
    assert rows[1][3] is not None and rows[2][3] is None
