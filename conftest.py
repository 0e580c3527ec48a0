"""Doctests of the checkout's folders, run as the modules they install as.

``harness/`` installs as ``hanoi_harness`` and ``algorithms/`` as
``hanoi_harness.algorithms`` (see setup.py), but pytest names a collected file
by its folder: ``harness/checker.py`` would be imported a second time as
``harness.checker``, and each ``algorithms/`` module would register its
algorithm twice.  So, when the installed package is this checkout (the
editable install of ``make``), every module is imported once under its real
name and also entered in ``sys.modules`` under the folder's name: pytest then
finds it there instead of importing a copy.  Against an installed wheel the
folders' doctests are not collected; run them with
``pytest --doctest-modules --pyargs hanoi_harness``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import hanoi_harness
import hanoi_harness.algorithms

HERE = Path(__file__).resolve().parent
ALIASES = {"hanoi_harness.algorithms": "algorithms", "hanoi_harness": "harness"}


def _alias(package: str, folder: str) -> None:
    module = importlib.import_module(package)
    sys.modules[folder] = module
    for info in pkgutil.walk_packages(module.__path__, f"{package}."):  # the folder's own modules only
        sys.modules[folder + info.name[len(package) :]] = importlib.import_module(info.name)


EDITABLE = Path(hanoi_harness.__file__).resolve().parent == HERE / "harness"

if EDITABLE:
    for _package, _folder in ALIASES.items():
        _alias(_package, _folder)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Against an installed copy, leave out the folders: their modules are not what runs."""
    if EDITABLE:
        return None
    return any(collection_path.is_relative_to(HERE / folder) for folder in ALIASES.values()) or None
