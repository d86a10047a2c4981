"""Which of two runs is better, from an incomplete pool of judgments: the sound verdict, estimates.

- :mod:`.bounds` — the bounds of the nDCG@K difference over every grade the unjudged pooled
  documents could still receive: "A is better whatever they get";
- :mod:`.batch` — the relaxation bound for many queries at once (numpy rows);
- :mod:`.order` — the ``ab`` judging order of the verdict's walk;
- :mod:`.settle` — how many judgments, in that order, until the verdict is decided;
- :mod:`.estimates` — the estimates beside the sound verdict (expected grades, P(A better)).

Split between what is guaranteed (bounds, batch) and what is estimated or planned (estimates,
order, settle).
"""
