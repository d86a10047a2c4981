"""Compare: two runs (or N) on the same queries — which is better, by how much, and is it decided.

- :mod:`.view` — two runs: their means with intervals, per-query deltas, the pool verdict;
- :mod:`.matrix` — N runs: the matrix of pairwise differences with corrected marks;
- :mod:`.text` — its sentences in the interface language.
"""
