"""The fewest moves each puzzle needs, in O(n) arithmetic.

Each count comes from its recurrence or closed form, proven or conjectured optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Literal

Status = Literal["proven", "conjectured"]

CONJECTURE = "conjectured optimal for k >= 5"
"""What is known of the one conjectured count: Frame-Stewart for k >= 5 pegs."""


@dataclass(frozen=True)
class Optimum:
    """The fewest moves a puzzle needs, whether that is proven, and its basis.

    >>> Optimum(7, "proven", "shortest path").describe()
    'optimal (proven)'
    """

    moves: int
    status: Status
    basis: str

    def describe(self) -> str:
        """How a run making exactly this many moves is reported."""
        if self.status == "proven":
            return "optimal (proven)"
        return f"matches the {self.basis} ({CONJECTURE})"


def tower_distance(config: Sequence[int], peg: int) -> int:
    """The fewest moves gathering every disk of *config* into a tower on *peg*.

    >>> tower_distance((0, 0, 0), 2), tower_distance((1, 1, 2), 2), tower_distance((), 1)
    (7, 3, 0)
    """
    # The count is the binary number whose bit d-1 says whether disk d must move.  Written as a
    # string of bits and read once it costs O(n); adding each 2^(d-1) to a growing integer costs O(n^2).
    bits, target = [], peg
    for disk in range(len(config), 0, -1):
        where = config[disk - 1]
        if where == target:
            bits.append("0")
        else:
            bits.append("1")
            target = 3 - where - target
    return int("".join(bits) or "0", 2)


def largest_disk_costs(start: Sequence[int], goal: Sequence[int]) -> tuple[int, int, int]:
    """Return the largest misplaced disk m, and the two costs of moving it.

    >>> largest_disk_costs((0, 0, 0), (2, 2, 2))
    (3, 7, 11)
    >>> largest_disk_costs((0, 0, 1), (1, 1, 0))  # disk 3 via peg 2 while disks 1, 2 stay put
    (3, 7, 5)
    """
    m = next((disk for disk in range(len(start), 0, -1) if start[disk - 1] != goal[disk - 1]), 0)
    if m == 0:
        return 0, 0, 0
    s, t = start[m - 1], goal[m - 1]
    r = 3 - s - t
    below_start, below_goal = start[: m - 1], goal[: m - 1]
    once = tower_distance(below_start, r) + 1 + tower_distance(below_goal, r)
    twice = tower_distance(below_start, t) + 1 + ((1 << (m - 1)) - 1) + 1 + tower_distance(below_goal, s)
    return m, once, twice


def distance(start: Sequence[int], goal: Sequence[int]) -> int:
    """The fewest moves from *start* to *goal*: three pegs, every move allowed.

    >>> distance((0, 0, 0), (2, 2, 2)), distance((0, 0, 1), (1, 1, 0)), distance((2, 1), (2, 1))
    (7, 5, 0)
    """
    _, once, twice = largest_disk_costs(start, goal)
    return min(once, twice)


def cyclic_counts(n: int) -> tuple[int, int]:
    """Return Q(n) and R(n): a tower one and two steps round the cycle.

    >>> [cyclic_counts(n) for n in range(4)]
    [(0, 0), (1, 2), (5, 7), (15, 21)]
    """
    forward, backward = 0, 0
    for _ in range(n):
        # One step: n-1 disks two steps, the largest one step, n-1 two steps again.  Two steps:
        # n-1 two steps, the largest one, n-1 one step (back to the start), the largest its second
        # step, n-1 two steps.
        forward, backward = 2 * backward + 1, 2 * backward + forward + 2
    return forward, backward


def linear_count(n: int, src: int, dst: int) -> int:
    """The fewest moves taking n disks from peg *src* to peg *dst*, linearly.

    >>> [linear_count(n, 0, 2) for n in range(1, 5)], [linear_count(n, 1, 0) for n in range(1, 5)]
    ([2, 8, 26, 80], [1, 4, 13, 40])
    """
    if src == dst:
        return 0
    whole: int = 3**n - 1  # (3**n alone is typed Any: a negative n would give a float)
    return whole if abs(src - dst) == 2 else whole // 2


def frame_stewart(n: int, k: int) -> int:
    """The Frame-Stewart count of moves taking n disks between two of k pegs.

    >>> [frame_stewart(n, 4) for n in range(1, 9)], frame_stewart(5, 3)
    ([1, 3, 5, 9, 13, 17, 25, 33], 31)
    """
    if k < 3:
        raise ValueError(f"the Frame-Stewart count needs k >= 3 pegs, got {k}")
    total, power, left = 0, 0, n
    while left > 0:
        take = min(comb(power + k - 3, k - 3), left)
        total += take << power
        left -= take
        power += 1
    return total


def frame_stewart_status(k: int) -> Status:
    """Whether the Frame-Stewart count is proven optimal for k pegs (k <= 4).

    >>> frame_stewart_status(4), frame_stewart_status(5)
    ('proven', 'conjectured')
    """
    return "proven" if k <= 4 else "conjectured"
