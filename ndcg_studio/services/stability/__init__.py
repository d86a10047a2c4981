"""Stability: would the decision change under other grades (annotators, sources, consensus rules)?

- :mod:`.service` — the use case: nDCG@K under every grade set, its spread and the run orders;
- :mod:`.sets` — the grade sets built from loaded scoring data (no database);
- :mod:`.report` — what it reports: kinds, sources, spread, tau matrix and flipped pairs.
"""
