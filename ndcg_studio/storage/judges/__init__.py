"""The SQL of machine judges: which items a job grades, what it has already done, and the one
write of a batch of labels (the provenance row in ``judge_labels`` and, for a graded label, the
judgment through the one writer of judgments, :mod:`ndcg_studio.storage.judgments`).

Split in two: :mod:`~ndcg_studio.storage.judges.items` reads what a job needs before it starts
(the items of a pool, a campaign or a list of pairs, and their texts);
:mod:`~ndcg_studio.storage.judges.labels` writes labels and reads them back (what is done, the
provenance of every model source). Every function works on the caller's ``Connection``.
"""
