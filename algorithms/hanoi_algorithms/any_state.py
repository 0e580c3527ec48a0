"""Any configuration to any other in the fewest moves.

Source: Andreas M. Hinz, "Shortest paths between regular states of the Tower of Hanoi", Information Sciences 63, 1992.
"""

from collections.abc import Iterator, Sequence

from hanoi_harness.core.optimal import largest_disk_costs
from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

HINZ = Citation(
    author="Andreas M. Hinz",
    title="Shortest paths between regular states of the Tower of Hanoi",
    site="Information Sciences 63, pp. 173-181",
    year="1992",
)

Move = tuple[int, int, int]


def transfer(h: int, src: int, dst: int) -> Iterator[Move]:
    """Yield the 2^h - 1 moves of disks 1..h from *src* to *dst*, by number.

    >>> list(transfer(2, 0, 2)), list(transfer(0, 0, 1))
    ([(1, 0, 1), (2, 0, 2), (1, 1, 2)], [])
    """
    if h == 0:
        return
    spare = 3 - src - dst
    # Disk d's moves go round src -> dst -> spare when h - d is even, src -> spare -> dst when odd.
    # Its k-th move (0-based) is step k of that cycle.  The moves are built once per disk and handed
    # out as they are, which is faster than building a tuple per move.
    rounds = (((src, dst), (dst, spare), (spare, src)), ((src, spare), (spare, dst), (dst, src)))
    steps = [tuple((disk, a, b) for a, b in rounds[(h - disk) % 2]) for disk in range(1, h + 1)]
    for x in range(1, 1 << h):
        disk = (x & -x).bit_length()
        yield steps[disk - 1][(x >> disk) % 3]


def gather(config: Sequence[int], j: int, peg: int) -> Iterator[Move]:
    """Yield the fewest moves gathering disks 1..*j* of *config* on *peg*.

    >>> list(gather((1, 0), 2, 2))  # disk 1 already waits on the third peg
    [(2, 0, 2), (1, 1, 2)]
    >>> list(gather((1, 1), 2, 2)) == list(transfer(2, 1, 2))
    True
    """
    targets = [peg] * (j + 1)  # targets[d]: the peg disks 1..d must gather on
    for disk in range(j, 1, -1):
        where = config[disk - 1]
        targets[disk - 1] = targets[disk] if where == targets[disk] else 3 - where - targets[disk]
    for disk in range(1, j + 1):
        where = config[disk - 1]
        if where != targets[disk]:
            # disks 1..disk-1 stand on targets[disk - 1], the third peg: disk moves, then they follow it
            yield (disk, where, targets[disk])
            yield from transfer(disk - 1, targets[disk - 1], targets[disk])


def spread(peg: int, config: Sequence[int], j: int) -> Iterator[Move]:
    """Yield the fewest moves spreading a tower of disks 1..*j* to *config*.

    >>> list(spread(2, (1, 0), 2))
    [(1, 2, 1), (2, 2, 0)]
    """
    on = peg
    for disk in range(j, 0, -1):
        want = config[disk - 1]
        if want != on:
            third = 3 - on - want
            yield from transfer(disk - 1, on, third)
            yield (disk, on, want)
            on = third


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Yield the fewest moves from configuration *start* to *goal*.

    Both hold the peg (0-2) of each of the n disks, disk 1 first; anything else raises :class:`ValueError`.

    >>> list(solve_for(3, (0, 0, 1), (1, 1, 0)))  # disk 3 moves twice: 1 -> 2 -> 0
    [(3, 1, 2), (1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 2, 0)]
    >>> list(solve_for(2, (2, 1), (2, 1)))
    []
    """
    if len(start) != n or len(goal) != n or not {*start, *goal} <= {0, 1, 2}:
        raise ValueError(f"any_state: expected two configurations of {n} pegs 0-2, got {start!r} and {goal!r}")
    m, once, twice = largest_disk_costs(start, goal)
    if m == 0:
        return
    s, t = start[m - 1], goal[m - 1]
    r = 3 - s - t
    if once <= twice:
        yield from gather(start, m - 1, r)
        yield (m, s, t)
        yield from spread(r, goal, m - 1)
    else:
        yield from gather(start, m - 1, t)
        yield (m, s, r)
        yield from transfer(m - 1, t, s)
        yield (m, r, t)
        yield from spread(s, goal, m - 1)


@register(
    name="any_state",
    summary="any configuration to any other, fewest moves: the largest differing disk moves once or twice",
    source=HINZ,
    family="shortest path",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    solve_for=solve_for,
    configurations="any",
)
def solve(n: int) -> Iterator[Move]:
    """Yield the moves of n disks from peg 0 to peg 2: the classic solution.

    >>> list(solve(2))
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    """
    yield from solve_for(n, (0,) * n, (2,) * n)
