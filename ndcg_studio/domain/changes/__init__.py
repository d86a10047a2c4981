"""What changed between two ranked lists of one query (two snapshots of a fetched run, or any two
runs): how much of the top K they share and which documents entered and left it
(:mod:`~ndcg_studio.domain.changes.overlap`), and rank-biased overlap, the top-weighted
similarity of Webber, Moffat & Zobel (:mod:`~ndcg_studio.domain.changes.rbo`), kept apart
because it is one paper's family of formulas with its own parameter and bounds.
"""
