"""Wang's "tree solution": the step gives the disk, its parity the way.

The step number gives the disk; the disk's parity gives the direction.

Idea
    Disks are numbered 1 (the largest, at the bottom) .. H (the smallest).

    * Rule B (``Get_data_op``): step STEP moves disk H when STEP is odd.
      Otherwise it moves disk H + 1 - m for the first m >= 2 with
      (STEP - 2^(m-1)) mod 2^m == 0.  That is disk H - k when 2^k is the
      largest power of two dividing STEP.
    * The pillar holding that disk on top is found by comparing the three
      tops.
    * Rule A gives the destination.  With the pillars arranged in the
      circle D, S, T, odd-numbered disks always move "left" (S->D, D->T,
      T->S).  Even-numbered disks move "right" (D->S, S->T, T->D).

    Pillars are fixed-size ``data_home`` records with a top index, as in the
    original.

Source
    Wang Yiqun (王逸群), advisor Zhang Xiaodong, HIT Weihai, "直接写出移盘步骤的
    非递归非栈的汉诺塔算法" (a non-recursive, stackless Hanoi algorithm that
    writes each move directly), programming forum post by yiyanwan77, 2007.
    Ported: rules A and B, ``Get_data_op`` and the ``data_home``
    declarations.

Time and space
    Theta(2^n) time: ``Get_data_op`` loops k times for a step divisible by
    exactly 2^k, under 2 times on average; the top scan is 3 comparisons.
    O(n) extra space: three pillars of H slots each (3H).

Starting at any step
    The step number alone gives the disk (rule B) and the pillars give its
    source.  So ``solve_from(n, k)`` fills the pillars as they stand after
    k - 1 moves (from :mod:`hanoi_harness.core.randomaccess`, in his labels
    and numbering).  Then it runs the same loop from STEP = k.
    ``solve(n)`` is ``solve_from(n, 1)``, whose fill is his (every disk on
    's').

Quirks and limits
    * Pegs are his pillar flags ``'s'`` (source), ``'t'`` (temporary) and
      ``'d'`` (destination); disk 1 is the LARGEST (``disks="descending"``).
      The tower always ends on ``'d'``.
    * The post omits the body of ``Move_data_op`` and of the two pillar
      look-ups.  The port fills them in as the next three points say.
    * The main loop runs STEP = 1 .. 2^H - 1.  His prose groups these steps
      into H "big steps" of 2^(H-1), 2^(H-2), .., 1 steps: the same
      sequence.
    * The source is found by scanning the tops in the order s, t, d (his
      "three loops, compare the three tops"); exactly one top matches.
    * ``ta_h`` counts the disks on a pillar (top at ``body[ta_h - 1]``), and
      an empty pillar is skipped by the scan.
    * ``int Max_pow_H = int(pow(2, H))`` overflows a 32-bit int at H = 31.
      2^31 > INT_MAX; in practice it becomes INT_MIN, after which no even
      step finds a disk and ``Get_data_op`` returns 0.  Hence n <= 30.
    * So n >= 31 raises :class:`OverflowError` up front in
      :func:`solve_from` (and so :func:`solve`).  It also raises in
      :func:`get_data_op` at an even step; an odd one returns H before the
      power is computed.  For H <= 30, ``e2`` never passes 2^29 before the
      match, so ``e2 *= 2`` and ``e2 * 2`` do not overflow either.
    * ``Get_data_op`` returns 0 when no m matches (never for a valid STEP).
      The scan then finds no pillar, and this port raises ``LookupError``.
    * ``#define MAXSIZE_H 100000000`` sizes ``int body[MAXSIZE_H]`` in the
      struct, yet his comment says each pillar gets H slots.  The port
      follows the comment (a list of H slots per pillar).  That is enough,
      since a pillar never holds more than H disks.  The 10^8-slot output
      buffer ``string`` and the file output are not ported.
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
"""A 32-bit C ``int``."""

MAX_N = 30
MAX_N_REASON = "int Max_pow_H = int(pow(2, H)) overflows a 32-bit int at H = 31"

PILLARS = ("s", "t", "d")
"""The pillar flags standing for pegs 0, 1 and 2 of the model."""

FINAL_PEG = 2
"""The tower always ends on 'd' (peg 2)."""

LEFT = {"s": "d", "d": "t", "t": "s"}
"""Rule A, odd-numbered disks: one step left on the circle D, S, T."""

RIGHT = {"d": "s", "s": "t", "t": "d"}
"""Rule A, even-numbered disks: one step right on the circle D, S, T."""


class DataHome:
    """One pillar of *h* slots flagged *data_flag*: ``struct data_home``.

    That is ``{int body[..]; int ta_h; char data_flag;}``: the disks in
    ``body``, bottom first, and their count in ``ta_h``.

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
    """Return the disk that step *step* moves in a tower of *h* disks.

    Rule B gives it; disk 1 is the largest.

    >>> [get_data_op(step, 3) for step in range(1, 8)]
    [3, 2, 3, 1, 3, 2, 3]

    Returns 0 when no power of two matches, which never happens for
    1 <= *step* < 2^h.  Raises :class:`OverflowError` at an even *step*
    for *h* >= 31, where ``int Max_pow_H = int(pow(2, H))`` overflows.
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

    The pillars are scanned in that order.

    >>> s, t, d = DataHome(1, "s"), DataHome(1, "t"), DataHome(1, "d")
    >>> d.body[0], d.ta_h = 1, 1
    >>> get_data_home_out(1, s, t, d).data_flag
    'd'

    Raises :class:`LookupError` when no pillar has it on top (as for the
    disk 0 that :func:`get_data_op` returns when nothing matches).
    """
    for pillar in (s, t, d):
        if pillar.ta_h > 0 and pillar.body[pillar.ta_h - 1] == data_op:
            return pillar
    raise LookupError(f"step_divisibility: no pillar has disk {data_op} on top")


def get_data_home_in(now_data_f: str, data_op: int, s: DataHome, t: DataHome, d: DataHome) -> DataHome:
    """Return the pillar among *s*, *t*, *d* that disk *data_op* moves to.

    It moves from the pillar flagged *now_data_f*, by rule A.  Odd-numbered
    disks go one step left on the circle D, S, T (:data:`LEFT`),
    even-numbered ones one step right (:data:`RIGHT`).

    >>> s, t, d = DataHome(0, "s"), DataHome(0, "t"), DataHome(0, "d")
    >>> get_data_home_in("s", 1, s, t, d).data_flag, get_data_home_in("s", 2, s, t, d).data_flag
    ('d', 't')
    """
    flag = LEFT[now_data_f] if data_op % 2 == 1 else RIGHT[now_data_f]
    return s if flag == "s" else t if flag == "t" else d


def solve_from(n: int, k: int) -> Iterator[tuple[int, str, str]]:
    """Yield moves *k* .. 2^H - 1 of H = *n* disks from 's' to 'd'.

    This is the original's loop from STEP = *k*.  The pillars are filled as
    they stand after k - 1 moves (every disk on 's' for k = 1, the
    original's fill).  The fill comes from the optimal solution's state
    (:func:`hanoi_harness.registry.record.labelled_state`) in Wang's labels
    and numbering; then the same loop runs from STEP = k.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True

    A *k* past 2^n - 1 yields nothing.  Raises :class:`ValueError` for
    *n* < 0 or *k* < 1, and :class:`OverflowError` for *n* > 30, where
    ``int Max_pow_H = int(pow(2, H))`` overflows.
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

    >>> list(solve(2))
    [(2, 's', 't'), (1, 's', 'd'), (2, 't', 'd')]
    >>> list(solve(0))
    []
    """
    yield from solve_from(n, 1)
