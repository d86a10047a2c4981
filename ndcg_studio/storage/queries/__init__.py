"""Reads of the database, one module per concept; the services call these and never write SQL.

- :mod:`.names` — names and texts by database id: runs, annotators, queries, documents;
- :mod:`.scoring_input` — results and judgments as numpy arrays for scoring;
- :mod:`.judgments` — every judgment for agreement and exports, adjudications;
- :mod:`.pools` — a query's pool positions for the Annotate order;
- :mod:`.activity` — an item's judgment history, change markers, team progress.

Every function takes a ``Connection`` opened by the caller (the service owns the connection or
transaction, so that several reads of one use case share it) and returns numpy arrays,
dataclasses or plain tuples — never rows of SQLAlchemy. Bulk reads go through
:func:`ndcg_studio.storage.bulk.columns.fetch_array`, which keeps the dialect-specific fast path.
"""
