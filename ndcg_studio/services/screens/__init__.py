"""What each analyst screen shows, computed below ``ui`` (no Qt); the CLI and tests use it too.

- :mod:`.review` — Review's rows: every (query, run) with its scores, band and filters;
- :mod:`.compare` — Compare's data: every run scored and summarised, the pair's deltas;
- :mod:`.agreement` — Agreement's report with its disputed items;
- :mod:`.estimate` — the prediction-powered estimates Compare and Review show beside them;
- :mod:`.cells` and :mod:`.sort_keys` — the table cells and sort keys every screen shares.

One module per screen, so a view's data are read beside each other and apart from the widgets.
"""
