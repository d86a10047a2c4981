"""The desktop app (PySide6): the only package that imports Qt."""
