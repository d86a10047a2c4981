"""Campaigns in the app: the annotator's side panel and the lead's dashboard.

- :mod:`.panel` — the side panel of Annotate (the campaign, its queue, can't judge / later) and the
  Campaign menu;
- :mod:`.dashboard` — the lead's dashboard: progress and one row per annotator.

The New campaign dialog is :mod:`ndcg_studio.ui.dialogs.campaign`.
"""
