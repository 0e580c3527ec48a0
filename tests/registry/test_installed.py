"""Test algorithms from installed distributions against the real command.

The distributions advertise them as entry points.

Each test installs a distribution into a temporary directory, its ``dist-info`` with an ``entry_points.txt``
and its module taken from ``tests/fixtures/plugins``, and runs ``hanoi`` with that directory on its
``PYTHONPATH``, as a user who installed the package would.  Every command that imports the entry points in
its own process imports them in a child first, so one that hangs, exits or crashes at import is one line
and exit status 2.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, assert_one_line_error

PLUGINS = FIXTURES / "plugins"
HANOI = str(Path(sys.executable).with_name("hanoi"))
DISTRIBUTION = "hostile-solvers 0.1"


def install(site: Path, module: Path, entries: dict[str, str]) -> dict[str, str]:
    """Install a distribution of *module* advertising *entries* into *site*.

    *module* is a fixture file; *entries* maps a name to an object.

    Returns the environment in which ``hanoi`` finds it.
    """
    site.mkdir(exist_ok=True)
    shutil.copyfile(module, site / "hostile_solvers.py")
    info = site / "hostile_solvers-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-solvers\nVersion: 0.1\n")
    lines = [f"{name} = hostile_solvers:{obj}" for name, obj in entries.items()]
    (info / "entry_points.txt").write_text("[hanoi.algorithms]\n" + "\n".join(lines) + "\n")
    tree = os.environ.get("PYTHONPATH")  # the tree under test, if it is not the installed one
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *([tree] if tree else [])])}


def hanoi(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HANOI, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


COMMANDS = {
    "list": ["list"],
    "moves": ["moves", "recursive", "3"],
    "show": ["show", "recursive", "2"],
    "bench": ["bench", "recursive", "--quick", "--sizes", "2", "--out", "{out}"],
    "verify": ["verify", "recursive", "--n", "2"],
}

AT_IMPORT = {
    "loops.py": "importing it took more than 1 s; it was stopped",
    "os_exit_0.py": "importing it ended the process (exit status 0)",
    "exits.py": "failed to import: SystemExit: 0",
}


CASES = [*((command, "loops.py") for command in COMMANDS), ("list", "os_exit_0.py"), ("moves", "os_exit_0.py")]
CASES += [("list", "exits.py")]


@pytest.mark.parametrize(("command", "module"), CASES)
def test_an_entry_point_misbehaving_at_import_is_one_line(tmp_path: Path, command: str, module: str) -> None:
    env = install(tmp_path / "site", PLUGINS / "at_import" / module, {"hostile": "f"})
    argv = [arg.format(out=tmp_path / "out") for arg in COMMANDS[command]]
    bound = ["--timeout" if command == "verify" else "--import-timeout", "1" if module == "loops.py" else "60"]
    done = hanoi(env, *argv, *bound)
    origin = f"entry point 'hostile' (hostile_solvers:f) of the distribution {DISTRIBUTION}"
    assert_one_line_error(done.returncode, done.stderr, origin, AT_IMPORT[module])
    assert done.stdout == "" and not (tmp_path / "out").exists()


def test_an_entry_point_s_record_says_where_it_came_from(tmp_path: Path) -> None:
    env = install(tmp_path / "site", PLUGINS / "packaged.py", {"packaged": "RECORD", "bare": "bare"})
    done = hanoi(env, "list")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line and not line[0].isspace()}
    assert "in-tree" not in rows["packaged"] and "entry point" in rows["packaged"], done.stdout
    assert list(rows)[-2:] == ["bare", "packaged"]  # after the in-tree ones, as plugins are
    for name in ("packaged", "bare"):
        assert hanoi(env, "moves", name, "3", "--digest").stdout == "7 488\n"  # the 7 optimal moves
    done = hanoi(env, "verify", "packaged", "bare", "--n", "4")
    assert done.returncode == 0 and done.stdout.count(" ok ") >= 2, done.stdout + done.stderr


def test_a_name_clashing_with_a_built_in_one_names_its_distribution(tmp_path: Path) -> None:
    env = install(tmp_path / "site", PLUGINS / "good.py", {"recursive": "variant"})
    for argv in (["list"], ["moves", "bitwise", "3"]):  # described by a child, and imported here
        done = hanoi(env, *argv)
        assert_one_line_error(done.returncode, done.stderr, "duplicate algorithm name 'recursive'", DISTRIBUTION)


def test_an_entry_point_that_exits_on_its_second_import_cannot_end_moves(tmp_path: Path) -> None:
    module = tmp_path / "second.py"
    count = tmp_path / "imports"
    module.write_text(
        "import os\n"
        f"seen = int(open({str(count)!r}).read()) if os.path.exists({str(count)!r}) else 0\n"
        f"open({str(count)!r}, 'w').write(str(seen + 1))\n"
        "if seen:\n    os._exit(0)\n"
        "def f(n):\n    yield from ()\n"
    )
    env = install(tmp_path / "site", module, {"second": "f"})
    done = hanoi(env, "moves", "recursive", "3", "--digest")
    assert done.returncode == 0 and done.stdout == "7 488\n", done.stderr
    assert count.read_text() == "1"  # imported by the probing child only
