"""Use cases: each with its own transaction scope; progress(i, n) and cancelled() callbacks."""
