"""Qt item models (Vorta style: ``COL_*`` constants, a ``SortRole`` with raw values) and the
grade palette shared by the views."""
