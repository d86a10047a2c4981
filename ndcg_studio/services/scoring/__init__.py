"""Scoring: nDCG@K and its parts for every (query, run) of a database, and what is said about them.

- :mod:`.service` — the use cases: score, summarise, compare two runs, one (query, run) in parts;
- :mod:`.load` — one scoring's data read from storage and mapped to dense indices;
- :mod:`.settings` — what to score and how (K, gain, ideal, consensus; trec_eval's defaults);
- :mod:`.report` — the score report: columns, rows, summaries;
- :mod:`.incomplete` — measures for incomplete judgments over the database;
- :mod:`.multirun` — N runs compared (ANOVA, corrected pairwise tests).

Split along the data flow: settings → load → measures (domain) → report.
"""
