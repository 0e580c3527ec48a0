"""Growth classes fitted from measurements.

To compare with the classes a record declares.

Time.  A run makes a known number of moves (2^n - 1 for the classic puzzle,
its own optimal count for another), so the question is the cost per move:
constant (declared ``"2^n"``) or growing like n (``"n 2^n"``; a record of
another puzzle declares its cost per move with the same names).  The fit is
the slope of log2(ns per move) against log2(n), by least squares
(:func:`numpy.polyfit`), over the runs of at least ``TIME_MIN_MOVES`` moves:
below that the fixed cost of starting a generator, hundreds of times a
move, swamps the per-move cost.  A slope under ``TIME_SLOPE`` is "2^n".
Measured on the ports, flat ones give slopes near 0, and a cost of a + b n
per move (the generator recursion, whose ``yield from`` chain is n deep)
gives a slope well over it.

Space.  The peak bytes m(n) of a drain: the slope of log2(m) against n is
about 1 for an array of 2^n nodes, so a
slope over ``EXP_SLOPE`` is "2^n".  Otherwise the question is whether m grows
by a fixed amount per disk: the least-squares slope of m against n, in bytes
per disk, over the runs of at least ``LINEAR_MIN_MOVES`` moves, is "n" when it
is at least ``BYTES_PER_DISK`` (most of a pointer) and ``SIGNIFICANCE`` standard
errors, else "1".  With fewer than ``MIN_POINTS`` such runs there is no space
fit: the smaller runs cannot tell a pointer a disk from CPython's cached ints
running out, so a quick run of three sizes states no class it cannot support.
A log-log slope would not do.  A list of n ints over a generator frame grows
by a pointer a disk, a small share of the frame over n = 10..20.  A power law
cannot tell that from a constant (measured on parity_positions,
clockwise_sentinel and deal_defrag_collect).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

TIME_MIN_MOVES = 255
"""The fewest moves of a run a time fit uses: the classic puzzle's n = 8."""

TIME_SLOPE = 0.4
"""ns per move growing faster than n^0.4 is classed "n 2^n"."""

EXP_SLOPE = 0.5
"""Peak memory growing faster than 2^(0.5 n) is classed "2^n"."""

LINEAR_MIN_MOVES = 1023
"""The fewest moves of a run the linear test uses, the classic puzzle's n = 10: below
it a run's step numbers stay under 2^9, and CPython's cached small ints (up to 256)
let a constant-space generator seem to grow by a few dozen bytes as they run out
(bitwise: 1408 bytes up to n = 8, then 1488 for every n).  Counted in moves, so that
another puzzle's runs are held to the same work."""

BYTES_PER_DISK = 6.0
"""Otherwise peak memory growing by at least this much per disk is classed "n": a
structure with an entry per disk costs at least a pointer (8 bytes) each.  Less is
the growth of integers: CPython's grow by 4 bytes every 30 bits, and a step number
of n bits (the generator's own, or the consumer's move counter and digest sum)
added 4.3 bytes a disk over n = 10..19 to level_formula's constant footprint.  The
smallest growth of a structure with an entry per disk measured here is 13.6 bytes a
disk (clockwise_sentinel); 6 lies between, a little under a pointer."""

SIGNIFICANCE = 3.0
"""... and only when that growth is at least this many standard errors, so noise on a
flat footprint is not taken for growth."""

MIN_POINTS = 3
"""Fewer sizes than this give no fit."""


@dataclass(frozen=True)
class Fit:
    """A fitted class *cls*, the *slope* it came from.

    What the slope is of (*basis*), over *points* sizes.
    """

    cls: str
    slope: float
    basis: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.cls} ({self.basis} slope {self.slope:.2f})"


def _slope(x: Sequence[float], y: Sequence[float]) -> float:
    """Return the least-squares slope of *y* against *x*.

    >>> round(_slope([1, 2, 3], [2, 4, 6]), 6)
    2.0
    """
    return float(np.polyfit(np.asarray(x, dtype=float), np.asarray(y, dtype=float), 1)[0])


def fit_time(ns: Sequence[int], seconds: Sequence[float], moves: Sequence[int] | None = None) -> Fit | None:
    """Return the time class fitted from the *seconds* per drain at *ns*.

    None with too few sizes.


    *moves* are the moves of the run at each n (2^n - 1 each when None, the classic puzzle's).

    >>> ns = list(range(8, 21))
    >>> flat = fit_time(ns, [200e-9 * (2**n - 1) for n in ns])
    >>> flat.cls, abs(flat.slope) < 1e-9
    ('2^n', True)
    >>> fit_time(ns, [20e-9 * n * (2**n - 1) for n in ns]).cls
    'n 2^n'
    >>> linear = list(range(5, 14))  # 3^n - 1 moves a run, at a constant 200 ns each
    >>> fit_time(linear, [200e-9 * (3**n - 1) for n in linear], [3**n - 1 for n in linear]).cls
    '2^n'
    """
    counts = [(1 << n) - 1 for n in ns] if moves is None else list(moves)
    timed = zip(ns, seconds, counts, strict=True)
    points = [(n, s / m) for n, s, m in timed if m >= TIME_MIN_MOVES and s > 0]
    if len(points) < MIN_POINTS:
        return None
    slope = _slope([np.log2(n) for n, _ in points], [np.log2(per) for _, per in points])
    return Fit("n 2^n" if slope >= TIME_SLOPE else "2^n", slope, "log-log ns/move", len(points))


def fit_space(ns: Sequence[int], peak_bytes: Sequence[float], moves: Sequence[int] | None = None) -> Fit | None:
    """Return the space class fitted from the *peak_bytes* at each of *ns*.

    Or None with too few sizes.

    *moves* are the moves of the run at each n (2^n - 1 each when None).
    Too few sizes: under ``MIN_POINTS`` in all, or, for a footprint that is
    not exponential, under ``MIN_POINTS`` runs of ``LINEAR_MIN_MOVES`` moves.

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
    """
    counts = [(1 << n) - 1 for n in ns] if moves is None else list(moves)
    found = zip(ns, peak_bytes, counts, strict=True)
    points = [(n, b, m) for n, b, m in found if n >= 1 and b > 0]
    if len(points) < MIN_POINTS:
        return None
    logs = [float(np.log2(b)) for _, b, _ in points]
    exponential = _slope([n for n, _, _ in points], logs)
    if exponential >= EXP_SLOPE:
        return Fit("2^n", exponential, "log2 bytes vs n", len(points))
    use = [(n, b) for n, b, m in points if m >= LINEAR_MIN_MOVES]
    if len(use) < MIN_POINTS:
        return None
    per_disk, error = _linear([n for n, _ in use], [b for _, b in use])
    linear = per_disk >= BYTES_PER_DISK and per_disk >= SIGNIFICANCE * error
    return Fit("n" if linear else "1", per_disk, "bytes per disk", len(use))


def _linear(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """Return the least-squares slope of *y* against *x*, and its error.

    The error is the slope's standard error.

    >>> _linear([1, 2, 3, 4], [10, 20, 30, 40])
    (10.0, 0.0)
    """
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    slope, intercept = np.polyfit(xs, ys, 1)
    spread = float(np.sum((xs - xs.mean()) ** 2))
    residual = float(np.sum((ys - (slope * xs + intercept)) ** 2))
    error = (residual / (len(xs) - 2) / spread) ** 0.5 if len(xs) > 2 and spread > 0 else 0.0
    return round(float(slope), 9), round(error, 9)
