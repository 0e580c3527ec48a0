"""Test every command against hostile standard streams and Ctrl-C.

They run in real processes.

Standard output closed (``>&-``) or full (``> /dev/full``): one line on stderr, exit status 2. A reader
that has gone (a closed pipe, ``| head -c1``, ``| true``): no complaint and the command's usual status.
Standard input closed (``<&-``): one line when the command reads it. Ctrl-C, in a run or in an import:
``hanoi: interrupted`` and exit status 130. The processes of the table run side by side, once per module.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, ROOT, gone

PLUGINS = FIXTURES / "plugins"
HANOI = [sys.executable, "-m", "hanoi_harness"]
MOVES_FILE = "1 A->B\n2 A->C\n1 B->C\n"

# name: (argv, its usual exit status); {file} and {results} are filled in.
COMMANDS: dict[str, tuple[list[str], int]] = {
    "list": (["list"], 0),
    "moves": (["moves", "recursive", "16"], 0),
    "moves-binary": (["moves", "blocks", "20", "--binary"], 0),
    "show": (["show", "recursive", "6"], 0),
    "move": (["move", "3", "4"], 0),
    "state": (["state", "3000", "5"], 0),
    "step-off-path": (["step", "3", "0,1,0"], 1),
    "verify": (["verify", "recursive", "--n", "3"], 0),
    "check": (["check", "-n", "2", "{file}"], 0),
    "compare": (["compare", "{results}", "{results}", "--allow-incomplete"], 0),
    "help": (["--help"], 0),
}

# (stream treatment, command): one of each kind runs in 'make test', the whole table with -m slow.
QUICK = [
    ("stdout-closed", "list"),
    ("stdout-full", "moves-binary"),
    ("stdout-full", "verify"),
    ("stdout-full", "help"),
    ("pipe-closed", "verify"),
    ("pipe-closed", "state"),
    ("pipe-closed", "step-off-path"),
    ("reader-leaves", "compare"),
    ("stdin-closed", "check-stdin"),
]
EVERY = (
    [("stdout-closed", name) for name in ("list", "move", "help")]
    + [("stdout-full", name) for name in COMMANDS if name != "step-off-path"]
    + [
        ("pipe-closed", name)
        for name in ("list", "moves", "moves-binary", "state", "step-off-path", "verify", "compare")
    ]
    + [("reader-leaves", name) for name in ("list", "moves", "state", "verify", "compare")]
    + [("stdin-closed", name) for name in ("check-stdin", "list")]
)
REST = [case for case in EVERY if case not in QUICK]


def _argv(name: str, work: Path) -> tuple[list[str], int]:
    if name == "check-stdin":
        return ["check", "-n", "2"], 2
    argv, status = COMMANDS[name]
    fill = {"file": str(work / "moves.txt"), "results": str(ROOT / "results")}
    return [part.format(**fill) for part in argv], status


def _run(treatment: str, argv: list[str]) -> tuple[int, str]:
    """Run ``hanoi argv`` with its streams treated so; its status, stderr."""
    shell = {"stdout-closed": 'exec "$@" >&-', "stdin-closed": 'exec "$@" <&-'}
    if treatment in shell:
        proc = subprocess.run(["sh", "-c", shell[treatment], "sh", *HANOI, *argv], capture_output=True, timeout=120)
        return proc.returncode, proc.stderr.decode()
    if treatment == "stdout-full":
        with open("/dev/full", "wb") as full:
            proc = subprocess.run([*HANOI, *argv], stdout=full, stderr=subprocess.PIPE, timeout=120)
        return proc.returncode, proc.stderr.decode()
    if treatment == "pipe-closed":  # the reader went away before the command started
        read, write = os.pipe()
        os.close(read)
        try:
            proc = subprocess.run([*HANOI, *argv], stdout=write, stderr=subprocess.PIPE, timeout=120)
        finally:
            os.close(write)
        return proc.returncode, proc.stderr.decode()
    # reader-leaves: `| head -c1`
    with subprocess.Popen([*HANOI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        child.stdout.read(1)
        child.stdout.close()
        err = child.stderr.read().decode()
        return child.wait(timeout=120), err


def _said(argv: list[str]) -> str:
    """Return what ``hanoi argv`` says on stderr when its output is read out.

    That is, what it says anyway, when its output is read to the end.
    """
    done = subprocess.run([*HANOI, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
    return done.stderr.decode()


# An outcome: (exit status, stderr, usual status, usual stderr).
Outcome = tuple[int, str, int, str]


def _outcomes(cases: list[tuple[str, str]], work: Path) -> dict[tuple[str, str], Outcome]:
    """Each case's outcome, the processes run four at a time."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    (work / "moves.txt").write_text(MOVES_FILE)
    runs = {case: _argv(case[1], work) for case in cases}
    quiet = {name for treatment, name in cases if treatment in ("pipe-closed", "reader-leaves")}
    with ThreadPoolExecutor(max_workers=4) as pool:
        usual = {name: pool.submit(_said, _argv(name, work)[0]) for name in quiet}
        futures = {case: pool.submit(_run, case[0], argv) for case, (argv, _) in runs.items()}
        return {
            case: (*future.result(), runs[case][1], usual[case[1]].result() if case[1] in quiet else "")
            for case, future in futures.items()
        }


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Outcome]:
    return _outcomes(QUICK, tmp_path_factory.mktemp("streams"))


@pytest.fixture(scope="module")
def rest(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Outcome]:
    return _outcomes(REST, tmp_path_factory.mktemp("streams"))


def _judge(outcome: Outcome, treatment: str, name: str) -> None:
    code, err, usual, said = outcome
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = err.splitlines()
    if treatment == "stdout-closed":
        assert code == 2 and lines == [CLOSED], err
    elif treatment == "stdout-full":
        assert code == 2 and lines == ["hanoi: error: cannot write to standard output: No space left on device"], err
    elif treatment == "stdin-closed" and name == "check-stdin":
        assert code == 2 and len(lines) == 1 and "standard input is closed" in lines[0], err
    else:  # the reader went away, or stdin is not read: the usual status, and only what the command says anyway
        assert code == usual, err
        assert lines == said.splitlines(), err
        assert (name != "step-off-path" or lines == [OFF_PATH]) and "Traceback" not in said, said


CLOSED = "hanoi: error: standard output is closed, so nothing can be written (started with '>&-'?)"
OFF_PATH = "hanoi: not on the optimal path: disk 1 is on peg 0, which the optimal solution never uses for it here"


@pytest.mark.parametrize(("treatment", "name"), QUICK, ids=[f"{t}-{n}" for t, n in QUICK])
def test_every_ending_is_one_line_or_quiet(quick: dict[tuple[str, str], Outcome], treatment: str, name: str) -> None:
    _judge(quick[(treatment, name)], treatment, name)


@pytest.mark.slow
@pytest.mark.parametrize(("treatment", "name"), REST, ids=[f"{t}-{n}" for t, n in REST])
def test_every_command_ends_so(rest: dict[tuple[str, str], Outcome], treatment: str, name: str) -> None:
    _judge(rest[(treatment, name)], treatment, name)


def test_the_first_moves_of_the_largest_tower_come_at_once() -> None:
    # 2^64 - 1 moves will never all be written, but `| head` gets the first ones.
    with subprocess.Popen([*HANOI, "moves", "recursive", "64"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        head = [proc.stdout.readline() for _ in range(3)]
        proc.stdout.close()
        assert (head, proc.stderr.read(), proc.wait(timeout=60)) == ([b"1 0 1\n", b"2 0 2\n", b"1 1 2\n"], b"", 0)


def _interrupt_when(argv: list[str], ready: str) -> tuple[int, str]:
    """Start ``hanoi argv`` and send SIGINT once *ready* is on its stderr.

    With *ready* empty, SIGINT goes at its first output.
    """
    with subprocess.Popen([*HANOI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        seen = proc.stderr.readline() if ready else proc.stdout.readline()
        assert ready in seen, seen
        proc.send_signal(signal.SIGINT)
        err = proc.stderr.read()
        proc.stdout.close()
        return proc.wait(timeout=60), err


def test_ctrl_c_in_a_long_run_is_one_line_and_status_130() -> None:
    assert _interrupt_when(["moves", "recursive", "40"], "") == (130, "hanoi: interrupted\n")


@pytest.mark.parametrize(
    ("file", "imports"),
    [
        ("cli_import_waits.py", 1),  # in the child that imports plugins first: the command ends it
        ("cli_import_waits_half.py", 2),  # in hanoi's own process, where the interrupt turns into a RuntimeError
    ],
)
def test_ctrl_c_inside_an_import_is_one_line_and_status_130(tmp_path: Path, file: str, imports: int) -> None:
    ready = tmp_path / "ready"
    argv = [*HANOI, "moves", "solve", "2", "--plugin", f"{PLUGINS / file}:solve"]
    with subprocess.Popen(argv, env={**os.environ, "HANOI_TEST_READY": str(ready)}, stderr=subprocess.PIPE) as proc:
        end = time.monotonic() + 60
        while not (ready.exists() and len(ready.read_text().split()) == imports):
            assert time.monotonic() < end and proc.poll() is None, "the import never began"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.stderr is not None
        assert (proc.wait(timeout=60), proc.stderr.read()) == (130, b"hanoi: interrupted\n")
    assert all(gone(int(pid)) for pid in ready.read_text().split())  # the import child too
