"""Test ``hanoi moves --binary``, and the chunked algorithms' output.

The chunked algorithms' text, count and digest are tested too, and the C reference.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hanoi_harness.cli.main import main
from hanoi_harness.core.digest import digest
from hanoi_harness.registry.record import Algorithm
from tests.helpers import ROOT, reference


def run(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, bytes, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsysbinary.readouterr()
    return code, out, err.decode()


def test_binary_round_trips_for_every_algorithm(
    capsysbinary: pytest.CaptureFixture[bytes], algorithm: Algorithm
) -> None:
    n = min(10, algorithm.max_n if algorithm.max_n is not None else 10)
    (peg,) = algorithm.final_peg.pegs(n)
    optimum = algorithm.puzzle.optimum(n, peg)  # 2^n - 1 moves on the classic puzzle
    code, out, _ = run(capsysbinary, "moves", algorithm.name, str(n), "--binary")
    assert optimum is not None and code == 0 and len(out) == 3 * optimum.moves
    moves = [tuple(row) for row in np.frombuffer(out, dtype=np.uint8).reshape(-1, 3).tolist()]
    assert moves == list(algorithm.moves(n))
    code, text, _ = run(capsysbinary, "moves", algorithm.name, str(n))
    assert [tuple(map(int, line.split())) for line in text.decode().splitlines()] == moves


def test_blocks_prints_count_digest_and_text_like_recursive(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    for flags in ([], ["--count"], ["--digest"], ["--binary"]):
        assert run(capsysbinary, "moves", "blocks", "12", *flags) == run(
            capsysbinary, "moves", "recursive", "12", *flags
        )
    count, total = digest(reference(18))
    assert run(capsysbinary, "moves", "blocks", "18", "--digest")[1] == f"{count} {total}\n".encode()
    assert run(capsysbinary, "moves", "blocks", "0", "--binary")[:2] == (0, b"")


def test_binary_into_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hanoi_harness", "moves", "blocks", "24", "--binary"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    head = proc.stdout.read(9)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert head == bytes([1, 0, 1, 2, 0, 2, 1, 1, 2])
    assert err == b"" and proc.returncode == 0


def test_the_c_reference_writes_the_same_bytes_and_is_timed() -> None:
    from hanoi_harness.bench import cref

    if cref.compiler() is None:
        pytest.skip("no C compiler")
    result = cref.measure(12, repeat=1)
    assert result["identical"] is True
    for name in ("c_fwrite_per_move", "c_gathered_writes", "python_blocks"):
        assert result[name] > 0
    assert result["speedup_vs_fwrite_per_move"] == result["c_fwrite_per_move"] / result["python_blocks"]
    assert result["moves"] == 4095 and result["bytes"] == 3 * 4095


def test_the_c_compiler_is_cc_then_gcc_then_cc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.bench import cref

    for name in ("clang-17", "gcc", "cc"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CC", "clang-17")
    assert cref.compiler() == str(tmp_path / "clang-17")
    monkeypatch.setenv("CC", "no-such-cc")
    assert cref.compiler() == str(tmp_path / "gcc")
    (tmp_path / "gcc").unlink()
    assert cref.compiler() == str(tmp_path / "cc")
    (tmp_path / "cc").unlink()
    assert cref.compiler() is None


def test_the_c_reference_says_why_it_was_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.bench import cref

    with pytest.raises(ValueError, match=r"n must be 0\.\.63 for the C reference, got 64"):
        cref.measure(64)
    monkeypatch.setattr(cref, "compiler", lambda: None)
    assert cref.measure(3)["skipped"] == "no C compiler (set CC, or install gcc)"
    monkeypatch.setattr(cref, "compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(cref, "SOURCE", tmp_path / "hanoi_ref.c")
    found = cref.measure(3)
    assert found["skipped"].endswith("hanoi_ref.c is missing (installed without its data)")
    assert (found["moves"], found["bytes"]) == (7, 21) and "compiler" not in found


MEASURED = {
    "n": 20, "moves": 1048575, "bytes": 3145725, "repeat": 2, "compiler": "gcc -O2", "identical": True,
    "c_fwrite_per_move": 0.012, "c_gathered_writes": 0.002, "python_blocks": 0.004,
    "speedup_vs_fwrite_per_move": 3.0, "speedup_vs_gathered_writes": 0.5,
}  # fmt: skip


def test_the_c_reference_command_prints_a_table_or_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hanoi_harness.bench import cref

    monkeypatch.setattr(cref, "measure", lambda n, repeat: {**MEASURED, "n": n, "repeat": repeat})
    assert cref.main(["20", "--repeat", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "n = 20: 1048575 moves, 3145725 bytes to /dev/null, best of 2; outputs identical: True"
    assert [line.rsplit(maxsplit=2) for line in out[-3:]] == [
        ["C -O2, one fwrite per move", "0.012", "3.000"],
        ["C -O2, one fwrite per 16384 moves", "0.002", "0.500"],
        ["hanoi moves blocks N --binary", "0.004", "1.000"],
    ]
    assert cref.main(["20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["python_blocks"] == 0.004
    with pytest.raises(SystemExit) as refused:
        cref.main(["64"])
    assert refused.value.code == 2 and "N must be 0..63" in capsys.readouterr().err


WIDE = str(ROOT / "tests" / "fixtures" / "plugins" / "wide.py:THREE_HUNDRED_PEGS")


@pytest.mark.parametrize(
    ("argv", "limit"),
    [
        (["recursive", "300"], "N is at most 255, got 300"),
        (["recursive", "256"], "N is at most 255, got 256"),
        (["any_state", "300", "--from", ",".join(["2"] * 299 + ["0"]), "--to", ",".join(["1"] * 300)], "got 300"),
        (["three_hundred_pegs", "3", "--plugin", WIDE], "the puzzle has 300 pegs"),
    ],
)
def test_binary_refuses_up_front_what_a_byte_cannot_hold(
    capsysbinary: pytest.CaptureFixture[bytes], argv: list[str], limit: str
) -> None:
    """Binary output refuses up front what a byte cannot hold.

    A disk or peg above 255 once reached the byte writer: a traceback after the moves before it.
    """
    code, out, err = run(capsysbinary, "moves", *argv, "--binary")
    assert (code, out) == (2, b"") and err.count("\n") == 1 and limit in err, err


def test_binary_writes_the_largest_disk_and_peg_a_byte_holds(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    start, goal = ",".join(["2"] * 254 + ["0"]), ",".join(["2"] * 254 + ["1"])
    code, out, _ = run(capsysbinary, "moves", "any_state", "255", "--from", start, "--to", goal, "--binary")
    assert (code, out) == (0, bytes([255, 0, 1]))  # disk 255 moves, and nothing else
