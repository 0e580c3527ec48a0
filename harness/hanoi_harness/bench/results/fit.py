"""Growth classes fitted from measurements.

To compare with the classes a record declares.  Both fits are on figures
that do not move with the load, and both are median-based, so that one odd
size cannot flip a class.

Time.  A run makes a known number of moves (2^n - 1 for the classic puzzle,
its own optimal count for another), so the question is the cost per move:
constant (declared ``"2^n"``) or growing like n (``"n 2^n"``; a record of
another puzzle declares its cost per move with the same names).  It is read
off the instructions counted at every size (:func:`fit_counts`): the
instructions per move from each size to the next, start-up cancelled
(:meth:`~hanoi_harness.bench.counts.figures.InstructionCount.steps`).  The
fit is the Theil-Sen slope (the median of the slopes between every two
points) of log(instructions per move) against log(n), over the steps from a
run of at least ``TIME_MIN_MOVES`` moves.  A slope under ``TIME_SLOPE`` is
"2^n".  Without counts there is no time class: the wall clock moves with
the load.  The slope of ns per move (:func:`fit_wall`) is kept as an
observation only: it sees what counts cannot, such as a table outgrowing
the caches, and it decides nothing.

Space.  The peak bytes m(n) of a drain: the Theil-Sen slope of log2(m)
against n is about 1 for an array of 2^n nodes, so a slope over
``EXP_SLOPE`` is "2^n".  Otherwise the question is whether m grows by a
fixed amount per disk: the slope of m against n, in bytes per disk, over
the largest runs of at least ``LINEAR_MIN_MOVES`` moves (``LINEAR_SIZES``),
is "n" when it is at least ``BYTES_PER_DISK`` (most of a pointer), else "1".  With fewer
than ``MIN_POINTS`` such runs there is no space fit: the smaller runs cannot
tell a pointer a disk from CPython's cached ints running out, so a quick run
of three sizes states no class it cannot support.  A log-log slope would not
do.  A list of n ints over a generator frame grows by a pointer a disk, a
small share of the frame over n = 10..20.  A power law cannot tell that from
a constant (measured on parity_positions, clockwise_sentinel and
deal_defrag_collect).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Literal

import numpy as np
from msgspec import Meta, Struct

if TYPE_CHECKING:
    from hanoi_harness.bench.counts.figures import InstructionCount

TIME_MIN_MOVES = 1023
"""The fewest moves of the smaller run of a step the time fit uses: the
classic puzzle's n = 10.  Below, CPython's cached small ints (up to 256)
make the step from n = 8 to 9 cost 20% more a move in bitwise."""

TIME_SLOPE = 0.25
"""Instructions per move growing faster than n^0.25 is classed "n 2^n".

Counted up to n = 16, the flat ports' slopes are 0.19 at most (tree_array),
those whose cost grows with n 0.38 at least (cyclic, over three sizes)."""

WALL_MIN_MOVES = 255
"""The fewest moves of a run the wall-time observation uses: n = 8."""

WALL_SLOPE = 0.4
"""ns per move growing faster than n^0.4 is noted as a growth."""

EXP_SLOPE = 0.5
"""Peak memory growing faster than 2^(0.5 n) is classed "2^n"."""

LINEAR_MIN_MOVES = 511
"""The fewest moves of a run the linear test uses, the classic puzzle's n = 9: below
it a run's step numbers stay under 2^8, and CPython's cached small ints (up to 256)
let a constant-space generator seem to grow by a few dozen bytes as they run out
(bitwise: 1408 bytes up to n = 8, then 1488 for every n).  Counted in moves, so that
another puzzle's runs are held to the same work."""

LINEAR_SIZES = 8
"""The linear test reads the largest sizes only: the last half of them, and at least
this many.  A footprint that stops growing (blocks: one 2^n-move array up to n = 16,
then a fixed one) is then read by where it ends; eight sizes span a step of a list's
over-allocation (clockwise_pillars: 64 bytes every few disks)."""

BYTES_PER_DISK = 6.0
"""Otherwise peak memory growing by at least this much per disk is classed "n": a
structure with an entry per disk costs at least a pointer (8 bytes) each.  Less is
the growth of integers: CPython's grow by 4 bytes every 30 bits, and a step number
of n bits (the generator's own, or the consumer's move counter and digest sum)
added 4.3 bytes a disk over n = 10..19 to level_formula's constant footprint.  The
smallest growth of a structure with an entry per disk measured here is 13.6 bytes a
disk (clockwise_sentinel); 6 lies between, a little under a pointer."""

MIN_POINTS = 3
"""Fewer sizes than this give no fit."""


Basis = Literal["log-log ns/move", "log-log instructions/move", "log2 bytes vs n", "bytes per disk"]


class Fit(Struct, frozen=True):
    """A fitted class *cls*, the *slope* it came from.

    What the slope is of (*basis*), over *points* sizes.
    """

    cls: Literal["1", "n", "2^n", "n 2^n"]
    slope: Annotated[float, Meta(ge=-1e15, le=1e15)]
    basis: Basis
    points: Annotated[int, Meta(ge=0, le=1000)]

    def __str__(self) -> str:
        return f"{self.cls} ({self.basis} slope {self.slope:.2f})"


def _theil_sen(x: Sequence[float], y: Sequence[float]) -> float:
    """Return the Theil-Sen slope of *y* against *x*.

    The median of the slopes between every two points: a third of them
    may be wild without moving it far.

    >>> round(_theil_sen([1, 2, 3, 4, 5], [2, 4, 6, 8, 100]), 6)
    2.0
    """
    from scipy.stats import theilslopes

    return float(theilslopes(np.asarray(y, dtype=float), np.asarray(x, dtype=float)).slope)


def fit_counts(count: InstructionCount | None) -> Fit | None:
    """Return the time class fitted from instructions counted at each size.

    None without counts or with too few sizes.

    >>> from hanoi_harness.bench.counts.figures import InstructionCount
    >>> ns = tuple(range(10, 17))
    >>> def counted(per_move):
    ...     moves = tuple(2**n - 1 for n in ns)
    ...     work = [10**6 + 3 * i + per_move(n) * m for i, (n, m) in enumerate(zip(ns, moves))]
    ...     again = 10**6 + 3 * len(ns) + per_move(ns[0]) * moves[0]  # n = 10 again, a fork later
    ...     return InstructionCount(sizes=ns, moves=moves, instructions=(*work, again), allocator=(0,) * (len(ns) + 1))
    >>> fit_counts(counted(lambda n: 4000)).cls, fit_counts(counted(lambda n: 3000 + 230 * n)).cls
    ('2^n', 'n 2^n')
    """
    if count is None:
        return None
    steps = [step for step in count.steps() if step.low_moves >= TIME_MIN_MOVES and step.per_move > 0]
    if len(steps) + 1 < MIN_POINTS:
        return None
    slope = _theil_sen([np.log(step.high) for step in steps], [np.log(step.per_move) for step in steps])
    return Fit("n 2^n" if slope >= TIME_SLOPE else "2^n", slope, "log-log instructions/move", len(steps) + 1)


def fit_wall(ns: Sequence[int], seconds: Sequence[float], moves: Sequence[int] | None = None) -> Fit | None:
    """Return the class the *seconds* per drain at *ns* would read as.

    An observation, never a verdict; None with too few sizes.

    *moves* are the moves of the run at each n (2^n - 1 each when None, the classic puzzle's).

    >>> ns = list(range(8, 21))
    >>> flat = fit_wall(ns, [200e-9 * (2**n - 1) for n in ns])
    >>> flat.cls, abs(flat.slope) < 1e-9
    ('2^n', True)
    >>> fit_wall(ns, [20e-9 * n * (2**n - 1) for n in ns]).cls
    'n 2^n'
    """
    counts = [(1 << n) - 1 for n in ns] if moves is None else list(moves)
    timed = zip(ns, seconds, counts, strict=True)
    points = [(n, s / m) for n, s, m in timed if m >= WALL_MIN_MOVES and s > 0]
    if len(points) < MIN_POINTS:
        return None
    slope = _theil_sen([np.log2(n) for n, _ in points], [np.log2(per) for _, per in points])
    return Fit("n 2^n" if slope >= WALL_SLOPE else "2^n", slope, "log-log ns/move", len(points))


def _envelope(values: Sequence[float]) -> list[float]:
    """Return *values* with lone spikes removed, then never falling.

    Each value becomes the median of itself and its two neighbours; the
    first, of itself, its neighbour and the line through the next two
    (Tukey's end-point rule).  That drops a lone point high or low.  The
    last stays as measured, since no later point can confirm it.  Then
    each is the largest so far: the memory a run of n disks needs is at
    least the most that a smaller run needed, so a late drop is held.

    >>> _envelope([10, 10, 50, 10, 20, 5, 6, 7])
    [10.0, 10.0, 10.0, 20.0, 20.0, 20.0, 20.0, 20.0]
    >>> _envelope([1, 2, 3, 4])
    [1.0, 2.0, 3.0, 4.0]
    >>> _envelope([1200, 1408, 1472, 1480, 1480, 1608])  # a last step up
    [1280.0, 1408.0, 1472.0, 1480.0, 1480.0, 1608.0]
    """
    v = [float(value) for value in values]
    if len(v) < 3:
        return v
    first = [v[0], v[1], 3 * v[1] - 2 * v[2]]
    windows = [first, *(v[i - 1 : i + 2] for i in range(1, len(v) - 1)), [v[-1]]]
    return [float(m) for m in np.maximum.accumulate([np.median(window) for window in windows])]


def _spread_slope(x: Sequence[float], y: Sequence[float]) -> float:
    """Return the median of the pairwise slopes, each weighted by its span.

    A Theil-Sen slope that a staircase cannot hide: a footprint that grows
    by one 64-byte step every eight disks has slope 0 between most close
    pairs, but not between the far ones, which weigh more.

    >>> round(_spread_slope([10, 11, 12, 13, 14, 15, 16, 17], [1304] * 6 + [1368] * 2), 2)
    9.14
    """
    slopes, spans = [], []
    for i, j in itertools.combinations(range(len(x)), 2):
        slopes.append((y[j] - y[i]) / (x[j] - x[i]))
        spans.append(abs(x[j] - x[i]))
    order = np.argsort(slopes)
    weights = np.cumsum(np.asarray(spans, dtype=float)[order])
    return float(np.asarray(slopes)[order][np.searchsorted(weights, weights[-1] / 2)])


def fit_space(ns: Sequence[int], peak_bytes: Sequence[float], moves: Sequence[int] | None = None) -> Fit | None:
    """Return the space class fitted from the *peak_bytes* at each of *ns*.

    Or None with too few sizes.

    *moves* are the moves of the run at each n (2^n - 1 each when None).
    Too few sizes: under ``MIN_POINTS`` in all, or, for a footprint that is
    not exponential, under ``MIN_POINTS`` runs of ``LINEAR_MIN_MOVES`` moves.
    The peaks are read through :func:`_envelope`, so a lone spike or a
    later drop cannot lower the class, and sloped by :func:`_spread_slope`,
    so a footprint that grows in steps still grows.

    >>> ns = list(range(2, 18))
    >>> fit_space(ns, [1000 + 72 * 2**n for n in ns]).cls
    '2^n'
    >>> fit_space(ns, [1500 + 250 * n for n in ns]).cls
    'n'
    >>> fit_space(ns, [3224] * len(ns)).cls
    '1'
    >>> print(fit_space([6, 10, 14], [1000, 1096, 1104]))  # a quick run: two runs of 1023 moves or more
    None
    >>> fit_space([6, 10, 14], [5760, 75872, 1186896]).cls  # doubling a disk shows at any size
    '2^n'
    >>> grows = [7032, 8184, 9464, 10872, 12412, 14076, 5308, 5628, 5884]  # any_state: a drop at n = 16
    >>> fit_space(list(range(10, 19)), grows).cls
    'n'
    >>> fit_space(list(range(10, 18)), [1304] * 6 + [1368] * 2).cls  # list over-allocation: steps
    'n'
    >>> fit_space([8, 10, 12, 14, 16, 18], [1200, 1408, 1472, 1480, 1480, 1608]).cls  # grows to the end
    'n'
    >>> fit_space(list(range(9, 23)), [2**n for n in range(9, 17)] + [900] * 6).cls  # grows, then stops
    '1'
    """
    counts = [(1 << n) - 1 for n in ns] if moves is None else list(moves)
    found = zip(ns, peak_bytes, counts, strict=True)
    points = [(n, b, m) for n, b, m in found if n >= 1 and b > 0]
    if len(points) < MIN_POINTS:
        return None
    held = _envelope([b for _, b, _ in points])
    logs = [float(np.log2(b)) for b in held]
    exponential = _spread_slope([n for n, _, _ in points], logs)
    if exponential >= EXP_SLOPE:
        return Fit("2^n", exponential, "log2 bytes vs n", len(points))
    use = [(n, b) for (n, _, m), b in zip(points, held, strict=True) if m >= LINEAR_MIN_MOVES]
    use = use[-max(LINEAR_SIZES, (len(use) + 1) // 2) :]
    if len(use) < MIN_POINTS:
        return None
    per_disk = _spread_slope([n for n, _ in use], [b for _, b in use])
    return Fit("n" if per_disk >= BYTES_PER_DISK else "1", round(per_disk, 9), "bytes per disk", len(use))
