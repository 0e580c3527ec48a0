"""Test ``hanoi check`` on hostile input.

Byte-order marks, UTF-16 and UTF-32, NUL bytes, binary data, strict standard input, over-long lines, and
very large streams read in constant memory.
"""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.transcript.check import LIMIT, MalformedLine, UnreadableInput, check_lines
from hanoi_harness.transcript.command import run_command
from tests.helpers import assert_one_line_error, reference, run_cli

MOVES = "".join(f"Move disk {d} from {'ABC'[s]} to {'ABC'[t]}\n" for d, s, t in reference(4))


def check_bytes(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, *opts: str) -> tuple[int, str, str]:
    """Run ``hanoi check -n 4 FILE`` on a file holding ``data``.

    Return (status, stdout, stderr).
    """
    path = tmp_path / "moves.txt"
    path.write_bytes(data)
    return run_cli(capsys, "check", "-n", "4", str(path), *opts)


@pytest.mark.parametrize(
    "data",
    [
        MOVES.encode("utf-8-sig"),
        MOVES.encode("utf-16"),
        MOVES.encode("utf-16-be").join([b"\xfe\xff", b""]),
        MOVES.encode("utf-32"),
        MOVES.replace("\n", "\r\n").encode(),
        MOVES.replace("\n", "\r").encode(),
        MOVES.replace("\n", "\r\n").encode("utf-16"),
    ],
    ids=["utf-8 BOM", "utf-16 LE BOM", "utf-16 BE BOM", "utf-32 BOM", "CRLF", "CR", "utf-16 CRLF"],
)
def test_text_in_any_unicode_encoding_with_a_byte_order_mark_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes
) -> None:
    code, out, err = check_bytes(capsys, tmp_path, data)
    assert (code, err) == (0, ""), out + err
    assert out.startswith("ok: 15 moves")


def test_a_byte_order_mark_in_a_text_stream_does_not_hide_the_first_move() -> None:
    assert check_lines(["\ufeffMove disk 1 from A to C\n"], 1).ok


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (MOVES.encode("utf-16-le"), "UTF-16 text with no byte-order mark (--encoding utf-16-le)"),
        (MOVES.encode("utf-16-be"), "UTF-16 text with no byte-order mark (--encoding utf-16-be)"),
        (
            bytes([1, 0, 2, 2, 0, 1, 1, 2, 1]),
            "'\\x01\\x00\\x02\\x02\\x00\\x01\\x01\\x02\\x01': a NUL byte: binary data, not text (no option reads it)",
        ),
        (b"Move disk 1 from A to C\nMove\x00 disk 2\n", "line 2: cannot read a move from 'Move\\x00 disk 2'"),
        (bytes(range(128, 256)) * 4, "no moves read: the input is not UTF-8 text"),
    ],
    ids=["utf-16-le without BOM", "utf-16-be without BOM", "binary moves", "NUL in a line", "not UTF-8"],
)
def test_binary_input_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, fragment: str
) -> None:
    code, out, err = check_bytes(capsys, tmp_path, data)
    assert out == ""
    assert_one_line_error(code, err, fragment)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "shift_jis", "latin-1"])
def test_an_encoding_given_with_its_option_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, codec: str
) -> None:
    path = tmp_path / "moves.txt"
    path.write_bytes(("ハノイ\n" if codec == "shift_jis" else "Hanoï\n").encode(codec) + MOVES.encode(codec))
    code, out, err = run_cli(capsys, "check", "-n", "4", str(path), "--encoding", codec)
    assert code == 0, out + err
    code, _, err = run_cli(capsys, "check", "-n", "4", str(path), "--encoding", "base64")
    assert_one_line_error(code, err, "argument --encoding: 'base64' is not a text encoding")


def test_latin_1_text_around_the_moves_is_no_obstacle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = "Tours de Hanoï, 4 disques\n".encode("latin-1") + MOVES.encode()
    assert check_bytes(capsys, tmp_path, data)[0] == 0


def hanoi_process(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """Run the real ``hanoi`` command in a child process.

    That is ``python -m hanoi_harness``.
    """
    command = [sys.executable, "-m", "hanoi_harness", *args]
    done: subprocess.CompletedProcess[bytes] = subprocess.run(command, capture_output=True, timeout=120, **kwargs)
    return done


def test_binary_on_strict_utf8_standard_input_is_one_line() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    proc = hanoi_process("check", "-n", "3", input=bytes(range(128, 256)) * 8, env=env)
    assert_one_line_error(proc.returncode, proc.stderr.decode(), "no moves read: the input is not UTF-8 text")
    proc = hanoi_process("check", "-n", "4", input=MOVES.encode("utf-16"), env=env)
    assert proc.returncode == 0 and proc.stdout.startswith(b"ok: 15 moves")


def test_closed_standard_input_is_one_line() -> None:
    proc = hanoi_process("check", "-n", "3", stdin=subprocess.DEVNULL, pass_fds=())
    assert_one_line_error(proc.returncode, proc.stderr.decode(), "no moves read: the input is empty")
    command = shlex.join([sys.executable, "-m", "hanoi_harness", "check", "-n", "3"])
    proc = subprocess.run(["bash", "-c", f"{command} <&-"], capture_output=True, timeout=120)
    assert_one_line_error(proc.returncode, proc.stderr.decode(), "standard input is closed")


def test_a_text_standard_input_without_bytes_under_it_is_read_as_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a program embedding hanoi may give as sys.stdin: text, with no .buffer.
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 A->B\n2 A->C\n1 B->C\n"))
    code, out, _ = run_cli(capsys, "check", "-n", "2")
    assert code == 0 and out.startswith("ok: 3 moves, legal and optimal for n = 2")


@pytest.mark.parametrize("where", [1, 3])
def test_an_over_long_line_is_refused_with_its_number_and_a_short_quote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: int
) -> None:
    lines = MOVES.splitlines(keepends=True)
    lines.insert(where - 1, "Move " + "x" * 40_000 + "\n")
    code, out, err = check_bytes(capsys, tmp_path, "".join(lines).encode())
    assert out == ""
    assert_one_line_error(
        code, err, f"line {where}: cannot read a move from 'Move xxxxx", "longer than 10000 characters"
    )
    assert len(err) < 160


def test_numbers_of_any_size_are_verdicts_or_one_line() -> None:
    verdict = check_lines(["A -> C " + "9" * 30] * 2, 1)
    assert (verdict.status, verdict.step) == ("illegal", 1) and "disk 99999" in verdict.reason
    lines = ["Move disk 1 from A to C", "Move disk 1 from C to B", "Move disk " + "1" * 5000 + " from B to C"]
    with pytest.raises(MalformedLine, match=r"line 3: .* the disk number has 5000 digits"):
        check_lines(lines, 1)


def test_a_move_then_a_long_run_of_spaces_is_one_over_long_line() -> None:
    lines = ["Move disk 1 from A to C\n", "Move disk 1 from C to B" + " " * LIMIT + "junk\n"]
    with pytest.raises(MalformedLine, match=r"line 2: .* longer than 10000 characters"):
        check_lines(io.StringIO("".join(lines)), 1)


def test_a_line_just_under_the_limit_is_read() -> None:
    line = "Move disk 1 from A to C" + " " * (LIMIT - 30) + "\n"
    assert len(line) < LIMIT and check_lines(io.StringIO(line), 1).ok
    with pytest.raises(MalformedLine, match="longer than"):
        check_lines(io.StringIO("Move disk 1 from A to C" + " " * LIMIT + "\n"), 1)


def test_a_binary_stream_is_decoded_like_a_file() -> None:
    assert check_lines(io.BytesIO(MOVES.encode("utf-16")), 4).ok  # type: ignore[arg-type]


# Constant memory: 'hanoi check' fed by a program that generates the input as it goes, never a file.

PRODUCER = """
import sys
kind, size = sys.argv[1], int(sys.argv[2])
out = sys.stdout
def hanoi(n, a, b, c):
    if n:
        yield from hanoi(n - 1, a, c, b)
        yield n, a, c
        yield from hanoi(n - 1, b, a, c)
try:
    if kind == "line":  # one line of size bytes
        block = "x" * 65536
        for _ in range(size // len(block)):
            out.write(block)
    elif kind == "moves":  # the moves of n = size, one a line
        for d, a, c in hanoi(size, "A", "B", "C"):
            out.write(f"Move disk {d} from {a} to {c}\\n")
    else:  # the moves of n = size on one line, as a Python list
        out.write("[")
        for d, a, c in hanoi(size, 1, 2, 3):
            out.write(f"({a}, {c}), ")
        out.write("]\\n")
    out.flush()
except BrokenPipeError:
    sys.stderr.close()
"""


# 'hanoi check' that writes its peak memory into a file at exit: VmHWM, its own address space's
# high-water mark.  ru_maxrss would count the pages of the process it was forked from, here pytest's.
MEASURED = """
import sys
from hanoi_harness.cli.main import main
try:
    code = main(sys.argv[2:])
finally:
    with open("/proc/self/status") as status, open(sys.argv[1], "w") as out:
        out.write(next(line for line in status if line.startswith("VmHWM")))
sys.exit(code)
"""


def peak_of_check(kind: str, size: int, n: int, tmp_path: Path) -> tuple[int, bytes, bytes, int]:
    """Run ``producer | hanoi check -n N``; check's status, output and peak.

    Return check's exit status, output, error, and peak memory in MB.
    """
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc/self/status for the peak memory")
    peak = tmp_path / "peak"
    producer = subprocess.Popen([sys.executable, "-c", PRODUCER, kind, str(size)], stdout=subprocess.PIPE)
    check = subprocess.run(
        [sys.executable, "-c", MEASURED, str(peak), "check", "-n", str(n)],
        stdin=producer.stdout,
        capture_output=True,
        timeout=3600,
    )
    assert producer.stdout is not None
    producer.stdout.close()
    producer.wait(timeout=600)
    return check.returncode, check.stdout, check.stderr, int(peak.read_text().split()[1]) // 1024  # kB


def test_a_200_mb_line_is_refused_in_constant_memory(tmp_path: Path) -> None:
    code, _, err, peak = peak_of_check("line", 200 * 2**20, 3, tmp_path)
    assert_one_line_error(code, err.decode(), "line 1: cannot read a move from 'xxx", "longer than 10000 characters")
    assert peak < 100, f"{peak} MB"


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "n"), [("moves", 23), ("list", 24)])
def test_200_mb_of_moves_are_read_in_constant_memory(kind: str, n: int, tmp_path: Path) -> None:
    # 2^23 - 1 lines of some 24 bytes (200 MB); 2^24 - 1 items of 8 bytes on one line (134 MB)
    code, out, err, peak = peak_of_check(kind, n, n, tmp_path)
    assert (code, err) == (0, b""), err
    assert out.startswith(f"ok: {2**n - 1} moves".encode())
    assert peak < 100, f"{peak} MB"


# The same reader behind 'hanoi bench --command'.


def program(tmp_path: Path, body: str) -> str:
    path = tmp_path / "prog.py"
    path.write_text(body)
    return f"{shlex.quote(sys.executable)} -S -E {shlex.quote(str(path))}"


def test_a_command_that_prints_no_move_is_incomplete_and_says_why(tmp_path: Path) -> None:
    verdict, _ = run_command(program(tmp_path, "print('  |  |  |')"), 3)
    assert verdict.status == "incomplete" and verdict.reason.startswith("no moves read: the only line is not a move")
    verdict, _ = run_command(program(tmp_path, "import sys; sys.exit(4)"), 3)
    assert verdict.status == "crashed" and "status 4" in verdict.reason


def test_a_command_that_prints_utf16_or_a_huge_line_is_stopped_at_that_line(tmp_path: Path) -> None:
    utf16 = "import sys; sys.stdout.buffer.write('A -> C\\n'.encode('utf-16-le'))"
    verdict, _ = run_command(program(tmp_path, utf16), 1)
    assert verdict.status == "illegal" and "a NUL byte" in verdict.reason
    huge = "import sys\nfor _ in range(3000): sys.stdout.write('x' * 65536)"
    verdict, _ = run_command(program(tmp_path, huge), 1, timeout=60)
    assert verdict.status == "illegal" and "longer than 10000 characters" in verdict.reason


def test_a_line_of_moves_longer_than_the_limit_is_read_piece_by_piece() -> None:
    n = 13
    moves = [f"{'ABC'[s]}->{'ABC'[t]}" for _, s, t in reference(n)]
    line = " ".join(moves) + "\n"
    assert len(line) > 3 * LIMIT
    verdict = check_lines(io.StringIO(line), n)
    assert verdict.ok and verdict.moves == 2**n - 1
    moves[5000] = moves[5000][::-1].replace(">-", "->")  # its destination and source swapped
    verdict = check_lines(io.StringIO(" ".join(moves) + "\n"), n)
    assert (verdict.status, verdict.step, verdict.extra["line"]) == ("illegal", 5001, 1)
    moves[6000] = "A->?"
    with pytest.raises(MalformedLine, match="line 1: "):
        check_lines(io.StringIO(" ".join(moves[:5000] + moves[5001:]) + "\n"), n)


HOSTILE = {
    "a wide picture row": ["=" * 999, " |" * 499, "=|=" * 333] * 200,
    "brackets without end": ["Moving from [3, 2, 1] to []", "[" * 9_000, "from [" + "1, " * 3_000],
    "many postpositions": ["1 を A から C に", "から " * 3_000, "A에서 " * 2_000 + "C로"],
    "half moves everywhere": ["Move disk 1", "Move disk 2"] * 300 + ["from A to C"],
    "a glued word in every place": ["Move disk 1 from Ato C " * 400],
    "states and moves at odds": ["Move disk from 0 to 1 : [[3, 2], [1], []]", "Move disk from 0 to 2 : [[9]] [[" * 500],
}


@pytest.mark.parametrize("lines", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_lines_for_the_inference_end_in_a_verdict_or_one_line(lines: list[str]) -> None:
    try:
        verdict = check_lines(lines, 3)
    except MalformedLine as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
    except UnreadableInput as exc:
        assert "\n" not in str(exc)
    else:
        assert not verdict.ok
