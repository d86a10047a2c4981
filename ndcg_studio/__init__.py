"""NDCG Studio: judge search results and score runs with NDCG@K, every part visible.

Layers (checked by import-linter, see ``pyproject.toml``): ``domain`` (numpy only) ← ``storage``
(SQLAlchemy) and ``io`` (file formats) ← ``services`` (use cases) ← ``ui`` (PySide6) and ``cli``
← ``app`` (entry point).
"""

__version__ = "0.1.0"
