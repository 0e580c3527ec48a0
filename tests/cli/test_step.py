"""Test ``hanoi move``, ``hanoi state`` and ``hanoi step``.

Their output formats and exit codes 0, 1 and 2.
"""

from __future__ import annotations

import pytest

from tests.helpers import reference, run_cli

run = run_cli


def test_every_move_state_and_step_of_a_small_tower(capsys: pytest.CaptureFixture[str]) -> None:
    n = 4
    where = [0] * n
    assert run(capsys, "state", str(n), "0") == (0, "0,0,0,0\n", "")
    assert run(capsys, "step", str(n), "0,0,0,0") == (0, "0\n", "")
    for k, (disk, src, dst) in enumerate(reference(n), 1):
        assert run(capsys, "move", str(n), str(k)) == (0, f"{disk} {src} {dst}\n", "")
        where[disk - 1] = dst
        pegs = ",".join(map(str, where))
        assert run(capsys, "state", str(n), str(k)) == (0, pegs + "\n", "")
        assert run(capsys, "step", str(n), pegs) == (0, f"{k}\n", "")


def test_the_sixty_four_disk_tower_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    last = str(2**64 - 1)
    assert run(capsys, "move", "64", last) == (0, "1 1 2\n", "")
    assert run(capsys, "move", "64", str(2**63)) == (0, "64 0 2\n", "")
    assert run(capsys, "state", "64", last)[1] == ",".join(["2"] * 64) + "\n"
    assert run(capsys, "step", "64", ",".join(["2"] * 64)) == (0, last + "\n", "")


def test_numbers_past_python_s_digit_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # 2^20000 has 6021 digits, past the default 4300-digit limit on int <-> str.
    import sys

    n = 20001
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # for this test's own conversions
    try:
        middle, last = str(2**20000), str(2**n - 1)
    finally:
        sys.set_int_max_str_digits(limit)
    assert run(capsys, "move", str(n), middle) == (0, f"{n} 0 2\n", "")
    assert run(capsys, "step", str(n), ",".join(["2"] * n)) == (0, last + "\n", "")
    assert sys.get_int_max_str_digits() == limit  # the command put the limit back


def test_a_configuration_off_the_path_exits_1_saying_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "step", "3", "0,1,0")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "not on the optimal path" in err and "disk 1" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["move", "3", "0"], "between 1 and 2^3 - 1 = 7"),
        (["move", "3", "8"], "between 1 and 2^3 - 1 = 7"),
        (["move", "0", "1"], "between 1 and 2^0 - 1 = 0"),
        (["state", "3", "8"], "between 0 and 2^3 - 1 = 7"),
        (["state", "3", "-1"], "argument K: expected a non-negative integer, got '-1'"),
        (["move", "x", "1"], "argument N: expected a non-negative integer, got 'x'"),
        (["move", "3", "1.5"], "argument K: expected a non-negative integer, got '1.5'"),
        (["step", "3", "1,1"], "expected 3 pegs"),
        (["step", "3", "1,1,2,2"], "expected 3 pegs"),
        (["step", "3", "1,1,3"], "disk 3: peg '3' is not 0, 1 or 2"),
        (["step", "2", "a,0"], "disk 1: peg 'a' is not 0, 1 or 2"),
        (["step", "3"], "the following arguments are required: PEGS"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert fragment in err, err


def test_no_disks(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "state", "0", "0") == (0, "\n", "")
    assert run(capsys, "step", "0", "") == (0, "0\n", "")
