"""Reconstruction: Wang's rules A and B on an array of disk positions.

A RECONSTRUCTION: the rules are from Wang Yiqun (王逸群), "直接写出移盘步骤的非递归非栈的汉诺塔算法", 2007.
"""

from collections.abc import Iterator

from hanoi_algorithms.step_divisibility import (
    FINAL_PEG,
    LEFT,
    MAX_N,
    MAX_N_REASON,
    PILLARS,
    RIGHT,
    WANG,
    get_data_op,
)
from hanoi_harness.registry.record import FinalPeg, labelled_state
from hanoi_harness.registry.sources import register


def solve_from(n: int, k: int) -> Iterator[tuple[int, str, str]]:
    """Yield moves *k* .. 2^n - 1 of *n* disks: the same loop from STEP = *k*.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True
    """
    if n < 0:
        raise ValueError(f"parity_positions: n must be >= 0, got {n}")
    if n > MAX_N:
        raise OverflowError(f"parity_positions: {MAX_N_REASON} (n = {n}); n <= {MAX_N}")
    if k < 1:
        raise ValueError(f"parity_positions: the first step is STEP = 1, got {k}")
    h = n
    # pos[disk - 1]: the pillar of disk 1 (largest) .. H (smallest)
    pos = labelled_state(h, min(k, 2**h) - 1, final_peg=FINAL_PEG, pegs=PILLARS, disks="descending")
    for step in range(k, 2**h):
        disk = get_data_op(step, h)  # rule B
        src = pos[disk - 1]
        dst = LEFT[src] if disk % 2 == 1 else RIGHT[src]  # rule A
        pos[disk - 1] = dst
        yield (disk, src, dst)


@register(
    name="parity_positions",
    summary="reconstruction: Wang's rules A and B with an n-entry array of disk positions",
    source=WANG,
    family="rule-based",
    max_n=MAX_N,
    max_n_reason=MAX_N_REASON,
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(FINAL_PEG),
    pegs=PILLARS,
    disks="descending",
    reconstruction=True,
    solve_from=solve_from,
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves ``(disk, from, to)`` of *n* disks from 's' to 'd'.

    Disk 1 is the largest.

    >>> list(solve(2)), list(solve(0))
    ([(2, 's', 't'), (1, 's', 'd'), (2, 't', 'd')], [])
    """
    yield from solve_from(n, 1)
