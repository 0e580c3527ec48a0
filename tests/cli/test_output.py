"""What an algorithm prints goes to stderr in every command.

It never goes among the moves; a crash names its line.

The plugins are ``tests/fixtures/plugins/prints.py``.  The tests that need descriptor 1 itself (``os.write``,
a pipe into ``hanoi check``) run the installed ``hanoi`` command; the others run it in this process.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, reference, run_cli

PRINTS = FIXTURES / "plugins" / "prints.py"
HANOI = str(Path(sys.executable).with_name("hanoi"))
CRASH_LINE = next(i for i, line in enumerate(PRINTS.read_text().splitlines(), 1) if "the line a crash names" in line)


def plugin(func: str) -> list[str]:
    return ["--plugin", f"{PRINTS}:{func}"]


def hanoi(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([HANOI, *args], input=stdin, capture_output=True, timeout=120, check=False)


def binary(n: int) -> bytes:
    return bytes(itertools.chain.from_iterable(reference(n)))


def text(n: int) -> str:
    return "".join(f"{d} {s} {t}\n" for d, s, t in reference(n))


def test_binary_moves_of_a_generator_that_prints_before_each_move_are_the_moves_alone() -> None:
    done = hanoi("moves", "chatty", "10", "--binary", *plugin("chatty"))
    assert done.returncode == 0 and len(done.stdout) == 3 * 1023 and done.stdout == binary(10)
    lines = done.stderr.decode().splitlines()
    assert lines[0] == "prints.py: imported" and lines[1:] == [f"moving {move}" for move in reference(10)]


def test_a_printing_but_correct_algorithm_piped_into_check_is_ok() -> None:
    moves = subprocess.Popen([HANOI, "moves", "chatty", "12", *plugin("chatty")], stdout=subprocess.PIPE)
    assert moves.stdout is not None
    try:
        checked = subprocess.run([HANOI, "check", "-n", "12"], stdin=moves.stdout, capture_output=True, timeout=120)
    finally:
        moves.stdout.close()
        assert moves.wait(timeout=120) == 0
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.decode().startswith("ok: 4095 moves")


@pytest.mark.parametrize("mode", ["", "--binary"])
def test_writes_to_sys_stdout_its_buffer_and_descriptor_1_go_to_stderr(mode: str) -> None:
    done = hanoi("moves", "writer", "4", *([mode] if mode else []), *plugin("writer"))
    assert done.returncode == 0
    assert done.stdout == (binary(4) if mode else text(4).encode())
    said = done.stderr.decode()
    assert said.count("w") >= 15 and said.count("b") >= 15 and said.count("1") >= 15
    assert said.endswith("a last line without its newline")


@pytest.mark.parametrize("command", ["moves", "show"])
def test_a_generator_that_closes_stdout_harms_nobody(command: str) -> None:
    done = hanoi(command, "closer", "3", *plugin("closer"))
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"printed after closing" in done.stderr
    if command == "moves":
        assert done.stdout == text(3).encode()
    else:
        assert done.stdout.count(b"[step ") == 8


def test_show_and_list_write_only_their_own_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "show", "chatty", "2", *plugin("chatty"))
    assert code == 0 and "moving" not in out and out.count("[step ") == 4
    assert err.splitlines() == ["prints.py: imported", "moving (1, 0, 1)", "moving (2, 0, 2)", "moving (1, 1, 2)"]
    code, out, err = run_cli(capsys, "list", "--names", *plugin("chatty"))
    assert code == 0 and out.splitlines()[-1] == "chatty" and "imported" not in out
    assert err == "prints.py: imported\n"


def test_verify_shows_the_start_of_what_an_algorithm_printed_after_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "verify", "chatty", "--n", "10", *plugin("chatty"))
    assert code == 0 and "moving" not in out and "imported" not in out
    lines = err.splitlines()
    assert lines[:3] == ["chatty: prints.py: imported", "chatty: moving (1, 0, 1)", "chatty: moving (2, 0, 2)"]
    assert len(lines) == 21 and lines[-1] == "chatty: (1004 more lines printed)"  # 1 + 1023 lines, 20 shown


def test_a_crash_names_the_line_of_the_algorithms_code_and_verify_traceback_prints_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    where = f"prints.py:{CRASH_LINE} in crashes)"
    code, _, err = run_cli(capsys, "moves", "crashes", "3", *plugin("crashes"))
    assert code == 1 and err.splitlines()[-1].endswith(where), err
    assert "crashed at step 2: IndexError: list index out of range (at " in err
    code, out, err = run_cli(capsys, "verify", "crashes", "--n", "3", "--traceback", *plugin("crashes"))
    assert code == 1 and "crashed" in out and "Traceback" not in out
    told = err.splitlines()
    start = told.index(next(line for line in told if line.startswith("crashes, n = 3: crashed at step 2")))
    assert told[start].endswith(where)
    assert told[start + 1] == "Traceback (most recent call last):" and told[-1] == "IndexError: list index out of range"
    assert f'prints.py", line {CRASH_LINE}, in crashes' in err and "hanoi_harness" not in "".join(told[start:])
    code, _, err = run_cli(capsys, "verify", "crashes", "--n", "3", *plugin("crashes"))
    assert code == 1 and "Traceback" not in err  # only when asked
    code, _, err = run_cli(capsys, "verify", "crashes", "--n-max", "5", "--traceback", *plugin("crashes"))
    assert code == 1 and err.count("Traceback (most recent call last):") == 1, err
    assert err.count("the same traceback as crashes, n = 1") >= 2


def test_show_names_the_line_of_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "show", "crashes", "3", *plugin("crashes"))
    assert code == 1 and out.splitlines()[-1].endswith(f"prints.py:{CRASH_LINE} in crashes)")


def test_bench_writes_only_its_summary_on_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hanoi_harness.bench import run as bench_run
    from hanoi_harness.bench.results.resultset import load

    monkeypatch.setattr(bench_run, "find_valgrind", lambda: "left out of this test")
    out = tmp_path / "out"
    code, said, err = run_cli(capsys, "bench", "--quick", "--sizes", "3", "--out", str(out), *plugin("writer"))
    assert code == 0 and said == f"wrote {out}/ (quick run of 2 algorithms); the report: {out}/index.html\n"
    assert "a last line without its newline" in err
    runs = load(out).algorithms["writer"].runs
    assert runs[-1].rss is not None  # the peak-RSS child's answer survived the prints


def test_an_algorithm_child_started_by_hand_keeps_its_prints_off_its_answer(tmp_path: Path) -> None:
    from hanoi_harness import process

    argv = process.python_command("hanoi_harness.bench.memory.child", "writer", "3", "0.01", f"{PRINTS}:writer")
    done = subprocess.run(argv, env=process.python_environment(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{"peak_mib": ') and done.stdout.count("\n") == 1
    assert "a last line without its newline" in done.stderr and os.linesep not in done.stderr[-5:]


def test_the_instruction_count_child_keeps_its_prints_off_its_json_lines() -> None:
    import json

    from hanoi_harness import process

    spec = json.dumps({"jobs": [["writer", [2, 3]]], "plugins": [f"{PRINTS}:writer"], "timeout_s": 60})
    argv = process.python_command("hanoi_harness.bench.counts.child", spec)
    done = subprocess.run(argv, env=process.python_environment(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]  # every line is JSON
    assert [(line["name"], line["n"], line["moves"]) for line in lines if line["name"] == "writer"] == [
        ("writer", 2, 3),
        ("writer", 3, 7),
        ("writer", 2, 3),
    ]
    assert "a last line without its newline" in done.stderr
