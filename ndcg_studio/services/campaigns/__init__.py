"""Judging campaigns: who judges which pooled items, how many times, with gold items mixed in.

- :mod:`.service` — the use cases: create, the queue an annotator draws from, marks, close;
- :mod:`.setup` — checking a campaign's specification and choosing its items;
- :mod:`.order` — the order the queue offers the pool in under a pooling strategy;
- :mod:`.status` — the lead's dashboard, computed from the rows storage reads;
- :mod:`.types` — the values the service takes and returns.

The SQL is in :mod:`ndcg_studio.storage.campaigns`.
"""
