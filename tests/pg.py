"""A real PostgreSQL server for the team-mode tests, started by the test suite in a temp dir.

Placeholder until team mode lands: every PostgreSQL-parametrised test is skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


class _Server:
    def fresh_database(self) -> Iterator[str]:
        raise NotImplementedError


@pytest.fixture(scope="session")
def postgres_server() -> _Server:
    pytest.skip("PostgreSQL test server not available yet")
