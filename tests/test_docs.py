"""The documentation site builds with warnings as errors, and its generated parts are there.

``mkdocs build --strict`` fails on a broken link, a missing anchor or a page outside the nav; the
hook of ``docs/hooks/generated.py`` fills the CLI reference from the program's own parser, the
performance table from ``benchmarks/README.md`` and the Debian line from ``README.md``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_site_builds_strict_with_its_generated_parts(tmp_path: Path) -> None:
    pytest.importorskip("material", reason="the docs extra (mkdocs-material) is not installed")
    site = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    assert "ndcg-studio campaign create" in cli and "--overlap" in cli
    assert "<!-- cli-reference -->" not in cli
    performance = (site / "performance" / "index.html").read_text(encoding="utf-8")
    assert "bench_scale.py" in performance and "latest measurement" in performance
    install = (site / "install" / "index.html").read_text(encoding="utf-8")
    assert "libxcb-cursor0" in install


def test_readme_is_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for marker in ("ci-test-command", "app-command", "debian-packages"):
        assert f"<!-- {marker} -->" in readme and f"<!-- /{marker} -->" in readme
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs").rglob("*.md")):
        rel = page.relative_to(ROOT / "docs").as_posix()
        assert rel in nav, f"{rel} is not in the site's nav"


#: how a lab notebook speaks (work sessions, rounds, who worked on what), not documentation
NOTEBOOK = re.compile(
    r"\bsession \d|\b(this|next|last|second) round\b|\bhelpers\b|\bbranch [a-z]+\d"
)


def test_no_page_speaks_of_sessions_rounds_or_helpers() -> None:
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *(ROOT / "docs").rglob("*.md")]
    found = [
        f"{page.relative_to(ROOT)}: {hit.group(0)!r}"
        for page in pages
        for hit in NOTEBOOK.finditer(page.read_text(encoding="utf-8").lower())
    ]
    assert not found
    assert NOTEBOOK.search("measured in session 7 by two helpers")
