"""Estimates of a run's mean score (and of two runs' difference) from many machine grades and few
human ones, with a confidence interval that stays valid however poor the machine is.

The mean over every query of the score under the machine's grades is cheap but biased; the mean
under human grades on a sample of queries is unbiased but wide. Prediction-powered inference
(PPI++, Angelopoulos, Duchi & Zrnic, arXiv:2311.01453) corrects the first by the second: the
machine's mean over all queries, weighted by a power-tuning λ, plus the mean human − λ·machine
difference on the human-judged sample. Active inference (Zrnic & Candès, ICML 2024,
arXiv:2403.03208) lets the product choose which queries the humans judge, with known inclusion
probabilities, and weights by their inverse.

- :mod:`.ppi` — PPI++ for a uniform sample of queries, the human-only interval beside it and the
  rule that says "too few queries" instead of an interval;
- :mod:`.active` — the inverse-probability-weighted variant and the inclusion probabilities
  that choose the queries;
- :mod:`.decision` — the stopping rule: which run pairs are decided, with Holm's correction
  when more than two runs are compared.

Split by how the human queries were chosen (uniformly, or by the product) and by what is said
about the result (a decision); every function is numpy over the last axis, so a simulation
computes thousands of samples at once.
"""
