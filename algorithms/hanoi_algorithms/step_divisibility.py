"""Wang's "tree solution": the step gives the disk, its parity the way.

Source: Wang Yiqun (王逸群), "直接写出移盘步骤的非递归非栈的汉诺塔算法", programming forum post by yiyanwan77, 2007.
"""

from collections.abc import Iterator

from hanoi_harness.registry.record import Citation, FinalPeg, labelled_state
from hanoi_harness.registry.sources import register

WANG = Citation(
    author="Wang Yiqun (王逸群), advisor Zhang Xiaodong, HIT Weihai",
    title="直接写出移盘步骤的非递归非栈的汉诺塔算法",
    site="programming forum post by yiyanwan77",
    year="2007",
)

INT_MAX = 2**31 - 1

MAX_N = 30
MAX_N_REASON = "int Max_pow_H = int(pow(2, H)) overflows a 32-bit int at H = 31"

PILLARS = ("s", "t", "d")  #: The pillar flags standing for pegs 0, 1 and 2 of the model.

FINAL_PEG = 2  #: The tower always ends on 'd' (peg 2).

LEFT = {"s": "d", "d": "t", "t": "s"}  #: Rule A, odd-numbered disks: one step left on the circle D, S, T.

RIGHT = {"d": "s", "s": "t", "t": "d"}  #: Rule A, even-numbered disks: one step right on the circle D, S, T.


class DataHome:
    """One pillar of *h* slots: ``struct data_home``.

    >>> p = DataHome(3, "s")
    >>> p.body, p.ta_h, p.data_flag
    ([0, 0, 0], 0, 's')
    """

    __slots__ = ("body", "ta_h", "data_flag")

    def __init__(self, h: int, data_flag: str) -> None:
        self.body = [0] * h
        self.ta_h = 0
        self.data_flag = data_flag


def get_data_op(step: int, h: int) -> int:
    """Return the disk that step *step* moves in a tower of *h* disks (rule B).

    >>> [get_data_op(step, 3) for step in range(1, 8)]
    [3, 2, 3, 1, 3, 2, 3]
    """
    if step % 2 == 1:
        return h  # odd steps move disk H
    power = pow(2.0, h)
    if power > INT_MAX:
        raise OverflowError(f"Get_data_op: int Max_pow_H = int(pow(2, H)) overflows a 32-bit int at H = {h}")
    max_pow_h = int(power)
    m2 = 2
    e2 = 2
    while e2 <= max_pow_h:
        if (step - e2) % (e2 * 2) == 0:
            return h + 1 - m2
        m2 += 1
        e2 *= 2
    return 0


def get_data_home_out(data_op: int, s: DataHome, t: DataHome, d: DataHome) -> DataHome:
    """Return the pillar among *s*, *t* and *d* whose top disk is *data_op*.

    >>> s, t, d = DataHome(1, "s"), DataHome(1, "t"), DataHome(1, "d")
    >>> d.body[0], d.ta_h = 1, 1
    >>> get_data_home_out(1, s, t, d).data_flag
    'd'
    """
    for pillar in (s, t, d):
        if pillar.ta_h > 0 and pillar.body[pillar.ta_h - 1] == data_op:
            return pillar
    raise LookupError(f"step_divisibility: no pillar has disk {data_op} on top")


def get_data_home_in(now_data_f: str, data_op: int, s: DataHome, t: DataHome, d: DataHome) -> DataHome:
    """Return the pillar *data_op* moves to from *now_data_f* (rule A).

    >>> s, t, d = DataHome(0, "s"), DataHome(0, "t"), DataHome(0, "d")
    >>> get_data_home_in("s", 1, s, t, d).data_flag, get_data_home_in("s", 2, s, t, d).data_flag
    ('d', 't')
    """
    flag = LEFT[now_data_f] if data_op % 2 == 1 else RIGHT[now_data_f]
    return s if flag == "s" else t if flag == "t" else d


def solve_from(n: int, k: int) -> Iterator[tuple[int, str, str]]:
    """Yield moves *k* .. 2^H - 1 of H = *n* disks from 's' to 'd'.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True
    """
    if n < 0:
        raise ValueError(f"step_divisibility: n must be >= 0, got {n}")
    if n > MAX_N:
        raise OverflowError(f"step_divisibility: {MAX_N_REASON} (n = {n}); n <= {MAX_N}")
    if k < 1:
        raise ValueError(f"step_divisibility: the first step is STEP = 1, got {k}")
    h = n
    s = DataHome(h, "s")
    t = DataHome(h, "t")
    d = DataHome(h, "d")
    pillar_of = {"s": s, "t": t, "d": d}
    where = labelled_state(h, min(k, 2**h) - 1, final_peg=FINAL_PEG, pegs=PILLARS, disks="descending")
    for disk in range(1, h + 1):  # disk 1 (the largest) first: each pillar is filled bottom first
        pillar = pillar_of[where[disk - 1]]
        pillar.body[pillar.ta_h] = disk
        pillar.ta_h += 1
    for step in range(k, 2**h):
        data_op = get_data_op(step, h)
        last_data = get_data_home_out(data_op, s, t, d)  # the pillar moved out of
        now_data_f = last_data.data_flag
        now_data = get_data_home_in(now_data_f, data_op, s, t, d)  # the pillar moved into
        last_data.ta_h -= 1
        now_data.body[now_data.ta_h] = last_data.body[last_data.ta_h]
        now_data.ta_h += 1
        yield (data_op, last_data.data_flag, now_data.data_flag)


@register(
    name="step_divisibility",
    summary="Wang's tree solution: step divisibility gives the disk, parity its direction",
    source=WANG,
    family="tree",
    max_n=MAX_N,
    max_n_reason=MAX_N_REASON,
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(FINAL_PEG),
    pegs=PILLARS,
    disks="descending",
    solve_from=solve_from,
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves ``(disk, from, to)`` of H = *n* disks from 's' to 'd'.

    Disk 1 is the largest.

    >>> list(solve(2)), list(solve(0))
    ([(2, 's', 't'), (1, 's', 'd'), (2, 't', 'd')], [])
    """
    yield from solve_from(n, 1)
