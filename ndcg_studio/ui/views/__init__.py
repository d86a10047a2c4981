"""The main window's views (tabs). Each is a ``QWidget`` subclass constructed as
``View(context: AppContext, parent: QWidget | None = None)``; it subscribes to the context's
signals (``database_changed``, ``annotator_changed``, ``judgments_changed``, ``settings_changed``)
and does its database work through :func:`ndcg_studio.ui.workers.run_task`.

Optional methods the main window calls when present: ``save_state()`` / ``restore_state()``
(splitters, column widths into the context's settings) and ``activated()`` (the tab was shown).
The list of views is ``ndcg_studio.ui.window.main_window.VIEWS``. The analysts' views (Review,
Agreement, Compare) derive from :class:`ndcg_studio.ui.views.base.LazyView`, which reloads them
lazily, in a worker.
"""
