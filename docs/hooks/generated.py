"""MkDocs hook: the pages' generated parts, so that they cannot drift from their source.

- ``<!-- cli-reference -->`` (``cli.md``) becomes the ``--help`` of every command and
  sub-command, as the program's own parser prints it;
- ``<!-- performance-table -->`` (``performance.md``) becomes the table of targets and latest
  measurements kept at the top of ``benchmarks/README.md``, beside the benchmarks;
- ``<!-- debian-packages-line -->`` (``install.md``) becomes the Debian/Ubuntu line of
  ``README.md``, the one ``.ci/run`` installs.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Any

CLI_MARKER = "<!-- cli-reference -->"
PERFORMANCE_MARKER = "<!-- performance-table -->"
DEBIAN_MARKER = "<!-- debian-packages-line -->"
ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS_README = ROOT / "benchmarks" / "README.md"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _sections(parser: argparse.ArgumentParser, words: list[str], level: int) -> list[str]:
    help_text = parser.format_help().rstrip()
    out = [f"{'#' * level} `{' '.join(words)}`", "", "```text", help_text, "```", ""]
    for name, sub in _subparsers(parser).items():
        out += _sections(sub, [*words, name], min(level + 1, 5))
    return out


def cli_reference() -> str:
    """The help of ``ndcg-studio`` and of each command, as Markdown."""
    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width
    from ndcg_studio.cli.parser import build_parser

    return "\n".join(_sections(build_parser(), ["ndcg-studio"], 3))


def between_markers(path: Path, name: str) -> str:
    """The text between ``<!-- name -->`` and ``<!-- /name -->`` of ``path``."""
    text = path.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {name} -->\n(.*?)\n<!-- /{name} -->", text, re.S)
    if found is None:
        raise ValueError(f"{path}: no {name} markers")
    return found.group(1)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    if PERFORMANCE_MARKER in markdown:
        table = between_markers(BENCHMARKS_README, "performance-table")
        markdown = markdown.replace(PERFORMANCE_MARKER, table)
    if DEBIAN_MARKER in markdown:
        line = between_markers(ROOT / "README.md", "debian-packages")
        markdown = markdown.replace(DEBIAN_MARKER, line)
    return markdown
