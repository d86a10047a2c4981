"""``ndcg-studio eval``: trec_eval's measures of a run file against a qrels file, no database.

- :mod:`.measures` — the measures as trec_eval names them: which exist, how ``-m`` reads;
- :mod:`.evaluate` — evaluating the parsed files (trec_eval's printed lines come from
  ``measures.Evaluation.lines``);
- :mod:`.tables` — the score tables behind the measures.
"""
