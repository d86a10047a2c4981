"""The headless commands of ``ndcg-studio`` (import, score, eval, agreement, export, campaign,
team, judge, estimate, simulate, demo, fetch-run).

Each command opens the database (``--db``, ``$NDCG_STUDIO_DB`` or the default file), which
upgrades its schema, calls one service and prints or writes the result. ``import`` and ``demo``
create a missing SQLite file; the commands that only read refuse it (exit 2, nothing created).
Each export kind is a sub-command with its own options and ``--help``. Errors are printed as
one clear message on stderr with exit code 2 (bad input or command line) or 1 (anything else,
:mod:`ndcg_studio.storage.failures`); no traceback. CSV output starts with its header line; the
settings that produced a file go beside it as ``NAME.settings.json`` (``report.csv.settings.json``).


The package is split into the command line (:mod:`~ndcg_studio.cli.parser`), the handlers
(:mod:`~ndcg_studio.cli.handlers`, one literal table naming each command's function), the entry
point (:mod:`~ndcg_studio.cli.main`) and what they share (:mod:`~ndcg_studio.cli.common`).
"""
