"""Exports: reports, judgments, qrels, agreement and run comparisons as files people open.

- :mod:`.service` — the use cases: what each export kind holds and where it goes;
- :mod:`.tables` — an export before it is written (rows or numpy columns);
- :mod:`.compare` — run comparisons as tables (two runs, or N runs pair by pair).

The file formats themselves: CSV in :mod:`ndcg_studio.io.writers`, xlsx in
:mod:`ndcg_studio.io.workbook`, TREC in :mod:`ndcg_studio.io.trec.writers`.
"""
