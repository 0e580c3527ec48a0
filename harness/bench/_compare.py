"""Two result sets compared on times relative to the reference measured in the same run.

For an algorithm A and a size n that both sets timed (the reference too), its
relative time is t(A, n) / t(reference, n) in each set; a faster or slower
machine scales both and cancels out.  A's change is the geometric mean over
those n of new relative time / old relative time, and A regresses when the
change exceeds 1 + threshold.  The reference's own change cannot be seen
that way (its relative time is 1 by definition); when at least two other
algorithms are compared it is estimated as 1 / (the median of their
changes): a slower reference makes every other algorithm look faster by the
same factor, while one genuinely improved algorithm leaves the median alone.

An algorithm that passed the check in the old set and fails it in the new one
is a regression too; one that only one set has is listed and never fails.

An external program (``--command``) is compared the same way, its status
marked ``(command)``, unless its command line differs between the sets (then
it is listed, not compared).  It does not count towards the reference's
estimate: its times include process start-up and another language's
speed, which need not move with the interpreter's.

Both sets come from :func:`hanoi_harness.bench._results.load`, so every time
here is finite and at least a nanosecond: no ratio is zero, infinite or NaN.
The gate fails on any :class:`Row` marked ``regression``, whatever made it:
a rule on another metric adds its own rows (or columns to :func:`table`)
beside the time rule's.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from tabulate import tabulate

from hanoi_harness.bench._results import AlgorithmResult, ResultSet
from hanoi_harness.errors import UsageError

DEFAULT_THRESHOLD_PCT = 50.0
"""Relative time may grow by this much before it is a regression (see the README for the experiment behind it)."""


@dataclass(frozen=True)
class Row:
    """One algorithm's comparison over the sizes *ns* both sets timed, and its *status*.

    ``old_rel`` and ``new_rel`` are geometric means of the relative times over
    the common ``ns``; ``change`` is new / old (None when not comparable).
    """

    name: str
    ns: tuple[int, ...]
    old_rel: float | None
    new_rel: float | None
    change: float | None
    status: str
    regression: bool = False


@dataclass(frozen=True)
class Comparison:
    """Every row of a comparison at *threshold_pct*, against *reference*; ``regressions`` names the failing ones."""

    rows: tuple[Row, ...]
    threshold_pct: float
    reference: str

    @property
    def regressions(self) -> list[str]:
        return [row.name for row in self.rows if row.regression]


def _geomean(values: list[float]) -> float:
    """Return the geometric mean of *values*.

    >>> _geomean([1.0, 4.0])
    2.0
    """
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _classify(change: float, limit: float) -> tuple[str, bool]:
    if change > limit:
        return "REGRESSION", True
    if change < 1 / limit:
        return "faster", False
    return "ok", False


def _row(name: str, old: AlgorithmResult, new: AlgorithmResult, old_ref: ResultSet, new_ref: ResultSet) -> Row:
    """Compare algorithm *name* (*old* and *new*) on the sizes both sets timed, relative to each set's reference."""
    ref = old_ref.reference
    old_base = old_ref.algorithms[ref].timed() if ref in old_ref.algorithms else {}
    new_base = new_ref.algorithms[ref].timed() if ref in new_ref.algorithms else {}
    old_runs, new_runs = old.timed(), new.timed()
    ns = sorted(set(old_runs) & set(new_runs) & set(old_base) & set(new_base))
    ns = [n for n in ns if min(old_runs[n].timing.median, new_runs[n].timing.median) > 0]  # type: ignore[union-attr]
    if not ns:
        return Row(name, (), None, None, None, "no size timed in both")
    old_rel = [old_runs[n].timing.median / old_base[n].timing.median for n in ns]  # type: ignore[union-attr]
    new_rel = [new_runs[n].timing.median / new_base[n].timing.median for n in ns]  # type: ignore[union-attr]
    change = _geomean([b / a for a, b in zip(old_rel, new_rel, strict=True)])
    return Row(name, tuple(ns), _geomean(old_rel), _geomean(new_rel), change, "")


def compare(old: ResultSet, new: ResultSet, threshold_pct: float = DEFAULT_THRESHOLD_PCT) -> Comparison:
    """Return every algorithm's change in relative time from *old* to *new*; regressions pass *threshold_pct*."""
    if old.reference != new.reference:
        raise UsageError(f"the result sets have different references ({old.reference!r} and {new.reference!r})")
    ref = new.reference
    limit = 1 + threshold_pct / 100
    rows: list[Row] = []
    names = list(new.algorithms) + [name for name in old.algorithms if name not in new.algorithms]
    for name in names:
        if name == ref:
            continue
        if name not in old.algorithms:
            rows.append(Row(name, (), None, None, None, "new: no baseline"))
            continue
        if name not in new.algorithms:
            rows.append(Row(name, (), None, None, None, "not in the new set"))
            continue
        before, after = old.algorithms[name], new.algorithms[name]
        if before.command != after.command:
            what = (
                "command changed"
                if before.external and after.external
                else "an algorithm in one set, a command in the other"
            )
            rows.append(Row(name, (), None, None, None, f"{what}: not compared"))
            continue
        if after.status != "ok":
            failed = before.status == "ok"
            rows.append(Row(name, (), None, None, None, "FAILED the check" if failed else "failed in both", failed))
            continue
        row = _row(name, before, after, old, new)
        if row.change is not None:
            status, bad = _classify(row.change, limit)
            row = Row(row.name, row.ns, row.old_rel, row.new_rel, row.change, status, bad)
        if after.external:
            row = Row(row.name, row.ns, row.old_rel, row.new_rel, row.change, f"{row.status} (command)", row.regression)
        rows.append(row)
    algorithms = [row for row in rows if not (row.name in new.algorithms and new.algorithms[row.name].external)]
    rows.insert(0, _reference_row(ref, old, new, algorithms, limit))
    return Comparison(tuple(rows), threshold_pct, ref)


def _reference_row(ref: str, old: ResultSet, new: ResultSet, rows: list[Row], limit: float) -> Row:
    """Return the reference *ref*'s change, estimated from the median change of the other *rows*."""
    if ref not in new.algorithms or ref not in old.algorithms:
        return Row(ref, (), None, None, None, "reference missing from a set")
    if new.algorithms[ref].status != "ok":
        failed = old.algorithms[ref].status == "ok"
        return Row(ref, (), None, None, None, "FAILED the check" if failed else "failed in both", failed)
    changes = [row.change for row in rows if row.change is not None]
    ns = tuple(sorted(set(old.algorithms[ref].timed()) & set(new.algorithms[ref].timed())))
    if len(changes) < 2:
        return Row(ref, ns, 1.0, 1.0, None, "reference (needs 2 others to judge)")
    change = 1 / statistics.median(changes)
    status, bad = _classify(change, limit)
    return Row(ref, ns, 1.0, 1.0, change, f"{status} (reference, from the others' median)", bad)


def table(comparison: Comparison) -> str:
    """Return *comparison* as the plain-text table ``hanoi compare`` prints, a row per algorithm."""
    rows = []
    for row in comparison.rows:
        rows.append(
            [
                row.name,
                ",".join(str(n) for n in row.ns),
                "" if row.old_rel is None else f"{row.old_rel:.3f}",
                "" if row.new_rel is None else f"{row.new_rel:.3f}",
                "" if row.change is None else f"{(row.change - 1) * 100:+.1f}%",
                row.status,
            ]
        )
    ref = comparison.reference
    headers = ["algorithm", "n compared", f"old time / {ref}", f"new time / {ref}", "change", "status"]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
