"""The measures of ranked lists against graded judgments: nDCG@K and its companions.

- :mod:`.measures` — NDCG@K, DCG, IDCG, P@K, recall, AP, RR, ERR, RBP for many ranked lists at
  once, trec_eval's ``ndcg_cut`` semantics by default;
- :mod:`.ideal` — the ideal list of a query's judged documents (IDCG@K) and the discount,
  the one normaliser every nDCG divides by;
- :mod:`.cutoffs` — P, recall, nDCG and AP at many cutoffs K in one pass (``eval``);
- :mod:`.grade_sets` — nDCG of the same lists under several grade sets at once (the spread
  over annotators, sources and consensus rules);
- :mod:`.incomplete` — measures for incomplete judgments (bpref, condensed lists, infAP-style);
- :mod:`.breakdown` — the rank-by-rank DCG and ideal DCG of one list (the Query detail);
- :mod:`.ordering` — the order of a ranked list (trec_eval's tie rule), kept in one home;
- :mod:`.kernels` — the sort and grouping kernels the vectorised measures share.

Split by what a reader looks for: a definition (measures, incomplete, the ideal), every cutoff
at once (cutoffs), every grade set at once (grade_sets), one list explained (breakdown), the
order every measure assumes (ordering), and the numpy machinery (kernels).
"""
