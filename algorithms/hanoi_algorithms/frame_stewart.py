"""Frame-Stewart for k pegs: park the t smallest disks, move the rest.

Source: J. S. Frame and B. M. Stewart, "Solutions to advanced problem 3918", American Mathematical Monthly 48, 1941.
"""

from collections.abc import Iterator
from dataclasses import replace

from hanoi_harness.core.puzzle import k_pegs
from hanoi_harness.registry.record import Algorithm, Citation, FinalPeg, between_towers
from hanoi_harness.registry.sources import REGISTRY

FRAME = Citation(
    author="J. S. Frame and B. M. Stewart",
    title="Solutions to advanced problem 3918",
    site="American Mathematical Monthly 48, pp. 216-219",
    year="1941",
)

Move = tuple[int, int, int]

MAX_N = 900


def splits(n: int, k: int) -> list[list[int]]:
    """Return the best number of disks to park, by count of disks and pegs.

    ``splits(n, k)[j][m]`` is the split for m disks on j = 4 .. k pegs: the t in 1 .. m - 1 minimising 2 FS(t, j) + FS(m
    - t, j - 1), the smallest on ties.

    >>> splits(6, 4)[4]
    [0, 0, 1, 1, 1, 2, 3]
    """
    cost = [[(1 << m) - 1 for m in range(n + 1)] for _ in range(k + 1)]
    best = [[0] * (n + 1) for _ in range(k + 1)]
    for j in range(4, k + 1):
        for m in range(2, n + 1):
            t = min(range(1, m), key=lambda t: 2 * cost[j][t] + cost[j - 1][m - t])
            best[j][m] = t
            cost[j][m] = 2 * cost[j][t] + cost[j - 1][m - t]
    return best


def classic(n: int, base: int, src: int, dst: int, spare: int) -> Iterator[Move]:
    """Yield the 2^n - 1 moves of disks base+1 .. base+n from *src* to *dst*."""
    if n == 0:
        return
    yield from classic(n - 1, base, src, spare, dst)
    yield (base + n, src, dst)
    yield from classic(n - 1, base, spare, dst, src)


def move_tower(n: int, base: int, src: int, dst: int, free: tuple[int, ...], split: list[list[int]]) -> Iterator[Move]:
    """Yield the Frame-Stewart moves of disks base+1 .. base+n to *dst*."""
    if n == 0:
        return
    if len(free) == 1 or n == 1:
        yield from classic(n, base, src, dst, free[0])
        return
    t = split[len(free) + 2][n]
    park, rest = free[0], free[1:]
    yield from move_tower(t, base, src, park, (dst, *rest), split)
    yield from move_tower(n - t, base + t, src, dst, rest, split)
    yield from move_tower(t, base, park, dst, (src, *rest), split)


def transfer(n: int, k: int, src: int, dst: int) -> Iterator[Move]:
    """Return the Frame-Stewart moves of n disks from *src* to *dst*, k pegs.

    >>> list(transfer(3, 4, 0, 3))
    [(1, 0, 1), (2, 0, 2), (3, 0, 3), (2, 2, 3), (1, 1, 3)]
    """
    free = tuple(peg for peg in range(k) if peg not in (src, dst))
    return move_tower(n, 0, src, dst, free, splits(n, k))


def for_pegs(k: int, name: str | None = None) -> Algorithm:
    """Return the record ``frame_stewart_K``, or *name*, for *k* >= 3 pegs.

    >>> record = for_pegs(6)
    >>> record.name, record.puzzle.pegs, len(list(record.moves(4)))
    ('frame_stewart_6', 6, 7)
    """
    puzzle = k_pegs(k)  # a UsageError for fewer than three pegs

    def solve(n: int) -> Iterator[Move]:
        return transfer(n, k, 0, k - 1)

    solve.__doc__ = f"The Frame-Stewart moves of n disks from peg 0 to peg {k - 1} of {k} pegs."
    status = "optimal" if k <= 4 else "conjectured optimal"
    return Algorithm(
        name=name or f"frame_stewart_{k}",
        solve=solve,
        summary=f"{k} pegs: park t disks, move the rest with {k - 1} pegs, bring the t back ({status})",
        source=FRAME,
        family="recursive",
        max_n=MAX_N,
        max_n_reason="the generator chain is up to n deep, under the 1000-frame recursion limit",
        space="n",
        time="2^n",
        final_peg=FinalPeg.fixed(k - 1),
        puzzle=puzzle,
        solve_for=between_towers(name or f"frame_stewart_{k}", lambda n, src, dst: transfer(n, k, src, dst)),
        origin=f"for_pegs({k}) in {__name__}",
    )


# In the registry as in-tree records, as @register would add them.
REGISTRY.add(replace(for_pegs(4, "frame_stewart"), origin=f"in-tree {__name__}"))
REGISTRY.add(replace(for_pegs(5), origin=f"in-tree {__name__}"))
