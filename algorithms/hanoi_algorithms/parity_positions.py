"""Reconstruction: Wang's rules A and B on an array of disk positions.

The array has n entries, one a disk; there are no pillars.

Idea
    This is a RECONSTRUCTION, not a port.  Wang Yiqun writes that he found
    two stackless solutions, a "tree" one and a "graph" one, both using
    between 3N and 4N memory, and withheld the graph one.  Nothing here
    claims to be that algorithm.

    What is Wang's: rule B and rule A.

    * Rule B: step STEP moves disk H when STEP is odd, else disk H + 1 - m
      for the first m >= 2 with (STEP - 2^(m-1)) mod 2^m == 0.  It is his
      ``Get_data_op``, reused here unchanged.
    * Rule A: on the circle D, S, T, odd-numbered disks move left: S->D,
      D->T, T->S.  Even-numbered disks move right: D->S, S->T, T->D.

    What is ours: instead of three pillars whose tops are scanned, one
    array ``pos`` of n entries records the pillar of each disk.  A move
    reads the source from ``pos[disk]``, takes the destination from rule A
    and writes it back.  The rules make every move legal, so the pillars'
    contents are never needed.

Source
    The rules: Wang Yiqun (王逸群), advisor Zhang Xiaodong, HIT Weihai,
    "直接写出移盘步骤的非递归非栈的汉诺塔算法" (a non-recursive, stackless Hanoi
    algorithm that writes each move directly), programming forum post by
    yiyanwan77, 2007.  The position-array algorithm around them is ours.

Time and space
    Theta(2^n) time (``Get_data_op`` loops under 2 times on average).  O(n)
    extra space: the n-entry position array.

Starting at any step
    ``pos`` is all the state there is.  So ``solve_from(n, k)`` sets it as
    it stands after k - 1 moves (from :mod:`hanoi_harness.core.randomaccess`,
    in Wang's labels and numbering).  Then it runs the same loop from
    STEP = k; ``solve(n)`` is ``solve_from(n, 1)``.

Quirks and limits
    * Same labels and numbering as Wang's tree solution: pillars ``'s'``,
      ``'t'``, ``'d'``, disk 1 the LARGEST (``disks="descending"``); the
      tower always ends on ``'d'``.
    * Rule B as written in ``Get_data_op`` computes
      ``int Max_pow_H = int(pow(2, H))``, which overflows a 32-bit int at
      H = 31.  Keeping his function keeps his limit: n <= 30, and n >= 31
      raises :class:`OverflowError`.
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

    ``pos`` starts as it stands after *k* - 1 moves.  It comes from the
    optimal solution's state
    (:func:`hanoi_harness.registry.record.labelled_state`) in Wang's labels
    and numbering (every disk on 's' for *k* = 1).

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True

    A *k* past 2^n - 1 yields nothing.  Raises :class:`ValueError` for
    *n* < 0 or *k* < 1, and :class:`OverflowError` for *n* > 30, where
    ``Get_data_op``'s ``int(pow(2, H))`` overflows.
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

    >>> list(solve(2))
    [(2, 's', 't'), (1, 's', 'd'), (2, 't', 'd')]
    >>> list(solve(0))
    []
    """
    yield from solve_from(n, 1)
