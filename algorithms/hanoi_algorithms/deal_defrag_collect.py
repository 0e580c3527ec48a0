"""CHG's card-game rules: deal, join consecutive tops, else go by parity.

Source: CHG (hunandy14), "河內塔 C++範例代碼非遞迴詳細解說", CHG's blog; code at github.com/hunandy14/Hanoi, 2020.
"""

from collections.abc import Iterator

from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

CHG = Citation(
    author="CHG (hunandy14)",
    title="河內塔 C++範例代碼非遞迴詳細解說",
    site="CHG's blog; code at github.com/hunandy14/Hanoi",
    year="2020",
)

INT_MAX = 2**31 - 1
MAX_N = 31
MAX_N_REASON = "int step_min = (int)(pow(2, n) - 1.0) overflows a 32-bit int at n = 32"

DEAL = "deal"
DEFRAG = "defrag"
EVEN = "even: collect smaller"
ODD = "odd: smaller onto larger"

RULES: dict[str, tuple[str, str]] = {
    DEAL: ("sent", "發牌"),
    DEFRAG: ("defrag", "組牌"),
    EVEN: ("adju_even", "牌值差雙"),
    ODD: ("adju_odd", "牌值差單"),
}
"""Each rule name -> (the original's function, the label the post prints for it)."""

Move = tuple[int, int, int]


class HanoiThrow(RuntimeError):
    """A ``throw "..."`` of the original (a C string thrown as an exception)."""


class Hanoi:
    """The game of *n* disks: pillars ``p``, last move ``log``, steps.

    >>> h = Hanoi(3)
    >>> h.p, h.log, h.step_min
    ([[3, 2, 1], [], []], [-1, -1], 7)
    """

    __slots__ = ("size", "step_min", "p", "log")

    def __init__(self, n: int) -> None:
        self.size = n
        step = pow(2.0, n) - 1.0
        if step > INT_MAX:
            raise OverflowError(f"deal_defrag_collect: {MAX_N_REASON} (n = {n}); n <= {MAX_N}")
        self.step_min = int(step)
        self.p: list[list[int]] = [list(range(n, 0, -1)), [], []]
        self.log = [-1, -1]

    def top(self, k: int) -> int:
        """Return the top disk of pillar *k*; :class:`HanoiThrow` if it is empty.

        >>> Hanoi(2).top(0)
        1
        """
        pillar = self.p[k]
        if not pillar:
            raise HanoiThrow(f"堆疊內沒有數據 (no data in stack): read the top of the empty pillar {k}")
        return pillar[-1]

    def shift(self, p1: int, p2: int) -> int:
        """Move *p1*'s top onto *p2* if legal and no undo; 1 if moved, else 0.

        >>> h = Hanoi(2)
        >>> h.shift(0, 1), h.shift(1, 0), h.p
        (1, 0, [[2], [1], []])
        """
        if len(self.p[p1]) > 0:
            if len(self.p[p2]) <= 0 or self.top(p1) < self.top(p2):
                if p1 != self.log[1] or p2 != self.log[0]:
                    self.p[p2].append(self.p[p1].pop())
                    self.log[0] = p1
                    self.log[1] = p2
                    return 1
                return 0  # would repeat the previous step
            return 0  # sizes do not fit
        return 0  # p1 is empty

    def defrag(self) -> int:
        """Put the smaller top of pegs 1 and 2 on the larger if they differ by 1.

        >>> h = Hanoi(2)
        >>> h.p = [[], [1], [2]]
        >>> h.defrag(), h.p
        (1, [[], [], [2, 1]])
        """
        if len(self.p[1]) > 0 and len(self.p[2]) > 0:
            i = self.top(1) - self.top(2)
            if i == 1:
                if self.shift(2, 1):
                    return 1
            elif i == -1:
                if self.shift(1, 2):
                    return 1
            return 0  # not consecutive
        return 0  # a pillar is empty

    def sent(self) -> int:
        """Deal peg 0's top disk unless a collect to peg 0 came last; 1 if moved.

        >>> h = Hanoi(3)
        >>> h.sent(), h.p
        (1, [[3, 2], [], [1]])
        """
        m, a, b = 0, 1, 2
        if self.size % 2 == 1:  # keep the finished tower on pillar 2
            a, b = b, a
        if self.log[1] != 0:  # no deal right after a collect (from 1 or 2)
            if self.shift(m, a):
                return 1
            elif self.shift(m, b):
                return 1
        return 0

    def adju_odd(self) -> int:
        """Stack the smaller top of pegs 1 and 2 on the larger, else collect.

        >>> h = Hanoi(4)
        >>> h.p = [[], [3, 2, 1], [4]]
        >>> h.adju_odd(), h.p
        (1, [[], [3, 2], [4, 1]])
        """
        if self.top(1) > self.top(2):  # find the larger
            b, s = 1, 2
        else:
            b, s = 2, 1
        if self.shift(s, b):
            return 1
        elif self.shift(b, 0):
            return 1
        return 0

    def adju_even(self) -> int:
        """Collect the smaller top of pegs 1 and 2 to peg 0, or else the larger.

        >>> h = Hanoi(4)
        >>> h.p = [[4], [3], [2, 1]]
        >>> h.adju_even(), h.p
        (1, [[4, 1], [3], [2]])
        """
        if self.top(1) > self.top(2):  # find the larger
            b, s = 1, 2
        else:
            b, s = 2, 1
        if self.shift(s, 0):
            return 1
        elif self.shift(b, 0):
            return 1
        return 0

    def last_move(self) -> Move:
        """Return the last :meth:`shift` as ``(disk, src, dst)``, until the next.

        >>> h = Hanoi(2)
        >>> h.shift(0, 2), h.last_move()
        (1, (1, 0, 2))
        """
        src, dst = self.log
        return (self.p[dst][-1], src, dst)


def trace(n: int) -> Iterator[tuple[Move, str]]:
    """Yield each move of *n* disks from peg 0 to peg 2, with its rule's key.

    >>> [(move, RULES[rule][0]) for move, rule in trace(2)]
    [((1, 0, 1), 'sent'), ((2, 0, 2), 'sent'), ((1, 1, 2), 'defrag')]
    """
    if n < 0:
        raise ValueError(f"deal_defrag_collect: n must be >= 0, got {n}")
    h = Hanoi(n)
    for _i in range(h.step_min):
        if h.sent():
            rule = DEAL
        elif h.defrag():
            rule = DEFRAG
        else:
            diff = abs(h.top(1) - h.top(2))
            if diff % 2 == 0 and h.adju_even():
                rule = EVEN
            elif diff % 2 == 1 and h.adju_odd():
                rule = ODD
            else:
                raise HanoiThrow("沒有動作 (no action): no rule could move")
        yield (h.last_move(), rule)


@register(
    name="deal_defrag_collect",
    summary="CHG's rules: deal from peg 0, defrag consecutive tops, else collect or stack by parity",
    source=CHG,
    family="rule-based",
    max_n=MAX_N,
    max_n_reason=MAX_N_REASON,
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=(0, 1, 2),
)
def solve(n: int) -> Iterator[Move]:
    """Yield the moves ``(disk, src, dst)`` of *n* disks from peg 0 to peg 2.

    >>> list(solve(2)), list(solve(0))
    ([(1, 0, 1), (2, 0, 2), (1, 1, 2)], [])
    """
    for move, _rule in trace(n):
        yield move
