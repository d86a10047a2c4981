"""Pools and the order their documents are judged in: which (query, document) pairs humans see.

- :mod:`.strategies` — the depth-D pool and the judging orders (depth, move-to-front, discounted
  MaxMean bandit, ab), each beside its paper;
- :mod:`.incremental` — a strategy's order kept between a campaign's requests and rewound only
  where a revealed grade changed it.

Split because the one-shot order (simulation, a fresh queue) and the long-lived state of a running
campaign are read for different reasons.
"""
