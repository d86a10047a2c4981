"""Compare: two runs (or N) on the same queries — which is better, by how much, and is it decided.

- :mod:`.view` — two runs: their means with intervals, per-query deltas, the pool verdict;
- :mod:`.matrix` — N runs: the matrix of pairwise differences with corrected marks;
- :mod:`.changes` — what changed from A to B (overlap@K, RBO, entered and left documents);
- :mod:`.text` — its sentences in the interface language.
"""
