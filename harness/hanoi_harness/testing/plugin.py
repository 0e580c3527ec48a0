"""The pytest plugin: ``--hanoi-check-installed`` adds the checks.

Without the option it imports nothing: pytest loads it in every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

OPTION = "--hanoi-check-installed"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hanoi", "hanoi-harness's conformance checks")
    group.addoption(
        OPTION,
        action="store_true",
        default=False,
        help="also run hanoi-harness's conformance checks on every algorithm installed in the entry-point group "
        "'hanoi.algorithms' (test ids NAME-CHECK)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("hanoi_check_installed"):
        return
    import pytest

    from hanoi_harness.registry.sources import installed_entry_points
    from hanoi_harness.testing import installed_checks

    if not installed_entry_points():  # named only: each is imported in a worker of its own
        raise pytest.UsageError(f"{OPTION}: no algorithm is installed in the entry-point group 'hanoi.algorithms'")
    config.args.append(installed_checks.__file__)
