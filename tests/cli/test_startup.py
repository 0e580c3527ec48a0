"""Each command imports what it uses, and nothing else.

The tests read the modules a fresh process loads to run it.

The start-up time itself is measured by ``make bench``; here the rule is held
by what ends up in ``sys.modules``, which does not depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from hanoi_harness.cli.main import COMMANDS, build_parser

LOADED = """
import contextlib, io, json, sys
from hanoi_harness.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
modules = sorted(sys.modules)
from hanoi_harness.registry.sources import none_advertised
print(json.dumps([status, modules, none_advertised()]))
"""

HEAVY = ("numpy", "scipy", "matplotlib", "jinja2", "hanoi_harness.bench")
"""Packages that only measuring and plotting need."""


def loaded(*argv: str) -> tuple[int, set[str]]:
    """Run ``hanoi ARGV`` in a fresh interpreter; its status, modules loaded."""
    status, modules, _ = _loaded(*argv)
    return status, modules


def _loaded(*argv: str) -> tuple[int, set[str], bool]:
    """:func:`loaded`, and whether that interpreter saw no entry points.

    It is asked there, not here: a library this process imported may add a
    finder of distributions, and then nothing is certain.
    """
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, timeout=60, check=True)
    status, modules, none = json.loads(done.stdout)
    return status, set(modules), none


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("argv", [("move", "3", "4"), ("state", "3", "4"), ("list",), ("list", "--names")])
def test_a_light_command_loads_no_numpy_and_no_benchmark_code(argv: tuple[str, ...]) -> None:
    status, modules = loaded(*argv)
    assert status == 0 and heavy(modules) == []


def test_help_loads_no_command_module() -> None:
    status, modules = loaded("--help")
    commands = {f"hanoi_harness.cli.{module}" for module, _ in COMMANDS.values()}
    assert status == 0 and not commands & modules and "hanoi_harness.registry.sources" not in modules


def test_move_loads_neither_the_registry_nor_the_algorithms_nor_children() -> None:
    _, modules = loaded("move", "3", "4")
    unused = ("hanoi_harness.registry.", "hanoi_algorithms", "tabulate", "hanoi_harness.process", "subprocess")
    assert not {m for m in modules if m.startswith(unused)}


@pytest.mark.parametrize("argv", [("list",), ("moves", "recursive", "2")])
def test_importlib_metadata_is_loaded_only_for_entry_points(argv: tuple[str, ...]) -> None:
    """Neither tabulate nor importlib.metadata is loaded unless needed.

    importlib.metadata is needed only where an entry point may be advertised.
    """
    status, modules, none = _loaded(*argv)
    assert status == 0 and "tabulate" not in modules
    assert ("importlib.metadata" in modules) == (not none)


def test_a_listing_of_in_tree_algorithms_starts_no_child() -> None:
    """Without plugins or entry points, ``hanoi list`` loads no process machinery."""
    status, modules, none = _loaded("list")
    machinery = {"subprocess", "tempfile", "hanoi_harness.process"}
    assert status == 0 and bool(machinery & modules) == (not none)


def test_the_heavy_check_itself_sees_numpy() -> None:
    """The check above can fail: a command that draws arrays loads numpy."""
    status, modules = loaded("moves", "blocks", "3", "--count")
    assert status == 0 and "numpy" in heavy(modules)


def test_every_command_is_built_from_its_own_module_alone() -> None:
    for name in COMMANDS:
        sub = next(a for a in build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
        built = {other for other, parser in sub.choices.items() if parser.get_default("func") is not None}
        assert name in built and built <= {c for c, (module, _) in COMMANDS.items() if module == COMMANDS[name][0]}
