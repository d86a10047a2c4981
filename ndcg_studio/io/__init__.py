"""File formats: TREC run/qrels, CSV/TSV judgments, queries, documents (CSV/JSONL), SMART."""
