"""TREC's text formats as trec_eval reads them: runs (``qid Q0 docno rank score tag``) and qrels.

- :mod:`.readers` — the run and qrels readers of the import (whole files or pieces);
- :mod:`.columns` — the same files as byte columns for ``ndcg-studio eval`` (no database, no Python
  object per line);
- :mod:`.ranks` — the rank column, kept where it can order the run, never refused;
- :mod:`.writers` — run and qrels writers (atomic).

Split by who reads: the import keeps ids and text, ``eval`` only compares bytes.
"""
