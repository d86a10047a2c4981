"""Review (for analysts): nDCG@K of every (query, run) with its band, the per-run means, filters.

- :mod:`.view` — the view: the table, the per-run means, the charts;
- :mod:`.filters` — the filter bar (text, run, band, disputed, judged@K; whose grades);
- :mod:`.condensed` — the "nDCG vs nDCG′" page (holes in the judgments);
- :mod:`.text` — its sentences in the interface language.
"""
