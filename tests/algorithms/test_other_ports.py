"""Port-specific tests for the bitwise to deal_defrag_collect ports.

The ports are bitwise, clockwise_sentinel, step_divisibility, parity_positions and deal_defrag_collect.
The expected n = 3 sequences were worked out by hand from each original's rules, in the original's own
labels; the n = 4 table is the worked example of CHG's 2020 post.
"""

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from hanoi_algorithms import bitwise, clockwise_sentinel, deal_defrag_collect, parity_positions, step_divisibility
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.sources import build_registry

REGISTRY = build_registry(entry_points=False)


# --- clockwise_sentinel ---------------------------------------------------------------------


def test_clockwise_sentinel_n3_raw_moves() -> None:
    # Smallest disc clockwise 0 -> 1 -> 2 -> 0, then the smaller of the other two tops onto the
    # larger.  A sentinel 4 counts as the largest; the 4th clockwise move leaves two sentinels.
    assert list(clockwise_sentinel.solve(3)) == [
        (1, 0, 1), (2, 0, 2), (1, 1, 2), (3, 0, 1), (1, 2, 0), (2, 2, 1), (1, 0, 1),
    ]  # fmt: skip


def test_clockwise_sentinel_n0_raises_at_the_empty_stack_read() -> None:
    with pytest.raises(ValueError, match="reads the empty stack 0") as info:
        list(clockwise_sentinel.solve(0))
    assert isinstance(info.value, IndexError)
    record = REGISTRY.get("clockwise_sentinel")
    assert record.min_n == 1
    with pytest.raises(UsageError, match="empty stack"):
        record.check_n(0)


def test_clockwise_sentinel_n1_ends_on_peg_1() -> None:
    assert list(clockwise_sentinel.solve(1)) == [(1, 0, 1)]
    assert REGISTRY.get("clockwise_sentinel").final_peg.pegs(1) == frozenset({1})


# --- bitwise --------------------------------------------------------------------------------


def test_bitwise_n3_raw_moves() -> None:
    # x = 1..7: disk = 1 + trailing zeros of x, fr = (x & x-1) % 3, to = ((x | x-1) + 1) % 3.
    assert list(bitwise.solve(3)) == [
        (1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2),
    ]  # fmt: skip


def test_bitwise_n31_refused() -> None:
    with pytest.raises(OverflowError, match="1 << N"):
        list(bitwise.solve(31))
    with pytest.raises(UsageError, match="n <= 30"):
        REGISTRY.get("bitwise").check_n(31)
    assert len(list(bitwise.solve(1))) == 1


# --- step_divisibility and parity_positions (Wang's rules; 's','t','d', disk 1 the largest) ---

WANG_N3 = [(3, "s", "d"), (2, "s", "t"), (3, "d", "t"), (1, "s", "d"), (3, "t", "s"), (2, "t", "d"), (3, "s", "d")]
"""Rule B: odd steps move disk 3, steps 2 and 6 disk 2, step 4 disk 1; rule A: odd disks go
left (S->D, D->T, T->S), even disks right (D->S, S->T, T->D)."""


WANG_PORTS = pytest.mark.parametrize(
    ("name", "solve"), [("step_divisibility", step_divisibility.solve), ("parity_positions", parity_positions.solve)]
)


@WANG_PORTS
def test_wang_ports_n3_raw_moves(name: str, solve: Callable[[int], Iterable[Any]]) -> None:
    assert list(solve(3)) == WANG_N3


@WANG_PORTS
def test_wang_ports_n31_refused(name: str, solve: Callable[[int], Iterable[Any]]) -> None:
    with pytest.raises(OverflowError, match="Max_pow_H"):
        list(solve(31))
    with pytest.raises(UsageError, match="n <= 30"):
        REGISTRY.get(name).check_n(31)


def test_step_divisibility_get_data_op_overflows_at_31() -> None:
    assert step_divisibility.get_data_op(2**29, 30) == 1
    with pytest.raises(OverflowError, match="H = 31"):
        step_divisibility.get_data_op(2, 31)


def test_parity_positions_is_a_reconstruction() -> None:
    record = REGISTRY.get("parity_positions")
    assert record.reconstruction and record.summary.startswith("reconstruction:")
    assert "RECONSTRUCTION" in (parity_positions.__doc__ or "")


# --- deal_defrag_collect ----------------------------------------------------------------------

DDC_N4_TABLE: list[tuple[list[int], list[int], list[int], str]] = [
    # pegs [0], [1], [2] after the step, bottom first, and the post's label for the step
    ([4, 3, 2], [1], [], "deal"),  # 1 發牌
    ([4, 3], [1], [2], "deal"),  # 2 發牌
    ([4, 3], [], [2, 1], "defrag"),  # 3 組牌
    ([4], [3], [2, 1], "deal"),  # 4 發牌
    ([4, 1], [3], [2], "even"),  # 5 牌值差雙
    ([4, 1], [3, 2], [], "defrag"),  # 6 組牌
    ([4], [3, 2, 1], [], "deal"),  # 7 發牌
    ([], [3, 2, 1], [4], "deal"),  # 8 發牌
    ([], [3, 2], [4, 1], "odd"),  # 9 牌值差單
    ([2], [3], [4, 1], "odd"),  # 10 牌值差單
    ([2, 1], [3], [4], "even"),  # 11 牌值差雙
    ([2, 1], [], [4, 3], "defrag"),  # 12 組牌
    ([2], [1], [4, 3], "deal"),  # 13 發牌
    ([], [1], [4, 3, 2], "deal"),  # 14 發牌
    ([], [], [4, 3, 2, 1], "defrag"),  # 15 組牌
]


def test_deal_defrag_collect_n4_trace() -> None:
    pegs: list[list[int]] = [[4, 3, 2, 1], [], []]
    steps = list(deal_defrag_collect.trace(4))
    assert len(steps) == 15
    for k, (((disk, src, dst), rule), (p0, p1, p2, label)) in enumerate(zip(steps, DDC_N4_TABLE, strict=True), 1):
        assert pegs[src][-1] == disk, k
        pegs[dst].append(pegs[src].pop())
        assert pegs == [p0, p1, p2], k
        assert rule.split(":")[0] == label, k
        assert rule in deal_defrag_collect.RULES
    labels = {rule: deal_defrag_collect.RULES[rule][1] for _, rule in steps}
    assert labels == {
        "deal": "發牌",
        "defrag": "組牌",
        "even: collect smaller": "牌值差雙",
        "odd: smaller onto larger": "牌值差單",
    }


def test_deal_defrag_collect_n3_raw_moves() -> None:
    # n odd: deal to peg 2 first; step 5 is "even" (tops 1 and 3) and collects disk 1.
    assert list(deal_defrag_collect.solve(3)) == [
        (1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2),
    ]  # fmt: skip


def test_deal_defrag_collect_solve_is_trace_moves() -> None:
    assert list(deal_defrag_collect.solve(6)) == [move for move, _ in deal_defrag_collect.trace(6)]


def test_deal_defrag_collect_n32_refused() -> None:
    with pytest.raises(OverflowError, match="step_min"):
        list(deal_defrag_collect.solve(32))
    with pytest.raises(UsageError, match="n <= 31"):
        REGISTRY.get("deal_defrag_collect").check_n(32)


def test_deal_defrag_collect_empty_pillar_read_throws() -> None:
    hanoi = deal_defrag_collect.Hanoi(2)
    with pytest.raises(deal_defrag_collect.HanoiThrow, match="no data in stack"):
        hanoi.adju_even()


@pytest.mark.parametrize("port", [bitwise, parity_positions, step_divisibility], ids=lambda port: port.__name__)
def test_solve_from_refuses_a_negative_n_and_a_start_before_the_first_move(port: Any) -> None:
    with pytest.raises(ValueError, match="n must be >= 0, got -1"):
        list(port.solve_from(-1, 1))
    with pytest.raises(ValueError, match=r"the first .* = 1, got 0"):
        list(port.solve_from(3, 0))
    assert list(port.solve_from(3, 7)) == list(port.solve(3))[6:]  # the last move alone
