"""Pure domain: the mathematics of judging and scoring, in numpy and dataclasses; no Qt, no SQL.

Concepts with several parts are packages (:mod:`~ndcg_studio.domain.metrics`,
:mod:`~ndcg_studio.domain.agreement`, :mod:`~ndcg_studio.domain.statistics`,
:mod:`~ndcg_studio.domain.pooling`, :mod:`~ndcg_studio.domain.verdict`); a concept that is one idea
is one module (bands, consensus, stability, campaign statistics). Every formula's docstring cites
its paper or the reference implementation it is tested against.
"""
