"""Port-specific tests of Qiao's non-recursive algorithms (Hanoi_1 .. Hanoi_5).

Each test name carries its algorithm's registered name, so ``-k flag_stack``
selects exactly that port's tests.  Generic legality/optimality checks over
the registry live in the harness's own tests.
"""

import inspect
import time
from collections.abc import Generator
from itertools import islice
from typing import cast

import pytest

from hanoi_harness.algorithms import clockwise_pillars, flag_stack, inorder_stack, level_formula, tree_array
from hanoi_harness.registry import Algorithm, FinalPeg, build_registry

N3 = [(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)]
"""1 A C, 2 A B, 1 C B, 3 A C, 1 B A, 2 B C, 1 A C in the project model."""

N3_RAW = [
    (1, "A", "C"), (2, "A", "B"), (1, "C", "B"), (3, "A", "C"),
    (1, "B", "A"), (2, "B", "C"), (1, "A", "C"),
]  # fmt: skip


def record(name: str) -> Algorithm:
    return build_registry(entry_points=False).get(name)


def first_moves(name: str, n: int, k: int) -> list[tuple[int, int, int]]:
    return list(islice(record(name).moves(n), k))


def recursive_first(n: int, k: int) -> list[tuple[int, int, int]]:
    """The recursion's first k moves for n disks, read off n' = 10 or 11 of the same parity.

    The first 2^(m-1) - 1 moves for n disks depend only on the parity of n when m <= n,
    and the reference itself cannot run n = 1000 (one generator frame per disk).
    """
    assert k < 2**9 and n >= 10
    return first_moves("recursive", 10 + n % 2, k)


# -- shared checks, called from one test per algorithm ---------------------------------


def check_metadata(name: str) -> None:
    rec = record(name)
    assert rec.pegs == ("A", "B", "C")
    assert rec.disks == "ascending"
    assert rec.final_peg == FinalPeg.fixed(2)
    assert rec.source is not None and rec.source.author.startswith("Qiao")


def check_n3_sequence(name: str) -> None:
    assert list(record(name).moves(3)) == N3
    assert list(record(name).solve(3)) == N3_RAW


def check_equals_recursive_1_to_12(name: str) -> None:
    reference = record("recursive")
    port = record(name)
    for n in range(1, 13):
        assert list(port.moves(n)) == list(reference.moves(n)), n


# -- flag_stack (Hanoi_1) -------------------------------------------------------------


def test_flag_stack_metadata() -> None:
    check_metadata("flag_stack")


def test_flag_stack_n3_sequence() -> None:
    check_n3_sequence("flag_stack")


def test_flag_stack_equals_recursive_1_to_12() -> None:
    check_equals_recursive_1_to_12("flag_stack")


def test_flag_stack_limits_declared() -> None:
    rec = record("flag_stack")
    assert (rec.min_n, rec.max_n) == (1, 1000)
    assert "2000" in rec.max_n_reason
    assert "num == 1" in rec.min_n_reason


def test_flag_stack_accepts_1000_first_move_at_once() -> None:
    moves = record("flag_stack").moves(1000)
    start = time.perf_counter()
    first = next(moves)
    assert time.perf_counter() - start < 1.0
    assert first == (1, 0, 1)  # n even: disk 1 starts towards the middle peg
    assert list(islice(moves, 5)) == recursive_first(1000, 6)[1:]


def test_flag_stack_refuses_1001() -> None:
    with pytest.raises(OverflowError, match="2000"):
        next(iter(flag_stack.solve(1001)))


def test_flag_stack_refuses_0() -> None:
    # num never reaches 1 (0, -1, -2, ...): the decomposition runs into slot 2000.
    with pytest.raises(OverflowError, match="2000"):
        next(iter(flag_stack.solve(0)))


def test_flag_stack_stale_y_of_direct_move_record() -> None:
    # The direct-move record pushed while decomposing gets no y: the slot keeps whatever it held
    # (uninitialised in C; decomposition always puts these records in odd slots, so y is never set).
    gen = cast("Generator[tuple[int, str, str], None, None]", flag_stack.hanoi_1(2, "A", "B", "C"))
    assert next(gen) == (1, "A", "B")
    stack = inspect.getgeneratorlocals(gen)["s"]
    assert (stack[1].flag, stack[1].num, stack[1].x, stack[1].z) == (0, 2, "A", "C")
    assert stack[1].y == ""  # never written: the placeholder of an untouched C slot


# -- inorder_stack (hanoi_2) ------------------------------------------------------------


def test_inorder_stack_metadata() -> None:
    check_metadata("inorder_stack")


def test_inorder_stack_n3_sequence() -> None:
    check_n3_sequence("inorder_stack")


def test_inorder_stack_equals_recursive_1_to_12() -> None:
    check_equals_recursive_1_to_12("inorder_stack")


def test_inorder_stack_limits_declared() -> None:
    rec = record("inorder_stack")
    assert (rec.min_n, rec.max_n) == (0, 64)
    assert "64" in rec.max_n_reason


def test_inorder_stack_n0_no_moves() -> None:
    assert list(inorder_stack.solve(0)) == []


def test_inorder_stack_accepts_64_first_moves() -> None:
    assert first_moves("inorder_stack", 64, 6) == recursive_first(64, 6)


def test_inorder_stack_refuses_65() -> None:
    with pytest.raises(OverflowError, match="64"):
        next(iter(inorder_stack.solve(65)))


# -- tree_array (Hanoi_3) ---------------------------------------------------------------


def test_tree_array_metadata() -> None:
    check_metadata("tree_array")


def test_tree_array_n3_sequence() -> None:
    check_n3_sequence("tree_array")


def test_tree_array_equals_recursive_1_to_12() -> None:
    check_equals_recursive_1_to_12("tree_array")


def test_tree_array_limits_declared() -> None:
    rec = record("tree_array")
    assert (rec.min_n, rec.max_n) == (0, 17)
    assert "132000" in rec.max_n_reason


def test_tree_array_n0_no_moves() -> None:
    assert list(tree_array.solve(0)) == []


@pytest.mark.parametrize("n", range(1, 11))
def test_tree_array_node_array_length(n: int) -> None:
    bt, half = tree_array.build_tree(n, "A", "B", "C")
    assert len(bt) == 2**n  # nodes BT[1 .. 2^n - 1] plus the unused slot 0
    assert half == 2 ** (n - 1)
    assert [node.num for node in bt[1:4]] == [n, n - 1, n - 1][: len(bt) - 1]


def test_tree_array_accepts_17_builds_and_first_moves() -> None:
    bt, _ = tree_array.build_tree(17, "A", "B", "C")
    assert len(bt) == 2**17 == 131072 < tree_array.CAPACITY
    assert (bt[-1].num, bt[1].num) == (1, 17)
    assert first_moves("tree_array", 17, 6) == recursive_first(17, 6)


def test_tree_array_refuses_18() -> None:
    with pytest.raises(OverflowError, match="132000"):
        next(iter(tree_array.solve(18)))


# -- level_formula (Hanoi_4) -------------------------------------------------------------


def test_level_formula_metadata() -> None:
    check_metadata("level_formula")


def test_level_formula_n3_sequence() -> None:
    check_n3_sequence("level_formula")


def test_level_formula_equals_recursive_1_to_12() -> None:
    check_equals_recursive_1_to_12("level_formula")


def test_level_formula_limits_declared() -> None:
    rec = record("level_formula")
    assert (rec.min_n, rec.max_n) == (0, 30)
    assert "31" in rec.max_n_reason


def test_level_formula_n0_no_moves() -> None:
    assert list(level_formula.solve(0)) == []


def test_level_formula_accepts_30_first_moves() -> None:
    assert first_moves("level_formula", 30, 6) == recursive_first(30, 6)


def test_level_formula_refuses_31() -> None:
    with pytest.raises(OverflowError, match="1 << n"):
        next(iter(level_formula.solve(31)))


# -- clockwise_pillars (Hanoi_5) -----------------------------------------------------------


def test_clockwise_pillars_metadata() -> None:
    check_metadata("clockwise_pillars")


def test_clockwise_pillars_n3_sequence() -> None:
    check_n3_sequence("clockwise_pillars")


def test_clockwise_pillars_equals_recursive_1_to_12() -> None:
    check_equals_recursive_1_to_12("clockwise_pillars")


def test_clockwise_pillars_limits_declared() -> None:
    rec = record("clockwise_pillars")
    assert (rec.min_n, rec.max_n) == (0, 31)
    assert "32" in rec.max_n_reason


def test_clockwise_pillars_n0_no_moves() -> None:
    assert list(clockwise_pillars.solve(0)) == []


def test_clockwise_pillars_accepts_31_first_moves() -> None:
    assert first_moves("clockwise_pillars", 31, 6) == recursive_first(31, 6)


def test_clockwise_pillars_refuses_32() -> None:
    with pytest.raises(OverflowError, match="32-bit"):
        next(iter(clockwise_pillars.solve(32)))


@pytest.mark.parametrize("n", range(1, 9))
def test_clockwise_pillars_disk1_goes_clockwise(n: int) -> None:
    # Disk 1 cycles A B C (n even) or A C B (n odd) and every other move is not disk 1.
    ring = "ABC" if n % 2 == 0 else "ACB"
    moves = list(clockwise_pillars.solve(n))
    for step, (disk, src, dst) in enumerate(moves):
        if step % 2 == 0:
            k = step // 2
            assert (disk, src, dst) == (1, ring[k % 3], ring[(k + 1) % 3])
        else:
            assert disk != 1
