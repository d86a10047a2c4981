"""Names vulture cannot see used: read by frameworks, by dynamic dispatch, or public data.

Each entry says who uses the name. ``tests/test_dead_code.py`` runs vulture with this file, so a
name that becomes truly unused elsewhere is still reported.
"""

# ruff: noqa: B018
from __future__ import annotations

from types import SimpleNamespace

_ = SimpleNamespace()

# numpy: read-only arrays are made by setting the flag
_.writeable
# xml.parsers.expat: the parser calls its handlers by these attribute names
_.StartElementHandler
_.EndElementHandler
_.CharacterDataHandler
# Qt: overrides of QAbstractItemModel, called by Qt's views
_.hasChildren
_.sibling
# ImportService.run dispatches to import_<kind> by name
_.import_topics
# public fields of frozen dataclasses returned to callers (the views, exports, tests read them)
_.ideal_grade
_.ideal_discount
_.ideal_discounted_gain
_.n_nonrelevant
_.adjudication
# a worker's task kept alive until it reports (the campaign dashboard's machine sources)
_._machine_task
# SQLAlchemy: a construct's cache flag, and the @compiles functions it calls per dialect
# (storage/judgments/counts.py's item_grades)
_.inherit_cache
_._count_judgments
_._read_counts
