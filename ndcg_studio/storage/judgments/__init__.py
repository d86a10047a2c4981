"""The one writer of judgments and adjudications, and the one rule for their history.

Every INSERT, UPDATE and DELETE of ``judgments`` and ``adjudications`` made by NDCG Studio is in
this package: :mod:`~ndcg_studio.storage.judgments.items` writes one item at a time (the app's
grades, notes, adjudications and undo;
:class:`~ndcg_studio.services.annotation.service.AnnotationService`),
:mod:`~ndcg_studio.storage.judgments.sets` writes an import's judgments set-wise
(:class:`~ndcg_studio.services.importing.service.ImportService`). No Python code writes
``judgment_history``: the database does, with the triggers of migration 0004 (row triggers on
SQLite, statement triggers with transition tables on PostgreSQL), whatever route the write took
— the app, an import, a campaign grade, plain SQL.

**The history rule.** For each row of ``judgments`` (kind ``judgment``) and of ``adjudications``
(kind ``adjudication``), ``judgment_history`` gets exactly one row for

- every INSERT: ``old_grade``/``old_note`` NULL, ``new_grade``/``new_note`` the row's;
- every UPDATE that changes the grade or the note (compared NULL-safely: ``IS NOT`` /
  ``IS DISTINCT FROM``): the old and the new grade and note. An UPDATE that changes neither —
  only ``write_id``, ``updated_at`` or the adjudicator — records nothing;
- every DELETE: the old grade and note, ``new_grade``/``new_note`` NULL.

Each history row names the item (``query_id``, ``document_id``; ``annotator_id`` for a judgment,
NULL for an adjudication), ``changed_by`` (a judgment's own annotator; an adjudication's
``adjudicator_id`` after the write, before it for a DELETE — the app stamps the clearing lead onto
the row before deleting it), ``changed_at`` (UTC: SQLite's clock at the statement, PostgreSQL's
``now()``, the transaction's start) and ``write_id``: on an INSERT or a DELETE the row's
``write_id``, on an UPDATE the new ``write_id`` if the UPDATE changed it — each only when it names
no history row yet (else NULL), so a write's id lands in the history once (unique there) and a
retry after a lost COMMIT acknowledgement finds it. The writers here write
only what changes (an item write whose grade and note stay, an imported judgment equal to the
stored one, write nothing), so a write that changes nothing records nothing. Each item's history,
in id order, is one unbroken chain where every ``old_grade`` is the previous ``new_grade``.
``tests/storage/test_history_triggers.py`` checks the rule on SQLite and on a real PostgreSQL
server, for the app's writes and for imports.
"""
