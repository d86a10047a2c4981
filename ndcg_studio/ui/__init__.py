"""The desktop app (PySide6): the only package that imports Qt.

:mod:`~ndcg_studio.ui.window` is the main window's shell, :mod:`~ndcg_studio.ui.views` its tabs (a
heavy view is a folder), :mod:`~ndcg_studio.ui.dialogs` the dialogs, and
:mod:`~ndcg_studio.ui.models` the Qt item models. The modules at this level are what every part
shares: the context and its signals, workers, settings, errors, language, theme and the widget
recipes (:mod:`~ndcg_studio.ui.widgets`).
"""
