"""Use cases: what a person can do, each in its own transaction, with progress and Cancel.

Concepts with several parts are packages (annotation, campaigns, scoring, stability, importing,
exporting, evaluation, and :mod:`~ndcg_studio.services.screens`, the Qt-free data of each screen);
a use case that is one idea is one module (agreement, verdict, simulation, demo). Services return
plain values and numpy arrays, never live rows, so the GUI and the CLI use them alike.
"""
