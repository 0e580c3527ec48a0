"""Statistics on timings: intervals, a stability flag, a test of a change.

Everything here is a pure function of lists of seconds, with scipy's tests. A list holds one entry per round,
each round one drain.
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from msgspec import Meta, Struct

from hanoi_harness.bench.results.consistency import check

LEVEL = 0.95
"""The confidence level of every interval here."""

ALPHA = 0.01
"""The p-value under which a change may be called.

The gate tests a dozen algorithms at once.  At 0.05, one of twelve unchanged ones would be called changed in
46% of runs; at 0.01, in 11%.  The interval of the ratio must exclude the noise margin too.
"""

MAX_INTERVAL = 0.10
"""A set of rounds is unstable when the 95% interval of its median is wider than 10% of it.

That is about ±5%.  A ranking reads the interval itself (overlapping intervals tie), so only a figure this
loose is flagged.
"""

MIN_ROUND_S = 1e-6
"""... or when its median round is under 1 µs.

There the clock's own cost and resolution are a visible part of a round.
"""

RESAMPLES = 2000
"""Bootstrap resamples for the interval of a ratio.

With this many, the ends of a 95% interval settle to about 1% of its width.
"""

Verdict = Literal["faster", "slower", "within noise"]
VERDICTS: tuple[Verdict, ...] = ("faster", "slower", "within noise")


Ratio = Annotated[float, Meta(ge=1e-9, le=1e9)]
"""A ratio of two times, or a time in seconds, as a result file reads it: finite and not 0."""


class Interval(Struct, frozen=True):
    """A confidence interval from *low* to *high* at *level* (0.95 for 95%)."""

    low: Ratio
    high: Ratio
    level: Annotated[float, Meta(ge=0.5, le=1.0)] = LEVEL

    def __post_init__(self) -> None:
        check(self.low <= self.high, "high", f"expected at least low ({self.low:g}), got {self.high:g}")

    def width(self, centre: float) -> float:
        """The interval's width relative to *centre*.

        >>> Interval(9.0, 11.0).width(10.0)
        0.2
        """
        return (self.high - self.low) / centre if centre else math.inf


def median_interval(samples: Sequence[float], level: float = LEVEL) -> Interval | None:
    """Return the distribution-free interval at *level* of the median.

    >>> median_interval([10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0])
    Interval(low=11.0, high=18.0, level=0.95)
    >>> median_interval([1.0, 2.0, 3.0, 4.0, 5.0]) is None
    True
    """
    from scipy.stats import binom

    ordered = sorted(samples)
    k = int(binom.ppf((1 - level) / 2, len(ordered), 0.5)) if ordered else 0
    if k < 1:
        return None
    return Interval(float(ordered[k - 1]), float(ordered[-k]), level)


@dataclass(frozen=True)
class Stability:
    """Why a set of rounds is too noisy to rank on (*reasons*), if it is.

    The set is stable when there is no reason.
    """

    reasons: tuple[str, ...] = ()

    @property
    def stable(self) -> bool:
        """True when nothing is wrong with the rounds."""
        return not self.reasons


def stability(samples: Sequence[float], level: float = LEVEL) -> Stability:
    """Whether the rounds *samples* are stable enough to rank on, or why not.

    >>> stability([1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00]).stable
    True
    >>> stability([1.0, 1.0, 1.3, 0.9, 1.4, 1.0, 2.5, 1.0]).reasons
    ('the 95% interval of the median is 160% of it wide (over 10%)',)
    >>> stability([1.0] * 19 + [9.0]).stable  # one slow round moves no median
    True
    """
    if not samples:
        return Stability(("no rounds",))
    middle = statistics.median(samples)
    reasons = []
    interval = median_interval(samples, level)
    if interval is None:
        reasons.append(f"{len(samples)} rounds are too few for a {level:.0%} interval of the median")
    elif interval.width(middle) > MAX_INTERVAL:
        share = interval.width(middle)
        reasons.append(f"the {level:.0%} interval of the median is {share:.0%} of it wide (over {MAX_INTERVAL:.0%})")
    if middle < MIN_ROUND_S:
        reasons.append(f"the median round is {middle * 1e9:.0f} ns, under {MIN_ROUND_S * 1e6:g} µs")
    return Stability(tuple(reasons))


class Difference(Struct, frozen=True):
    """A new set of rounds against an old one: a *verdict* and its numbers.

    ``ratio`` is the new median over the old (above 1: slower), ``interval`` its bootstrap confidence interval
    (None when a set is too small), and ``p_value`` the two-sided Mann-Whitney U test's.
    """

    verdict: Verdict
    ratio: Ratio
    interval: Interval | None
    p_value: Annotated[float, Meta(ge=0.0, le=1.0)]

    def describe(self) -> str:
        """One line: the verdict, the ratio with its interval, and the p-value.

        >>> Difference("slower", 1.12, Interval(1.08, 1.16), 0.0003).describe()
        'slower: 1.120x (95% interval 1.080x to 1.160x; Mann-Whitney p = 0.0003)'
        """
        shown = (
            ""
            if self.interval is None
            else (f"{self.interval.level:.0%} interval {self.interval.low:.3f}x to {self.interval.high:.3f}x; ")
        )
        return f"{self.verdict}: {self.ratio:.3f}x ({shown}Mann-Whitney p = {self.p_value:.2g})"


def compare_times(
    old: Sequence[float],
    new: Sequence[float],
    *,
    alpha: float = ALPHA,
    noise: float = 0.0,
    level: float = LEVEL,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Difference:
    """Whether the rounds *new* are slower, faster or within noise of *old*.

    >>> old = [1.00, 1.01, 0.99, 1.02, 1.00, 0.98, 1.01, 1.00, 0.99, 1.01]
    >>> compare_times(old, [t * 1.10 for t in old]).verdict
    'slower'
    >>> compare_times(old, [t * 1.10 for t in old], noise=0.2).verdict
    'within noise'
    >>> compare_times(old, list(reversed(old))).verdict
    'within noise'
    """
    from scipy.stats import mannwhitneyu

    if not old or not new:
        raise ValueError("compare_times needs rounds in both sets")
    ratio = statistics.median(new) / statistics.median(old)
    p_value = float(mannwhitneyu(list(new), list(old), alternative="two-sided").pvalue)
    interval = ratio_interval(old, new, level=level, resamples=resamples, seed=seed)
    verdict: Verdict = "within noise"
    if p_value < alpha and interval is not None:
        if interval.low > 1 + noise:
            verdict = "slower"
        elif interval.high < 1 / (1 + noise):
            verdict = "faster"
    return Difference(verdict, ratio, interval, p_value)


def ratio_interval(
    old: Sequence[float], new: Sequence[float], *, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = 0
) -> Interval | None:
    """The bootstrap interval at *level* of median(*new*) / median(*old*).

    >>> ratio_interval([1.0, 1.0, 1.0], [2.0, 2.0, 2.0])
    Interval(low=2.0, high=2.0, level=0.95)
    """
    import numpy as np
    from scipy.stats import bootstrap

    if min(len(old), len(new)) < 3:
        return None

    def ratio(before: Any, after: Any, axis: int = -1) -> Any:
        return np.median(after, axis=axis) / np.median(before, axis=axis)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # identical rounds make a degenerate bootstrap: its interval is one point
        found = bootstrap(
            (np.asarray(old, dtype=float), np.asarray(new, dtype=float)),
            ratio,
            vectorized=True,
            n_resamples=resamples,
            confidence_level=level,
            method="percentile",
            rng=np.random.default_rng(seed),
        ).confidence_interval
    return Interval(float(found.low), float(found.high), level)
