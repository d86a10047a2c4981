"""Imports: every file kind in one transaction — all of it is written, or nothing.

- :mod:`.service` — the use cases, one per file kind (runs, qrels, judgments, queries, documents,
  topics);
- :mod:`.steps` — the steps they share (checking the file, the catalogue, the summary);
- :mod:`.pieces` — a large run or qrels file imported piece by piece while it is read.

Split because a chunked import has its own life (a reader thread, staged ids) that the small
imports never need.
"""
