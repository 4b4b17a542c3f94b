"""Fixtures of the integration tests: the unit tests' shared ones, re-used (the root conftest's apply too)."""

from tests.unit.conftest import embedded  # noqa: F401
