"""The gate's wall-time check, each time relative to the reference."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run
from hanoi_harness.bench.timing.stats import Difference, Interval, Verdict, compare_times

SPREAD_SIGMAS = 4.0  #: How many robust standard deviations of the changes between two runs count as noise.


@dataclass(frozen=True)
class TimeRow:
    """One algorithm's relative time over the sizes *ns* both sets timed."""

    name: str
    ns: tuple[int, ...]
    old_rel: float | None
    new_rel: float | None
    change: float | None
    status: str
    regression: bool = False
    difference: Difference | None = None
    skipped: bool = False

    @property
    def verdict(self) -> str:
        """The test's verdict: "faster", "slower", "within noise"."""
        return self.difference.verdict if self.difference else ""


def geomean(values: list[float]) -> float:
    """Return the geometric mean of *values*.

    >>> geomean([1.0, 4.0])
    2.0
    """
    return math.exp(sum(math.log(v) for v in values) / len(values))


def paired(run: Run, reference: dict[int, Run]) -> int | None:
    """Return the n of the *reference* run (by n) closest to *run* in moves.

    >>> paired(Run(8, moves=6560), {10: Run(10), 14: Run(14)})
    14
    """
    if not reference or run.moves <= 0:
        return None
    return min(reference, key=lambda n: (abs(math.log(max(reference[n].moves, 1) / run.moves)), -n))


def time_row(name: str, old: ResultSet, new: ResultSet, noise: float, threshold_pct: float) -> TimeRow:
    """Compare algorithm *name* of *old* and *new*, testing the change."""
    ref = new.reference
    old_ref, new_ref = old.algorithms[ref].timed(), new.algorithms[ref].timed()
    old_runs, new_runs = old.algorithms[name].timed(), new.algorithms[name].timed()
    pairs = []
    for n in sorted(set(old_runs) & set(new_runs)):
        m = paired(new_runs[n], {k: run for k, run in new_ref.items() if k in old_ref})
        if m is not None:
            pairs.append((n, m))
    if not pairs:
        return TimeRow(name, (), None, None, None, "no size timed in both")
    old_rel = [old_runs[n].median_s / old_ref[m].median_s for n, m in pairs]
    new_rel = [new_runs[n].median_s / new_ref[m].median_s for n, m in pairs]
    change = geomean([b / a for a, b in zip(old_rel, new_rel, strict=True)])
    ns = tuple(n for n, _ in pairs)
    row = TimeRow(name, ns, geomean(old_rel), geomean(new_rel), change, "not tested: a set kept no rounds")
    tested = []
    for (n, m), base in zip(pairs, old_rel, strict=True):
        before = [t / old_ref[m].median_s / base for t in _samples(old_runs[n])]
        after = [t / new_ref[m].median_s / base for t in _samples(new_runs[n])]
        if min(len(before), len(after)) >= 3:
            tested.append(compare_times(before, after, noise=noise))
    intervals = [found.interval for found in tested if found.interval is not None]
    if not intervals:
        return row
    interval = Interval(geomean([i.low for i in intervals]), geomean([i.high for i in intervals]))
    p_value = max(found.p_value for found in tested)
    difference = Difference("within noise", geomean([found.ratio for found in tested]), interval, p_value)
    return judged(row, difference, noise, threshold_pct)


def _samples(run: Run) -> tuple[float, ...]:
    return run.timing.samples if run.timing else ()


def judged(row: TimeRow, difference: Difference, noise: float, threshold_pct: float) -> TimeRow:
    """Return *row* judged on its *difference*'s interval against *noise*.

    >>> row = TimeRow("a", (10, 14), 1.0, 1.2, 1.2, "")
    >>> judged(row, Difference("within noise", 1.2, Interval(1.15, 1.25), 0.001), 0.1, 50.0).status
    'slower: 1.200x (95% interval 1.150x to 1.250x, each n alike; beyond the noise ±10%)'
    >>> judged(row, Difference("slower", 1.2, Interval(1.05, 1.3), 0.001), 0.1, 50.0).status
    'within noise: 1.200x (95% interval 1.050x to 1.300x, each n alike; the noise is ±10%)'
    """
    interval = difference.interval
    verdict: Verdict = "within noise"
    if interval is not None and interval.low > 1 + noise:
        verdict = "slower"
    elif interval is not None and interval.high < 1 / (1 + noise):
        verdict = "faster"
    found = Difference(verdict, difference.ratio, interval, difference.p_value)
    bad = verdict == "slower" and interval is not None and interval.low > 1 + threshold_pct / 100
    shown = f"{interval.level:.0%} interval {interval.low:.3f}x to {interval.high:.3f}x, " if interval else ""
    where = "beyond the noise" if verdict != "within noise" else "the noise is"
    said = f"{verdict}: {difference.ratio:.3f}x ({shown}each n alike; {where} ±{noise:.0%})"
    status = ("REGRESSION: " if bad else "") + said
    return TimeRow(row.name, row.ns, row.old_rel, row.new_rel, row.change, status, bad, found)


def spread(rows: list[TimeRow]) -> float:
    """Return the noise margin the *rows*' changes show between two runs.

    >>> d = Difference("within noise", 1.0, None, 1.0)
    >>> rows = [TimeRow(str(i), (), 1.0, c, c, "", difference=d) for i, c in enumerate([1.02, 0.98, 1.01, 1.5])]
    >>> round(spread(rows), 3)
    0.126
    """
    logs = [math.log(row.change) for row in rows if row.change is not None and row.difference is not None]
    if len(logs) < 3:
        return 0.0
    middle = statistics.median(logs)
    return math.exp(SPREAD_SIGMAS * 1.4826 * statistics.median(abs(v - middle) for v in logs)) - 1


def reference_row(old: ResultSet, new: ResultSet, rows: list[TimeRow], threshold_pct: float) -> TimeRow:
    """Return the reference's change."""
    ref = new.reference
    ns = tuple(sorted(set(old.algorithms[ref].timed()) & set(new.algorithms[ref].timed())))
    tested = [row for row in rows if row.difference is not None and row.change is not None]
    if len(tested) < 2:
        return TimeRow(ref, ns, 1.0, 1.0, None, "reference (needs 2 others to judge)")
    change = 1 / statistics.median(row.change for row in tested if row.change is not None)
    faster = sum(row.verdict == "faster" for row in tested)
    slower = sum(row.verdict == "slower" for row in tested)
    if 2 * faster > len(tested):
        verdict, said = "slower", f"slower: {faster} of {len(tested)} others were called faster"
    elif 2 * slower > len(tested):
        verdict, said = "faster", f"faster: {slower} of {len(tested)} others were called slower"
    else:
        verdict, said = "within noise", "within noise"
    bad = verdict == "slower" and change > 1 + threshold_pct / 100
    status = ("REGRESSION: " if bad else "") + f"{said} (reference, from the others' median)"
    return TimeRow(ref, ns, 1.0, 1.0, change, status, bad)


def comparable_entries(name: str, old: AlgorithmResult, new: AlgorithmResult) -> str:
    """Return why *name*'s entries *old* and *new* are not compared on time."""
    if old.command != new.command:
        if old.external and new.external:
            return "command changed: not compared"
        return "an algorithm in one set, a command in the other: not compared"
    if new.status != "ok" or old.status != "ok":
        return "failed the check in a set: not compared"
    return ""
