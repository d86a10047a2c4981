"""Bulk paths: millions of rows in and out as numpy columns, never a Python object per row.

- :mod:`.columns` — bulk reads into numpy and writes from columns, the import's transaction;
- :mod:`.imports` — the writes of an import besides judgments (catalogue, runs, results);
- :mod:`.external_ids` — rows by their names in the files, created where missing;
- :mod:`.staged_ids` — SQLite: a whole file's ids staged while it is read;
- :mod:`.sqlite_import` — SQLite: the import connection's settings;
- :mod:`.pg_copy` — PostgreSQL: columns through binary ``COPY``.

Split by database where the fast path differs (SQLite, PostgreSQL), and by what is written.
"""
