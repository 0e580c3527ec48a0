"""Test the ``hanoi`` command: output formats, exit codes, one-line errors.

The one-line errors are for bad input.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

import hanoi_harness
from hanoi_harness.cli import listing
from hanoi_harness.cli.main import main
from hanoi_harness.cli.options import MAX_DISKS
from hanoi_harness.core.digest import digest
from tests.helpers import ROOT, assert_one_line_error, reference, run_cli

run = run_cli


def test_moves_prints_one_move_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "recursive", "3")
    assert code == 0
    assert out.splitlines() == [f"{d} {s} {t}" for d, s, t in reference(3)]


def test_moves_zero_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "moves", "recursive", "0") == (0, "", "")


def test_moves_count_and_digest(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "moves", "recursive", "10", "--count")[1] == "1023\n"
    count, total = digest(reference(10))
    assert run(capsys, "moves", "recursive", "10", "--digest")[1] == f"{count} {total}\n"


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["moves", "recursive", "-1"], ["non-negative integer", "'-1'"]),
        (["moves", "recursive", "2.5"], ["non-negative integer", "'2.5'"]),
        (["moves", "recursive", "x"], ["non-negative integer"]),
        (["moves", "recursiv", "3"], ["unknown algorithm 'recursiv'", "did you mean 'recursive'"]),
        (["moves", "bitwise", "31"], ["n <= 30", "32-bit C int"]),
        (["moves", "recursive", "901"], ["recursive accepts n <= 900", "recursion limit"]),
        (["moves", "recursive", "3", "--bogus"], ["unrecognized arguments: --bogus"]),
        (["verify", "--n", "-3"], ["non-negative integer"]),
        (["verify", "nosuch"], ["unknown algorithm 'nosuch'"]),
        (["verify", "--timeout", "0"], ["positive number of seconds"]),
        (["frobnicate"], ["invalid choice"]),
        (["moves", "recursive", "3", "--count", "--digest"], ["not allowed with"]),
        (["list", "--plugin", "nowhere.py:f"], ["no such file"]),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_one_line_error(code, err, *fragments)


def test_limits_name_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import ALGORITHMS

    for algorithm in ALGORITHMS:
        if algorithm.max_n is not None and algorithm.max_n < MAX_DISKS:
            code, _, err = run(capsys, "moves", algorithm.name, str(algorithm.max_n + 1), "--count")
            assert_one_line_error(code, err, f"n <= {algorithm.max_n}", algorithm.max_n_reason)
        if algorithm.min_n > 0:
            code, _, err = run(capsys, "moves", algorithm.name, str(algorithm.min_n - 1))
            assert_one_line_error(code, err, f"n >= {algorithm.min_n}", algorithm.min_n_reason)


def test_help_on_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from hanoi_harness.cli.main import build_parser

    (commands,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(commands.choices) >= 10
    for name in commands.choices:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "usage: hanoi" in out and len(out) > 100, name


def test_list_table_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import ALGORITHMS

    code, out, _ = run(capsys, "list", "--names")
    assert code == 0
    assert out.split() == [a.name for a in ALGORITHMS]
    code, out, _ = run(capsys, "list")
    assert code == 0
    for header in ("name", "source", "family", "limits", "space", "final peg"):
        assert header in out
    assert "recursive" in out and "132000" in out


def test_show_prints_pegs_after_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "recursive", "2")
    assert code == 0
    assert out.count("[step ") == 4
    assert out.rstrip().endswith("[step 3] disk 1: 1 -> 2\n---------------------------".rstrip())
    assert "[2] 2, 1\n[step 3]" in out


def test_verify_default_is_all_ok(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import ALGORITHMS

    code, out, _ = run(capsys, "verify", "--n-max", "6", "--timeout", "30")
    assert code == 0, out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    words = " ".join(out.split())  # a long detail wraps onto the next line
    for algorithm in ALGORITHMS:
        assert rows[algorithm.name].split()[2] == "ok", out
        if not algorithm.puzzle.classic:  # each variant says what its count was judged against
            (peg,) = algorithm.final_peg.pegs(6)
            optimum = algorithm.puzzle.optimum(6, peg)
            assert optimum is not None and f"moves replayed; {optimum.describe()}" in words
    assert "illegal" not in out


def test_verify_named_algorithm_out_of_limits_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify", "tree_array", "--n", "18")
    assert_one_line_error(code, err, "n <= 17")


def test_moves_into_a_closed_pipe_ends_quietly() -> None:
    # `hanoi moves recursive 20 | head -n 3`: no traceback, no complaint.
    proc = subprocess.Popen(
        [sys.executable, "-m", "hanoi_harness", "moves", "recursive", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    head = [proc.stdout.readline() for _ in range(3)]
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert head == [b"1 0 1\n", b"2 0 2\n", b"1 1 2\n"]
    assert err == b""
    assert proc.returncode == 0


HUGE = str(10**20)
BILLION = str(10**9)


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["moves", "recursive", HUGE], ["argument N: at most 10000 disks", "the first moves"]),
        (["moves", "clockwise_sentinel", BILLION, "--count"], ["at most 10000 disks, got 1000000000"]),
        (["moves", "recursive", "1" * 5000, "--digest"], ["at most 10000 disks", "(5000 characters)"]),
        (["show", "clockwise_sentinel", BILLION], ["at most 10000 disks"]),
        (["check", "-n", HUGE, "/dev/null"], ["argument -n: at most 10000 disks"]),
        (["check", "-n", "10001", "/dev/null"], ["at most 10000 disks, got 10001"]),
        (["verify", "--n", HUGE], ["argument --n: at most 64 disks"]),
        (["verify", "--n-max", BILLION], ["argument --n-max: at most 64 disks"]),
        (["verify", "bitwise", "--n", "10", "--workers", HUGE], ["at most 1024 workers", "process on this machine"]),
        (["verify", "bitwise", "--n", "10", "--workers", "0"], ["expected a positive integer, got '0'"]),
        (["bench", "--sizes", f"4,{HUGE}", "--out", "never-written"], ["argument --sizes: at most 64 disks"]),
        (["move", HUGE, "1"], ["argument N: at most 1000000 disks", "301030 digits"]),
        (["state", "1000001", "0"], ["at most 1000000 disks"]),
        (["step", HUGE, "0"], ["at most 1000000 disks"]),
        (["move", "10", "9" * 400_000], ["K has at most 301030 digits", "400000 characters"]),
        (["move", "10", HUGE], ["between 1 and 2^10 - 1 = 1023", f"got {HUGE}"]),
        (["state", "64", str(2**64)], ["between 0 and 2^64 - 1 = 18446744073709551615", "got 18446744073709551616"]),
        (["move", "300", str(2**400)], ["between 1 and 2^300 - 1 for n = 300", "about 121 digits (401 bits)"]),
    ],
)
def test_numbers_no_run_could_honour_are_one_line_naming_the_limit(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_one_line_error(code, err, *fragments)


def test_the_largest_n_is_honoured(capsys: pytest.CaptureFixture[str]) -> None:
    n = MAX_DISKS
    assert run(capsys, "move", str(n), str(2**n - 1)) == (0, "1 1 2\n", "")
    code, out, _ = run(capsys, "check", "-n", "10000", "/dev/null")
    assert code == 2 and "no moves read" in _  # read, not refused: there is nothing in it
    code, _, err = run(capsys, "verify", "tree_array", "--n", str(n))
    assert_one_line_error(code, err, "n <= 17")  # the algorithm's own, smaller limit still applies
    code, out, err = run(capsys, "state", "1000000", "0")
    assert (code, err, len(out)) == (0, "", 2_000_000)


def test_a_bug_message_of_many_lines_is_still_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plugin = tmp_path / "multi.py"
    plugin.write_text('raise ImportError("first line\\nsecond line\\r\\nthird")\n')
    code, _, err = run(capsys, "list", "--plugin", f"{plugin}:solve")
    assert_one_line_error(code, err, "first line second line third")


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"hanoi-harness {importlib.metadata.version('hanoi-harness')}"


def test_the_version_of_folders_imported_without_an_install_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert hanoi_harness._version() == "0+unknown"
    monkeypatch.undo()
    assert hanoi_harness.__version__ == hanoi_harness._version() == importlib.metadata.version("hanoi-harness")


def test_code_a_command_runs_that_asks_to_exit_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def exits(args: argparse.Namespace) -> int:
        sys.exit(3)  # as a plugin's code might

    monkeypatch.setattr(listing, "cmd_list", exits)
    code, _, err = run(capsys, "list")
    assert_one_line_error(code, err, "code run by 'hanoi list' asked to exit (SystemExit: 3)")


def test_a_bug_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(listing, "cmd_list", broken)
    with pytest.raises(ZeroDivisionError, match="a bug"):
        main(["list"])
