"""Qt item models of the views (Vorta style: ``COL_*`` constants, a ``SortRole`` with raw values).

One module per table a person sees (Review's scores, Compare's deltas and matrix, Agreement's
heatmap and disputed items, the Annotate lists, Stability's tables), each short and explicit, over
numpy columns that :mod:`.table` sorts and filters with numpy; :mod:`.grades` is the 0–4 palette
they share. Every model passes ``qtmodeltester``.
"""
