"""Machine judges as a batch job: grade pooled items with a model and store the grades as the
judgments of a source of kind ``model``, with the provenance of every label.

A job (:mod:`~ndcg_studio.services.judges.job`) takes its items (a pool of runs, a campaign, a
list of pairs), leaves out those already graded with the same template and model (so a job killed
at any moment and started again continues where it stopped), asks a backend for the rest with a
bounded concurrency and request rate, and writes each answer as it arrives, with its
provenance, in a short transaction of its own. The modules:

- :mod:`~ndcg_studio.services.judges.job`: the job (plan, dry run, run, progress, cancel);
  :mod:`~ndcg_studio.services.judges.items`, what it grades (a pool, a campaign, pairs);
  :mod:`~ndcg_studio.services.judges.source`, the model source it writes into;
- :mod:`~ndcg_studio.services.judges.remote`: the OpenAI-compatible backend (the official
  ``openai`` client: retries with exponential back-off on 429, 5xx and time-outs, honouring
  ``Retry-After``), and :mod:`~ndcg_studio.services.judges.keys`, where its key comes from;
- :mod:`~ndcg_studio.services.judges.local`: the offline backend (a sentence-transformers
  model from a wheel; raw scores to grades by thresholds fitted on the human grades);
- :mod:`~ndcg_studio.services.judges.pacing`: the request-rate bound shared by the workers;
- :mod:`~ndcg_studio.services.judges.trust`: each machine source against the humans, and the
  provenance flags; :mod:`~ndcg_studio.services.judges.corrections`: the items a correction
  campaign is made of (where machines and humans, or machines, disagree, or where a machine
  grade could change a decision).
"""
