"""Endpoint files: how to ask a live search engine for a query's ranked list (``fetch-run``).

An endpoint file is TOML naming the request (URL, method, headers, a body template) and a mapping
of the engine's JSON answer to ranked hits (JMESPath expressions). It is split into the file's
reading and checking (:mod:`~ndcg_studio.io.endpoints.file`), the presets that fill in the request
and mapping of Elasticsearch, OpenSearch, Solr and Vespa (:mod:`~ndcg_studio.io.endpoints.presets`),
the filling of the templates with a query's values (:mod:`~ndcg_studio.io.endpoints.template`) and
the reading of hits out of an answer (:mod:`~ndcg_studio.io.endpoints.mapping`). No network here.
"""
