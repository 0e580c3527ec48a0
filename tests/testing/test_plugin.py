"""Test the pytest plugin's option ``--hanoi-check-installed``.

It adds the checks of the installed algorithms to a run; without the option the plugin does nothing.

pytest loads the plugin (and ``hanoi_harness.testing``) before coverage starts, so the modules are loaded
again here, and the hooks are called with stand-ins for pytest's parser and configuration.  A real run of the
option against a project's installed algorithm is in ``.ci/variant``; one against an entry point written
as pip leaves one, in ``tests/testing/test_project.py``.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest

import hanoi_harness.testing
from hanoi_harness.registry import sources
from hanoi_harness.testing import installed_checks, plugin
from hanoi_harness.testing.suite import CHECKS


def test_the_modules_load_again_and_export_their_names() -> None:
    importlib.reload(hanoi_harness.testing)
    importlib.reload(plugin)
    assert sorted(dir(hanoi_harness.testing)) == sorted(hanoi_harness.testing.__all__)
    assert hanoi_harness.testing.CHECKS == CHECKS


def test_the_option_is_in_its_own_group(pytestconfig: pytest.Config) -> None:
    added: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def getgroup(name: str, description: str) -> SimpleNamespace:
        return SimpleNamespace(addoption=lambda *args, **kwargs: added.append((name, args, kwargs)))

    plugin.pytest_addoption(SimpleNamespace(getgroup=getgroup))  # type: ignore[arg-type]
    ((group, args, kwargs),) = added
    assert group == "hanoi" and args == ("--hanoi-check-installed",) and kwargs["action"] == "store_true"
    assert pytestconfig.getoption("hanoi_check_installed") is False  # pytest loaded the plugin itself


def configured(asked: bool) -> SimpleNamespace:
    return SimpleNamespace(getoption=lambda name: asked if name == "hanoi_check_installed" else None, args=["tests"])


def test_without_the_option_nothing_is_added() -> None:
    config = configured(False)
    plugin.pytest_configure(config)  # type: ignore[arg-type]
    assert config.args == ["tests"]


def test_the_option_adds_the_installed_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    config = configured(True)
    monkeypatch.setattr(sources, "installed_entry_points", lambda: [object()])
    plugin.pytest_configure(config)  # type: ignore[arg-type]
    assert config.args == ["tests", installed_checks.__file__]


def test_the_option_is_refused_with_nothing_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "installed_entry_points", list)
    with pytest.raises(pytest.UsageError, match="no algorithm is installed in the entry-point group"):
        plugin.pytest_configure(configured(True))  # type: ignore[arg-type]


def test_the_installed_checks_run_each_check() -> None:
    check = next(check for check in CHECKS if check.name == "legal")
    installed_checks.test_installed_algorithm("recursive", check)


def test_the_checks_import_nothing_of_the_command() -> None:
    import subprocess
    import sys

    code = (
        "import sys, hanoi_harness.testing.suite, hanoi_harness.testing.installed_checks; "
        "print([m for m in sys.modules if m.startswith('hanoi_harness.cli')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
