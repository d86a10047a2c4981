"""Presets: the request and the answer's mapping of four engines, from a base URL, an index (or
collection) and a query template, so an endpoint file needs only a few lines.

=================  ==========================================  ==========================
preset             request                                     hits, id, score
=================  ==========================================  ==========================
``elasticsearch``  ``POST {base_url}/{index}/_search``, JSON   ``hits.hits``, ``_id``,
``opensearch``     ``{"size": k, "query": QUERY}``             ``_score``
``solr``           ``GET {base_url}/{index}/select?q=QUERY``   ``response.docs``, ``id``,
                   ``&rows=k&fl=*,score&wt=json``              ``score``
``vespa``          ``POST {base_url}/search/``, JSON           ``root.children``, ``id``,
                   ``{"yql": …, "query": …, "hits": k}``       ``relevance``
=================  ==========================================  ==========================

``QUERY`` is the file's ``query`` key: for Elasticsearch and OpenSearch a JSON query clause
(default a ``multi_match`` of the query's text over every field), for Solr the ``q`` parameter
(default the query's text; ``defType``, ``qf`` … go in ``params``), for Vespa the user query
(default the query's text, with ``yql`` and ``ranking`` keys of their own). Whatever the file
gives itself (``url``, ``method``, ``body``, ``headers``, a ``[response]`` key) overrides the
preset's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

__all__ = ["PRESETS", "PRESET_KEYS", "preset_fields"]

#: The engines with a preset.
PRESETS = ("elasticsearch", "opensearch", "solr", "vespa")

#: The keys a preset reads besides ``base_url`` (which every preset needs).
PRESET_KEYS = ("index", "collection", "query", "params", "yql", "ranking")

_MULTI_MATCH = '{"multi_match": {"query": "{query_text}"}}'
_VESPA_YQL = "select * from sources * where userQuery()"


def _url_part(text: str) -> str:
    """``text`` URL-encoded except its ``{placeholders}`` (filled and encoded per query)."""
    return quote(text, safe="{}")


def preset_fields(preset: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The request and ``response`` table the preset gives for the endpoint file ``spec``.

    Raises:
        KeyError: ``base_url``, or the index of an engine that needs one, is missing (the
            key's name is the error's argument).
    """
    base = str(spec["base_url"]).rstrip("/")
    if preset in ("elasticsearch", "opensearch"):
        index = spec.get("index") or spec.get("collection")
        if not index:
            raise KeyError("index")
        query = spec.get("query", _MULTI_MATCH)
        return {
            "url": f"{base}/{index}/_search",
            "method": "POST",
            "headers": {"Content-Type": "application/json"},
            "body": '{"size": {k}, "query": ' + query + "}",
            "response": {"hits": "hits.hits", "id": "_id", "score": "_score"},
        }
    if preset == "solr":
        collection = spec.get("collection") or spec.get("index")
        if not collection:
            raise KeyError("collection")
        params = {"q": spec.get("query", "{query_text}"), "rows": "{k}", "fl": "*,score"}
        params.update({str(k): str(v) for k, v in dict(spec.get("params", {})).items()})
        params["wt"] = "json"
        query_string = "&".join(f"{_url_part(k)}={_url_part(v)}" for k, v in params.items())
        return {
            "url": f"{base}/{collection}/select?{query_string}",
            "method": "GET",
            "headers": {},
            "body": None,
            "response": {"hits": "response.docs", "id": "id", "score": "score"},
        }
    if preset == "vespa":
        body: dict[str, Any] = {
            "yql": spec.get("yql", _VESPA_YQL),
            "query": "QUERY",
            "hits": "K",
        }
        if spec.get("ranking"):
            body["ranking"] = spec["ranking"]
        query = '"' + spec.get("query", "{query_text}") + '"'
        text = json.dumps(body, ensure_ascii=False).replace('"QUERY"', query)
        return {
            "url": f"{base}/search/",
            "method": "POST",
            "headers": {"Content-Type": "application/json"},
            "body": text.replace('"K"', "{k}"),
            # Vespa leaves out "children" when nothing matched
            "response": {"hits": "root.children || `[]`", "id": "id", "score": "relevance"},
        }
    raise ValueError(f"no preset {preset!r}")
