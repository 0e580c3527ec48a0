"""Test ``hanoi moves --binary``, and the chunked algorithms' output.

The chunked algorithms' text, count and digest are tested too.
"""

from __future__ import annotations

import subprocess
import sys

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
