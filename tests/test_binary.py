"""``hanoi moves --binary`` and the chunked algorithms' text, count and digest; the C reference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hanoi_harness.cli import main
from hanoi_harness.digest import digest
from hanoi_harness.registry import Algorithm
from tests.helpers import reference


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
        cwd=Path(__file__).resolve().parents[1],
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
