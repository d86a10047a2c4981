"""Dialogs that stand on their own: each starts one use case or changes one set of choices, apart
from the views (which show data).

- :mod:`.campaign` — the New campaign dialog;
- :mod:`.scoring_settings` — the scoring settings (K, gain, ideal, consensus, bands, depth);
- :mod:`.judge` — grading pooled items with a machine judge, with progress and Cancel.

Each dialog takes the :class:`~ndcg_studio.ui.context.AppContext` and its parent, changes state
only through the services or the context, runs its work on :func:`ndcg_studio.ui.workers.run_task`
and knows no view. A dialog that belongs to one view (Query detail, the campaign dashboard, the
note of a document) lives beside that view.
"""
