"""How many grades an item has, counted over every annotator, for any login.

On PostgreSQL an annotator login reads only its own judgments (row security, migration 0011), yet
the campaign queue's load and capacity check count everyone's grades. They read them from the
view ``item_grade_counts`` of the tables' owner, which the owner's rights read in full and which
exposes one count per (query, document), not who graded what (and the adaptive orders learn
which items changed from ``item_grade_changes``). SQLite has no logins: the count reads
``judgments`` as before.

:func:`item_grades` is one SQL expression compiled per dialect, so a caller builds one statement
for both.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Integer, column, func, select, table
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from ndcg_studio.storage import models

#: the owner's views of migration 0011 (PostgreSQL only): the number of grades of each item, and
#: the judgment history's ids and items (not who changed it, nor to which grade)
item_grade_counts = table(
    "item_grade_counts", column("query_id"), column("document_id"), column("grades")
)
item_grade_changes = table(
    "item_grade_changes", column("id"), column("query_id"), column("document_id")
)


class item_grades(FunctionElement[int]):
    """``item_grades(query_id, document_id)``: how many judgments the item has (any annotator,
    whatever the login may read); arguments are columns (correlated) or values."""

    type = Integer()
    inherit_cache = True
    name = "item_grades"


def _arguments(element: item_grades) -> tuple[Any, Any]:
    query_id, document_id = list(element.clauses)
    return query_id, document_id


@compiles(item_grades)
def _count_judgments(element: item_grades, compiler: SQLCompiler, **kw: Any) -> str:
    query_id, document_id = _arguments(element)
    j = models.judgments
    count = select(func.count()).where(j.c.query_id == query_id, j.c.document_id == document_id)
    return str(compiler.process(count.scalar_subquery(), **kw))


@compiles(item_grades, "postgresql")
def _read_counts(element: item_grades, compiler: SQLCompiler, **kw: Any) -> str:
    query_id, document_id = _arguments(element)
    v = item_grade_counts
    grades = select(v.c.grades).where(v.c.query_id == query_id, v.c.document_id == document_id)
    expression: ColumnElement[Any] = func.coalesce(grades.scalar_subquery(), 0)
    return str(compiler.process(expression, **kw))
