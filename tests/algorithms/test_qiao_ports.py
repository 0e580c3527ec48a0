"""Port-specific tests of Qiao's non-recursive algorithms, Hanoi_1 .. 5.

The checks every port shares are parametrized over :data:`PORTS`, with the
port's registered name in each test id, so ``-k flag_stack`` selects exactly
that port's tests.  Generic legality and optimality checks over the registry
are in tests/algorithms/test_algorithms.py.
"""

import inspect
from collections.abc import Generator
from dataclasses import dataclass
from itertools import islice
from types import ModuleType
from typing import cast

import pytest

from hanoi_algorithms import clockwise_pillars, flag_stack, inorder_stack, level_formula, tree_array
from hanoi_harness.registry.record import Algorithm, FinalPeg
from hanoi_harness.registry.sources import build_registry

N3 = [(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)]
"""1 A C, 2 A B, 1 C B, 3 A C, 1 B A, 2 B C, 1 A C in the project model."""

N3_RAW = [
    (1, "A", "C"), (2, "A", "B"), (1, "C", "B"), (3, "A", "C"),
    (1, "B", "A"), (2, "B", "C"), (1, "A", "C"),
]  # fmt: skip


@dataclass(frozen=True)
class Port:
    """What one port's original fixes: limits, refusal words, first refused n."""

    name: str
    module: ModuleType
    min_n: int
    max_n: int
    reason: str  # a fragment of max_n_reason
    overflow: str  # a fragment of the OverflowError past max_n
    refused: int

    def __str__(self) -> str:
        return self.name


PORTS = [
    Port("flag_stack", flag_stack, 1, 1000, "2000", "2000", 1001),
    Port("inorder_stack", inorder_stack, 0, 64, "64", "64", 65),
    Port("tree_array", tree_array, 0, 17, "132000", "132000", 18),
    Port("level_formula", level_formula, 0, 30, "31", "1 << n", 31),
    Port("clockwise_pillars", clockwise_pillars, 0, 31, "32", "32-bit", 32),
]

each_port = pytest.mark.parametrize("port", PORTS, ids=str)


def record(name: str) -> Algorithm:
    return build_registry(entry_points=False).get(name)


def first_moves(name: str, n: int, k: int) -> list[tuple[int, int, int]]:
    return list(islice(record(name).moves(n), k))


def recursive_first(n: int, k: int) -> list[tuple[int, int, int]]:
    """Return the recursion's first k moves for n disks.

    They are read off n' = 10 or 11 disks, of the same parity as n.

    The first 2^(m-1) - 1 moves for n disks depend only on the parity of n when m <= n,
    and the reference itself cannot run n = 1000 (one generator frame per disk).
    """
    assert k < 2**9 and n >= 10
    return first_moves("recursive", 10 + n % 2, k)


# -- what every port shares -----------------------------------------------------------


@each_port
def test_metadata(port: Port) -> None:
    rec = record(port.name)
    assert rec.pegs == ("A", "B", "C")
    assert rec.disks == "ascending"
    assert rec.final_peg == FinalPeg.fixed(2)
    assert rec.source is not None and rec.source.author.startswith("Qiao")


@each_port
def test_n3_sequence_in_its_own_labels_and_the_model(port: Port) -> None:
    assert list(record(port.name).moves(3)) == N3
    assert list(record(port.name).solve(3)) == N3_RAW


@each_port
def test_limits_declared(port: Port) -> None:
    rec = record(port.name)
    assert (rec.min_n, rec.max_n) == (port.min_n, port.max_n)
    assert port.reason in rec.max_n_reason


@each_port
def test_largest_n_starts_like_the_recursion(port: Port) -> None:
    assert first_moves(port.name, port.max_n, 6) == recursive_first(port.max_n, 6)


@each_port
def test_refuses_past_its_fixed_size(port: Port) -> None:
    with pytest.raises(OverflowError, match=port.overflow):
        next(iter(port.module.solve(port.refused)))


@pytest.mark.parametrize("port", [p for p in PORTS if p.min_n == 0], ids=str)
def test_n0_makes_no_moves(port: Port) -> None:
    assert list(port.module.solve(0)) == []


def test_level_formula_refuses_a_negative_shift_and_a_step_before_the_first() -> None:
    with pytest.raises(ValueError, match="1 << n with n = -1 is a negative shift"):
        next(iter(level_formula.solve(-1)))
    with pytest.raises(ValueError, match="the first step is i = 1, got 0"):
        next(iter(level_formula.solve_from(3, 0)))


# -- flag_stack (Hanoi_1) -------------------------------------------------------------


def test_flag_stack_needs_one_disk() -> None:
    assert "num == 1" in record("flag_stack").min_n_reason


def test_flag_stack_refuses_0() -> None:
    # num never reaches 1 (0, -1, -2, ...): the decomposition runs into slot 2000.
    with pytest.raises(OverflowError, match="2000"):
        next(iter(flag_stack.solve(0)))


def test_flag_stack_stale_y_of_direct_move_record() -> None:
    # The direct-move record pushed while decomposing gets no y: the slot keeps whatever it held.
    # In C that is uninitialised; decomposition puts these records in odd slots, so y is never set.
    gen = cast("Generator[tuple[int, str, str], None, None]", flag_stack.hanoi_1(2, "A", "B", "C"))
    assert next(gen) == (1, "A", "B")
    stack = inspect.getgeneratorlocals(gen)["s"]
    assert (stack[1].flag, stack[1].num, stack[1].x, stack[1].z) == (0, 2, "A", "C")
    assert stack[1].y == ""  # never written: the placeholder of an untouched C slot


# -- tree_array (Hanoi_3) ---------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 11))
def test_tree_array_node_array_length(n: int) -> None:
    bt, half = tree_array.build_tree(n, "A", "B", "C")
    assert len(bt) == 2**n  # nodes BT[1 .. 2^n - 1] plus the unused slot 0
    assert half == 2 ** (n - 1)
    assert [node.num for node in bt[1:4]] == [n, n - 1, n - 1][: len(bt) - 1]


def test_tree_array_at_17_fills_131072_of_its_132000_nodes() -> None:
    bt, _ = tree_array.build_tree(17, "A", "B", "C")
    assert len(bt) == 2**17 == 131072 < tree_array.CAPACITY
    assert (bt[-1].num, bt[1].num) == (1, 17)


# -- clockwise_pillars (Hanoi_5) -----------------------------------------------------------


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
