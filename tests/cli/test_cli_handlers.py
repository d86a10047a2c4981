"""The handlers are one literal table (cli/handlers.py): it names a function for exactly the
commands the parser offers, and importing a command module registers nothing."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

from ndcg_studio import cli
from ndcg_studio.cli.handlers import HANDLERS
from ndcg_studio.cli.parser import build_parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def test_every_command_has_exactly_one_handler() -> None:
    assert set(HANDLERS) == _commands(build_parser())
    assert all(callable(fn) for fn in HANDLERS.values())


def test_no_registry_by_import_side_effect() -> None:
    assert not hasattr(cli, "command")
    source = (Path(cli.__file__).parent / "handlers.py").read_text(encoding="utf-8")
    tables = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Dict)
    ]
    assert len(tables) == 1  # HANDLERS is a dict literal
