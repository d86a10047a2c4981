"""Estimating the runs' mean scores (and pair differences) from machine grades on every pooled
item and human grades on a sample of queries, with intervals that stay valid (prediction-
powered inference, :mod:`ndcg_studio.domain.estimation`).

- :mod:`.service` — the use case: read both sets of grades, score the runs under each through
  the scoring code, check the human sample, estimate every run and pair, decide the pairs;
- :mod:`.sentence` — what Compare and Review say about a pair, in words.

Split between the numbers (the service) and their wording, which the CLI's notes and the views
share.
"""
