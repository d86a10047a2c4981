"""File formats: reading and writing what search teams exchange, with no database.

TREC runs and qrels (:mod:`~ndcg_studio.io.trec`), CSV/TSV judgments, queries and documents
(:mod:`~ndcg_studio.io.tabular`, :mod:`~ndcg_studio.io.judgments_csv`), TREC topics, SMART
(Cranfield), campaign files, and the writers of CSV, Excel and TREC files (all atomic). Readers
never stop at the first problem: errors name file, line and field. The machinery every reader
shares is in :mod:`~ndcg_studio.io.reading`.
"""
