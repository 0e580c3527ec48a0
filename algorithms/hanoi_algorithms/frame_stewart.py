"""Frame-Stewart for k pegs: park the t smallest disks, move the rest.

The rest move with one peg fewer; then the t come back on top.

Idea
    With k >= 4 pegs, n disks go from peg a to peg b in three phases.

    1. The t smallest disks move, with all k pegs, to a spare peg p.
    2. The n - t larger disks move from a to b with the k - 1 pegs other
       than p (with three pegs, the classic recursion).
    3. The t smallest move from p to b, again with all k pegs.

    The split t is chosen to minimise 2 FS(t, k) + FS(n - t, k - 1), which
    defines the Frame-Stewart count FS(n, k) (FS(n, 3) = 2^n - 1).  For four
    pegs: 1, 3, 5, 9, 13, 17, 25, 33, ... moves.  Optimal for k = 4, proved
    by Bousch (2014); for k >= 5 that it is optimal is the Frame-Stewart
    conjecture.

Sources
    J. S. Frame, "Solution to advanced problem 3918", and B. M. Stewart,
    "Solution to advanced problem 3918", American Mathematical Monthly 48
    (1941), pp. 216-217 and 217-219.  They are the two solutions of the
    k-peg problem, which give the same counts.  T. Bousch, "La quatrième
    tour de Hanoï", Bulletin of the Belgian Mathematical Society - Simon
    Stevin 21 (2014), pp. 895-912: optimality for four pegs.

Time and space
    Theta(FS(n, k)) moves, subexponential for k >= 4.  On four pegs,
    n = j(j+1)/2 disks take (j - 1) 2^j + 1 moves, 2^(sqrt(2n) + O(log n))
    (769 for n = 28).  Each move is handed up a chain of ``yield from``
    generators, up to n deep at worst.

    On average the chain is far shorter: about 1.5 sqrt(n) on four pegs,
    and shorter still on five.  The fixed cost of a move hides that growth:
    counted, the instructions per move stay near 7,800 from n = 29 to 82 on
    four pegs, and fall on five.  So the record declares "2^n", a cost per
    move that does not grow with n, as the counts show.

    The split t for each (disks, pegs) is computed once per run from the
    definition, in O(k n^2) time and O(k n) space.  With the generator
    chain, that is O(n) extra space for a fixed k.

Other numbers of pegs
    The registry holds ``frame_stewart`` (4 pegs) and ``frame_stewart_5``.
    :func:`for_pegs` makes the record for any k >= 3, to load as a plugin.
    A file ``six.py`` containing::

        from hanoi_algorithms.frame_stewart import for_pegs
        frame_stewart_6 = for_pegs(6)

    is used with ``--plugin six.py:frame_stewart_6``, or advertised as a
    ``hanoi.algorithms`` entry point.

Starting elsewhere
    ``solve(n)`` moves the tower from peg 0 to peg k - 1.
    ``solve_for(n, start, goal)`` moves a whole tower from any peg to any
    other, and refuses configurations that are not whole towers.

Quirks and limits
    n <= 900: the generator chain is at most n deep, under the interpreter's
    1000-frame recursion limit.
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

    ``splits(n, k)[j][m]`` is the split for m disks on j pegs, for
    j = 4 .. k and m = 0 .. n; rows 0 to 3 are unused.  From the
    definition, it is the t in 1 .. m - 1 minimising
    2 FS(t, j) + FS(m - t, j - 1), the smallest on ties.

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
    """Yield the 2^n - 1 moves taking disks base+1 .. base+n to peg *dst*.

    They start on peg *src* and go through *spare*.
    """
    if n == 0:
        return
    yield from classic(n - 1, base, src, spare, dst)
    yield (base + n, src, dst)
    yield from classic(n - 1, base, spare, dst, src)


def move_tower(n: int, base: int, src: int, dst: int, free: tuple[int, ...], split: list[list[int]]) -> Iterator[Move]:
    """Yield the Frame-Stewart moves of disks base+1 .. base+n to *dst*.

    They start on *src*; the pegs *free* are also usable.
    """
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
    """Return the Frame-Stewart moves of n disks from peg *src* to peg *dst*.

    The puzzle has *k* pegs.

    >>> list(transfer(3, 4, 0, 3))
    [(1, 0, 1), (2, 0, 2), (3, 0, 3), (2, 2, 3), (1, 1, 3)]
    """
    free = tuple(peg for peg in range(k) if peg not in (src, dst))
    return move_tower(n, 0, src, dst, free, splits(n, k))


def for_pegs(k: int, name: str | None = None) -> Algorithm:
    """Return the Frame-Stewart record for *k* pegs (k >= 3).

    It is named ``frame_stewart_K`` unless *name* is given.

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
