"""Growth classes fitted from measurements, to compare with the classes a record declares.

Time.  Every algorithm makes 2^n - 1 moves, so the question is the cost per
move: constant (declared ``"2^n"``) or growing like n (``"n 2^n"``).  The
fit is the slope of log2(ns per move) against log2(n), by least squares
(:func:`numpy.polyfit`), over the sizes n >= ``TIME_MIN_N``: below that the
fixed cost of starting a generator (1-3 microseconds, 100 to 1000 times a
move) swamps the per-move cost.  A slope under ``TIME_SLOPE`` is "2^n".
Measured on the ports: flat ones give slopes within 0.1 of 0; a cost of
a + b n ns per move with a = 50, b = 20 (the generator recursion, whose
``yield from`` chain is n deep) gives about 0.8 over n = 8..20.

Space.  The peak bytes m(n) of a drain: the slope of log2(m) against n is
about 1 for an array of 2^n nodes (a tree of 2^17 nodes takes 9 MiB), so a
slope over ``EXP_SLOPE`` is "2^n"; otherwise the slope of log2(m) against
log2(n) separates a stack of n records (0.5-0.7 over n = 4..18, as a few
hundred bytes of generator frame stand on top) from a fixed footprint (under
0.05): over ``LINEAR_SLOPE`` is "n", else "1".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

TIME_MIN_N = 8
"""The smallest n a time fit uses (2^8 - 1 = 255 moves)."""

TIME_SLOPE = 0.4
"""ns per move growing faster than n^0.4 is classed "n 2^n"."""

EXP_SLOPE = 0.5
"""Peak memory growing faster than 2^(0.5 n) is classed "2^n"."""

LINEAR_SLOPE = 0.3
"""Otherwise, peak memory growing faster than n^0.3 is classed "n"."""

MIN_POINTS = 3
"""Fewer sizes than this give no fit."""


@dataclass(frozen=True)
class Fit:
    """Fit(cls, slope, basis, points): the fitted class, the slope it came from, what it was against, how many sizes."""

    cls: str
    slope: float
    basis: str
    points: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fit:
        return cls(str(data["cls"]), float(data["slope"]), str(data["basis"]), int(data["points"]))

    def __str__(self) -> str:
        return f"{self.cls} ({self.basis} slope {self.slope:.2f})"


def _slope(x: Sequence[float], y: Sequence[float]) -> float:
    """_slope(x, y): the least-squares slope of y against x.

    >>> round(_slope([1, 2, 3], [2, 4, 6]), 6)
    2.0
    """
    return float(np.polyfit(np.asarray(x, dtype=float), np.asarray(y, dtype=float), 1)[0])


def fit_time(ns: Sequence[int], seconds: Sequence[float]) -> Fit | None:
    """fit_time(ns, seconds): the time class from seconds per drain at each n, or None with too few sizes.

    >>> ns = list(range(8, 21))
    >>> str(fit_time(ns, [200e-9 * (2**n - 1) for n in ns]))
    '2^n (log-log ns/move slope 0.00)'
    >>> fit_time(ns, [20e-9 * n * (2**n - 1) for n in ns]).cls
    'n 2^n'
    """
    points = [(n, s / ((1 << n) - 1)) for n, s in zip(ns, seconds, strict=True) if n >= TIME_MIN_N and s > 0]
    if len(points) < MIN_POINTS:
        return None
    slope = _slope([np.log2(n) for n, _ in points], [np.log2(per) for _, per in points])
    return Fit("n 2^n" if slope >= TIME_SLOPE else "2^n", slope, "log-log ns/move", len(points))


def fit_space(ns: Sequence[int], peak_bytes: Sequence[float]) -> Fit | None:
    """fit_space(ns, peak_bytes): the space class from the peak bytes at each n, or None with too few sizes.

    >>> ns = list(range(2, 18))
    >>> fit_space(ns, [1000 + 72 * 2**n for n in ns]).cls
    '2^n'
    >>> fit_space(ns, [1500 + 250 * n for n in ns]).cls
    'n'
    >>> fit_space(ns, [3224] * len(ns)).cls
    '1'
    """
    points = [(n, b) for n, b in zip(ns, peak_bytes, strict=True) if n >= 1 and b > 0]
    if len(points) < MIN_POINTS:
        return None
    logs = [float(np.log2(b)) for _, b in points]
    exponential = _slope([n for n, _ in points], logs)
    if exponential >= EXP_SLOPE:
        return Fit("2^n", exponential, "log2 bytes vs n", len(points))
    power = _slope([float(np.log2(n)) for n, _ in points], logs)
    return Fit("n" if power >= LINEAR_SLOPE else "1", power, "log-log bytes", len(points))
