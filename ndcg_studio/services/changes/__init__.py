"""What changed between two runs (two snapshots of a fetched run, or any two runs): per query and
overall, the overlap of their top K, rank-biased overlap, the documents that entered and left the
top K and the change of nDCG@K (:mod:`~ndcg_studio.services.changes.service`), the use case over
the pure measures of :mod:`ndcg_studio.domain.changes`; the campaign of the documents that
entered unjudged is made by the same service.
"""
