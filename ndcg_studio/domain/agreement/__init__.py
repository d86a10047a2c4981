"""Inter-annotator agreement on graded judgments: how much, where and who disagrees.

- :mod:`.ratings` — the judgments in long format (item, annotator, grade) and their value codes:
  the one input every statistic below takes;
- :mod:`.alpha` — Krippendorff's alpha from the coincidence matrix, overall and per group;
- :mod:`.alpha_intervals` — its item-bootstrap interval and alpha without each annotator
  (resampling, apart from the closed-form statistic);
- :mod:`.kappa` — Fleiss' kappa and pairwise Cohen's kappa (unweighted, linear, quadratic);
- :mod:`.spread` — per-item spread of the grades; :mod:`.disputed` — the one rule for a disputed
  item;
- :mod:`.summary` — every statistic of one report at once, as the services ask for it.

Each statistic is tested against its reference implementation (krippendorff, scikit-learn,
statsmodels).
"""
