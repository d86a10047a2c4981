"""Agreement and adjudication: how much the annotators agree, where they disagree, the final grade.

- :mod:`.view` — alpha with its interval, kappa per pair, the disputed items;
- :mod:`.adjudication` — the lead's panel: one item's grades side by side and the final grade;
- :mod:`.text` — its sentences in the interface language.
"""
