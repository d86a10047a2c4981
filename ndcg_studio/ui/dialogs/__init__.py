"""Dialogs that start one use case each and show its progress, apart from the views (which show
data): :mod:`~ndcg_studio.ui.dialogs.judge` grades items with a machine judge. A dialog keeps no
database state; its work runs on :func:`ndcg_studio.ui.workers.run_task`."""
