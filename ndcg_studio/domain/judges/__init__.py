"""Machine judges, the pure part: what a prompt template is, how a judge's answer is read, and
how a local model's raw scores become grades.

A machine judge grades (query, document) items like an annotator; its grades land as the
judgments of a source of kind ``model`` (see :mod:`ndcg_studio.services.judges`). This package
holds what needs neither a network nor a database, split where the names say it:

- :mod:`~ndcg_studio.domain.judges.templates`: a template (named fields, grade scale, its map
  onto 0–4, how its answer is read, its hash) and the shipped ones (UMBRELA, Thomas et al.);
- :mod:`~ndcg_studio.domain.judges.answers`: reading a grade out of an answer's text;
- :mod:`~ndcg_studio.domain.judges.thresholds`: isotonic regression (PAV) and the ordinal
  thresholds that turn raw scores into grades, fitted and checked on different queries;
- :mod:`~ndcg_studio.domain.judges.trust`: per-grade precision and recall from a confusion
  matrix (the kappas and alpha come from :mod:`ndcg_studio.domain.agreement.kappa` and
  :mod:`ndcg_studio.domain.agreement.alpha`).
"""
