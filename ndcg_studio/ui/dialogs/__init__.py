"""Dialogs that stand on their own: the New campaign dialog and the scoring settings.

Each dialog takes the :class:`~ndcg_studio.ui.context.AppContext` and its parent, changes state
only through the services or the context, and knows no view. A dialog that belongs to one view
(Query detail, the campaign dashboard) lives beside that view.
"""
