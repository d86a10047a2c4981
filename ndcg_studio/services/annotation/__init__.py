"""Annotation: annotators grade a query's pooled documents, blind, one undoable edit at a time.

- :mod:`.service` — the use cases: annotators, the blind pool of a query, grades, notes, history;
- :mod:`.types` — the values they return (frozen dataclasses that cross threads);
- :mod:`.pool_order` — the order of a query's pool (shuffled, or "what decides A vs B");
- :mod:`.next_unjudged` — where "Next unjudged" goes;
- :mod:`.edits` — grades, notes and adjudications as undoable values (no Qt).

Split so that the pure rules (order, next, edits) are read and tested without a database.
"""
