"""Endpoint files: the presets' requests, their mapping checked against responses copied from
each engine's documentation (tests/data/engines, the source named in each file), the filling of
templates, and the refusals of bad files."""

from __future__ import annotations

import email.utils
import json
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from ndcg_studio.io.endpoints.file import Endpoint, read_endpoint
from ndcg_studio.io.endpoints.template import fill, fill_environment
from ndcg_studio.io.errors import InputFileError
from ndcg_studio.services.fetching.sender import retry_after

ENGINES = Path(__file__).resolve().parents[1] / "data" / "engines"
QUERY = {"query_text": 'wing "slip" stream & ärö', "query_id": "7", "k": 10}


def endpoint(tmp_path: Path, text: str) -> Endpoint:
    path = tmp_path / "engine.toml"
    path.write_text(text, encoding="utf-8")
    return read_endpoint(path)


def answer(name: str) -> object:
    return json.loads((ENGINES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("preset", "fixture", "ranked"),
    [
        ("elasticsearch", "elasticsearch", [("0", 1.3862942)]),
        ("opensearch", "opensearch", [("41", 1.0), ("51", 1.0)]),
        ("solr", "solr", [("VS1GB400C3", 2.3025851)]),
        (
            "vespa",
            "vespa",
            [
                ("id:mynamespace:music::a-head-full-of-dreams", 0.16343879032006284),
                ("id:mynamespace:music::hardwired-to-self-destruct", 0.12007930105463492),
            ],
        ),
        ("vespa", "vespa-empty", []),
    ],
)
def test_each_presets_mapping_reads_its_engines_documented_answer(
    tmp_path: Path, preset: str, fixture: str, ranked: list[tuple[str, float]]
) -> None:
    found = endpoint(tmp_path, f'preset = "{preset}"\nbase_url = "http://h:1"\nindex = "i"\n')
    hits = found.mapping.hits(answer(fixture))
    assert [(h.doc_id, h.score) for h in hits] == ranked


def test_the_mapping_can_be_extended_with_titles_and_texts(tmp_path: Path) -> None:
    es = endpoint(
        tmp_path,
        'preset = "elasticsearch"\nbase_url = "http://h:1"\nindex = "i"\n'
        '[response]\ntitle = "_source.message"\ntext = "_source.user.id"\n',
    )
    (hit,) = es.mapping.hits(answer("elasticsearch"))
    assert (hit.title, hit.text) == ("GET /search HTTP/1.1 200 1070000", "kimchy")
    solr = endpoint(
        tmp_path, 'preset = "solr"\nbase_url = "http://h:1/solr"\ncollection = "c"\n'
        '[response]\ntitle = "name"\n'
    )  # fmt: skip
    (hit,) = solr.mapping.hits(answer("solr"))
    assert hit.title is not None and hit.title.startswith("CORSAIR ValueSelect 1GB")


def test_the_elasticsearch_request_is_json_with_the_query_escaped(tmp_path: Path) -> None:
    es = endpoint(
        tmp_path,
        'preset = "opensearch"\nbase_url = "https://h:9200/"\nindex = "cran"\n'
        'query = \'{"match": {"text": "{query_text}"}}\'\n',
    )
    assert (es.url, es.method, es.engine) == ("https://h:9200/cran/_search", "POST", "opensearch")
    assert es.body is not None
    body = json.loads(fill(es.body, QUERY, "json"))
    assert body == {"size": 10, "query": {"match": {"text": QUERY["query_text"]}}}


def test_the_solr_request_is_a_get_with_the_query_url_encoded(tmp_path: Path) -> None:
    solr = endpoint(
        tmp_path,
        'preset = "solr"\nbase_url = "http://h:8983/solr"\ncollection = "cran"\n'
        '[params]\ndefType = "edismax"\nqf = "title^2 text"\n',
    )
    assert solr.method == "GET" and solr.body is None
    url = urlsplit(fill(solr.url, QUERY, "url"))
    assert url.path == "/solr/cran/select"
    assert parse_qs(url.query) == {
        "q": [QUERY["query_text"]],
        "rows": ["10"],
        "fl": ["*,score"],
        "defType": ["edismax"],
        "qf": ["title^2 text"],
        "wt": ["json"],
    }


def test_the_vespa_request_carries_yql_query_hits_and_ranking(tmp_path: Path) -> None:
    vespa = endpoint(
        tmp_path,
        'preset = "vespa"\nbase_url = "http://h:8080"\nranking = "bm25"\n'
        'yql = "select * from doc where userQuery()"\n',
    )
    assert vespa.url == "http://h:8080/search/" and vespa.body is not None
    assert json.loads(fill(vespa.body, QUERY, "json")) == {
        "yql": "select * from doc where userQuery()",
        "query": QUERY["query_text"],
        "hits": 10,
        "ranking": "bm25",
    }


def test_the_file_overrides_what_the_preset_gives(tmp_path: Path) -> None:
    es = endpoint(
        tmp_path,
        'preset = "elasticsearch"\nbase_url = "http://h:1"\nindex = "i"\n'
        'url = "http://proxy:2/i/_search"\n[response]\nid = "_source.docno"\n',
    )
    assert es.url == "http://proxy:2/i/_search"
    assert es.mapping.sources["id"] == "_source.docno" and es.mapping.sources["hits"] == "hits.hits"


def test_the_template_hash_changes_with_the_request_not_with_the_environment(
    tmp_path: Path,
) -> None:
    text = 'url = "http://h/s?q={query_text}&key=${KEY}"\n[response]\nhits="a"\nid="b"\nscore="c"\n'
    one = endpoint(tmp_path, text).template_hash()
    assert endpoint(tmp_path, text).template_hash() == one
    assert endpoint(tmp_path, text.replace('"c"', '"d"')).template_hash() != one
    assert fill_environment("key=${KEY}", {"KEY": "k1"}) == "key=k1"


MAP = '[response]\nhits="a"\nid="b"\nscore="c"\n'
POST = 'url = "http://h"\nmethod = "POST"\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "bing"\n', "engine.toml:1: preset: 'bing': one of elasticsearch"),
        ('preset = "solr"\n', "engine.toml:1: base_url: the solr preset needs it"),
        (
            'preset = "elasticsearch"\nbase_url = "http://h"\n',
            "engine.toml:1: index: the elasticsearch preset",
        ),
        ('url = "ftp://h"\n' + MAP, "engine.toml:1: url: an http:// or https://"),
        (
            POST + 'body = \'{"q": "${KEY}"}\'\n' + MAP,
            "engine.toml:3: body: ${ENV_NAME} only in the url and the headers",
        ),
        (POST + "body = '{\"q\": {query_text}}'\n" + MAP, "engine.toml:3: body: not JSON once"),
        ('url = "http://h"\n', "engine.toml:0: response: a [response] table with hits, id"),
        ('url = "http://h"\n' + MAP + 'rank="d"\n', "engine.toml:6: response.rank: unknown key"),
        ('url = "http://h"\nurl = "http://i"\n', "engine.toml:2: toml: Cannot overwrite a value"),
    ],
)
def test_a_bad_file_names_line_and_field(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputFileError) as caught:
        endpoint(tmp_path, text)
    assert message in str(caught.value)


def test_fill_escapes_for_json_and_url_and_leaves_json_braces_alone() -> None:
    template = '{"q": "{query_text}", "n": {k}, "id": "{query_id}", "env": "${X}"}'
    filled = fill(template, QUERY, "json")
    assert json.loads(filled.replace("${X}", "x"))["q"] == QUERY["query_text"]
    assert (
        fill("/s?q={query_text}", QUERY, "url")
        == "/s?q=wing%20%22slip%22%20stream%20%26%20%C3%A4r%C3%B6"
    )


def test_retry_after_reads_seconds_and_http_dates() -> None:
    now = time.time()
    assert retry_after("3") == 3.0
    when = retry_after(email.utils.formatdate(now + 10, usegmt=True), now)
    assert when is not None and 8.5 <= when <= 10.5
    assert retry_after(email.utils.formatdate(now - 10, usegmt=True), now) == 0.0
    assert retry_after("soon") is None and retry_after(None) is None
