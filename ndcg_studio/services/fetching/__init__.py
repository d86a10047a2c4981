"""Fetching runs from a live search engine (``fetch-run``): each query is sent to the endpoint
of an endpoint file and the engine's ranked lists are stored as a run through the run import.

Split into the HTTP exchange of one query with its time-out, retries, back-off and
``Retry-After`` (:mod:`~ndcg_studio.services.fetching.sender`), the journal that keeps every
fetched list on disk so that a killed fetch continues where it stopped
(:mod:`~ndcg_studio.services.fetching.journal`), and the use case that sends the queries in
parallel at a bounded rate and stores the run (:mod:`~ndcg_studio.services.fetching.service`).
"""
