"""Statistics over per-query scores of several runs: is a difference real, and how many queries?

- :mod:`.resampling` — bootstrap interval of a mean and the paired randomization test;
- :mod:`.anova` — two-way ANOVA without replication of a runs x queries score matrix;
- :mod:`.multirun` — N runs at once: pairwise intervals and corrected p-values (Holm, Tukey HSD);
- :mod:`.topic_set_size` — how many queries a comparison needs (Sakai 2016);
- :mod:`.rank_correlation` — Kendall's tau-b and tau_AP between two orderings of the runs.

One module per method, each beside its citation; tested against scipy and statsmodels.
"""
