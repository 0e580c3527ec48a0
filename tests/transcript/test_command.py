"""Test ``hanoi_harness.transcript.command`` on another program's output.

The output is streamed through the reader and the checker.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.command import command_for, parse_spec, run_command
from tests.helpers import gone, printer_command


@pytest.fixture
def solver(tmp_path: Path) -> str:
    return printer_command(tmp_path)


def test_a_correct_program_is_ok_and_timed(solver: str) -> None:
    verdict, seconds = run_command(solver + " {n}", 6)
    assert verdict.ok and verdict.moves == 63 and verdict.final_peg == 2
    assert seconds > 0


def test_n_also_comes_on_standard_input(solver: str) -> None:
    verdict, _ = run_command(solver, 5)
    assert verdict.ok and verdict.moves == 31


def test_an_illegal_move_stops_the_program(solver: str) -> None:
    verdict, _ = run_command(solver + " {n} illegal", 4, timeout=30)
    assert verdict.status == "illegal" and verdict.step == 3
    assert verdict.extra["line"] == 4 and verdict.extra["text"] == "Move disk 1 from C to B"
    assert verdict.reason == "disk 1 is not on top of peg 2 (its top is 2)"


def test_a_line_that_is_not_a_move_is_illegal_with_its_line(solver: str) -> None:
    verdict, _ = run_command(solver + " {n} garbled", 3)
    assert verdict.status == "illegal"
    assert "line 3: cannot read a move from 'Move disk 2 from A to'" in verdict.reason
    assert verdict.describe().startswith("illegal: line 3: cannot read") and "None" not in verdict.describe()


def test_an_over_long_first_line_fails_at_step_1(tmp_path: Path) -> None:
    script = tmp_path / "long.py"
    script.write_text("print('1 0 2' + ' x' * 20000)\n")
    verdict, _ = run_command(f"python3 {shlex.quote(str(script))}", 3, timeout=30)
    assert verdict.describe().startswith("illegal at step 1: line 1: cannot read a move from '1 0 2 x x")
    assert verdict.describe().endswith("the line is longer than 10000 characters")


def test_a_non_zero_exit_after_legal_moves_is_a_crash(solver: str) -> None:
    verdict, _ = run_command(solver + " {n} crash", 3)
    assert verdict.status == "crashed" and "exited with status 3" in verdict.reason


def test_a_hanging_program_times_out(solver: str) -> None:
    verdict, seconds = run_command(solver + " {n} hang", 2, timeout=1.0)
    assert verdict.status == "timed_out"
    assert seconds < 30  # it was killed, not waited for


def test_what_a_program_starts_is_ended_with_it(solver: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    verdict, _ = run_command(f"sleep 600 & echo $! > {pidfile}; {solver} {{n}}", 4)
    assert verdict.ok
    assert gone(int(pidfile.read_text()))


def test_any_finite_timeout(solver: str) -> None:
    verdict, _ = run_command(solver + " {n}", 3, timeout=1e10)  # past what a timer or poll() takes at once
    assert verdict.ok


def test_a_c_program(tmp_path: Path) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    source = tmp_path / "hanoi.c"
    source.write_text(
        "#include <stdio.h>\n#include <stdlib.h>\nstatic int count;\n"
        "static void hanoi(int n, char a, char b, char c) {\n"
        '    if (n == 1) { printf("%d: %d %c->%c\\n", ++count, n, a, c); return; }\n'
        "    hanoi(n - 1, a, c, b);\n"
        '    printf("%d: %d %c->%c\\n", ++count, n, a, c);\n'
        "    hanoi(n - 1, b, a, c);\n}\n"
        "int main(int argc, char **argv) { hanoi(atoi(argv[1]), 'A', 'B', 'C'); return 0; }\n"
    )
    exe = tmp_path / "hanoi"
    subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True)
    verdict, _ = run_command(f"{shlex.quote(str(exe))} {{n}}", 12)
    assert verdict.ok and verdict.moves == 4095


def test_specs_and_templates() -> None:
    assert parse_spec("mine = ./prog {n}") == ("mine", "./prog {n}")
    assert command_for("./p {n} {n} | awk '{print}'", 3) == "./p 3 3 | awk '{print}'"
    for bad in ("./prog {n}", "=./prog", "my prog=./prog", "x="):
        with pytest.raises(UsageError, match="NAME=COMMAND"):
            parse_spec(bad)
