"""The deterministic half of the gate: instructions and tracemalloc peaks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from hanoi_harness.bench.counts.figures import InstructionCount

Status = Literal["ok", "REGRESSION", "improved", "unavailable", "skipped", "new", "missing"]
"""A check's outcome: "unavailable" when a run could not measure it, "skipped" when environments forbid it."""


@dataclass(frozen=True)
class Check:
    """One algorithm's figure (*metric*), *old* against *new*."""

    name: str
    metric: str
    old: float | None
    new: float | None
    status: Status
    reason: str = ""

    @property
    def change(self) -> float | None:
        """The relative growth from old to new, or None when either is missing."""
        if self.old is None or self.new is None or self.old == 0:
            return None
        return self.new / self.old - 1

    @property
    def regression(self) -> bool:
        """True when this figure grew beyond the threshold."""
        return self.status == "REGRESSION"

    def describe(self) -> str:
        """One line for a report.

        >>> Check("bitwise", "instructions per move", 5226.3, 5367.4, "REGRESSION").describe()
        'bitwise: instructions per move 5226 -> 5367 (+2.70%): REGRESSION'
        """
        if self.old is None or self.new is None:
            return f"{self.name}: {self.metric}: {self.status}" + (f" ({self.reason})" if self.reason else "")
        change = "" if self.change is None else f" ({self.change * 100:+.2f}%)"
        where = f" [{self.reason}]" if self.reason else ""
        return f"{self.name}: {self.metric} {self.old:.0f} -> {self.new:.0f}{change}{where}: {self.status}"


def classify(old: float, new: float, threshold_pct: float) -> Status:
    """Return REGRESSION when *new* exceeds *old* beyond *threshold_pct* %.

    >>> classify(100.0, 101.4, 1.5), classify(100.0, 101.6, 1.5), classify(100.0, 99.0, 1.5), classify(5.0, 5.0, 1.5)
    ('ok', 'REGRESSION', 'improved', 'ok')
    >>> classify(0.0, 1.0, 1.5)
    'REGRESSION'
    """
    # Rounded: 1015 / 1000 - 1 is 1.5000000000000124%, which is not beyond 1.5%.
    if new > old and (old <= 0 or round((new / old - 1) * 100, 9) > threshold_pct):
        return "REGRESSION"
    if new < old:
        return "improved"
    return "ok"


def check_counts(
    old: Mapping[str, InstructionCount], new: Mapping[str, InstructionCount], threshold_pct: float
) -> list[Check]:
    """Check the instructions per move of each algorithm of *new* and *old*."""
    metric = "instructions per move"
    checks = []
    for name, after in new.items():
        before = old.get(name)
        if before is None:
            checks.append(Check(name, metric, None, after.per_move, "new", "no baseline"))
        elif before.per_move is None or after.per_move is None:
            why = (
                "; ".join(f"{side}: {c.unavailable}" for side, c in (("old", before), ("new", after)) if c.unavailable)
                or "no figure per move on one side"
            )
            checks.append(Check(name, metric, before.per_move, after.per_move, "unavailable", why))
        elif before.between != after.between:
            why = f"counted between other sizes ({_sizes(before)}, then {_sizes(after)})"
            checks.append(Check(name, metric, before.per_move, after.per_move, "unavailable", why))
        else:
            checks.append(
                Check(
                    name,
                    metric,
                    before.per_move,
                    after.per_move,
                    classify(before.per_move, after.per_move, threshold_pct),
                )
            )
    checks += [
        Check(name, metric, old[name].per_move, None, "missing", "not in the new run")
        for name in old
        if name not in new
    ]
    return checks


def check_peaks(
    old: Mapping[str, Mapping[int, int]], new: Mapping[str, Mapping[int, int]], threshold_pct: float
) -> list[Check]:
    """Check the tracemalloc peaks of every algorithm in *new* against *old*.

    >>> [c.describe() for c in check_peaks({"a": {6: 1000, 10: 1200}}, {"a": {6: 1000, 10: 1300}}, 1.5)]
    ['a: tracemalloc peak 1200 -> 1300 (+8.33%) [n = 10]: REGRESSION']
    """
    metric = "tracemalloc peak"
    checks = []
    for name, after in new.items():
        before = old.get(name)
        common = sorted(set(before or {}) & set(after))
        if before is None:
            checks.append(Check(name, metric, None, None, "new", "no baseline"))
        elif not common:
            checks.append(Check(name, metric, None, None, "unavailable", "no n measured in both runs"))
        else:
            n = max(common, key=lambda size: (after[size] / before[size] if before[size] else 0.0, size))
            status = classify(float(before[n]), float(after[n]), threshold_pct)
            checks.append(Check(name, metric, float(before[n]), float(after[n]), status, f"n = {n}"))
    checks += [Check(name, metric, None, None, "missing", "not in the new run") for name in old if name not in new]
    return checks


def _sizes(count: InstructionCount) -> str:
    """Return the two sizes *count* was counted between, in words."""
    return " and ".join(str(n) for n in count.between or ()) or "none"
