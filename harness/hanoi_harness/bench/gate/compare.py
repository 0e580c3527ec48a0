"""The regression gate: two result sets compared, figure by figure."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import msgspec
from tabulate import tabulate

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.gate.counts import Check, check_counts, check_peaks
from hanoi_harness.bench.gate.times import (
    TimeRow,
    comparable_entries,
    judged,
    reference_row,
    spread,
    time_row,
)
from hanoi_harness.bench.plan import DEFAULT_THRESHOLD_PCT, DEFAULT_TIME_THRESHOLD_PCT
from hanoi_harness.bench.report.formatting import escaped, fmt_margin
from hanoi_harness.bench.results.comparability import Comparability, comparable
from hanoi_harness.bench.results.resultset import ResultSet
from hanoi_harness.errors import UsageError

__all__ = ["DEFAULT_THRESHOLD_PCT", "DEFAULT_TIME_THRESHOLD_PCT", "Comparison", "compare", "report"]


@dataclass(frozen=True)
class Comparison:
    """Everything a gate run found."""

    environments: tuple[Comparability, ...]
    checks: tuple[Check, ...]
    times: tuple[TimeRow, ...]
    threshold_pct: float
    time_threshold_pct: float
    reference: str
    noise: tuple[float | None, float | None] = (None, None)
    no_baseline: tuple[str, ...] = ()
    not_measured: tuple[str, ...] = ()
    in_both: int = 0

    @property
    def regressions(self) -> list[str]:
        """Each regression as "algorithm (metric)", in the order of the report."""
        found = [f"{check.name} ({check.metric})" for check in self.checks if check.regression]
        return found + [f"{row.name} (time relative to {self.reference})" for row in self.times if row.regression]

    @property
    def incomplete(self) -> list[Check]:
        """The deterministic checks that could not be made, each with its reason."""
        return [check for check in self.checks if check.status == "unavailable"]

    @property
    def skipped(self) -> list[str]:
        """Each figure the environments forbid comparing, with the reason."""
        found = [f"{check.name} ({check.metric}: {check.reason})" for check in self.checks if check.status == "skipped"]
        return found + [
            f"{row.name} (time relative to {self.reference}: {row.status})" for row in self.times if row.skipped
        ]

    @property
    def compared(self) -> bool:
        """True when anything at all was compared."""
        return self.in_both > 0


def compare(
    old: ResultSet,
    new: ResultSet,
    threshold_pct: float = DEFAULT_THRESHOLD_PCT,
    time_threshold_pct: float = DEFAULT_TIME_THRESHOLD_PCT,
    names: Sequence[str] | None = None,
) -> Comparison:
    """Return every check of *new* against *old*."""
    if old.reference != new.reference:
        raise UsageError(f"the result sets have different references ({old.reference!r} and {new.reference!r})")
    scope = list(dict.fromkeys(names)) if names is not None else list(new.algorithms)
    gated = _only(old, scope if names is not None else None), _only(new, scope if names is not None else None)
    environments = _environments(old, new)
    allowed = {found.metric: found for found in environments}
    numpy = _runs_numpy(old, new)
    checks = _failures(*gated)
    checks += _gated(check_counts(_counts(gated[0]), _counts(gated[1]), threshold_pct), allowed["instructions"], numpy)
    checks += _gated(check_peaks(_peaks(gated[0]), _peaks(gated[1]), threshold_pct), allowed["tracemalloc"], numpy)
    margins = (_margin(old), _margin(new))
    noise = max((margin for margin in margins if margin is not None), default=0.0)
    times = _times(old, new, noise, time_threshold_pct, allowed["relative time"], numpy, set(scope) if names else None)
    return Comparison(
        environments,
        tuple(checks),
        tuple(times),
        threshold_pct,
        time_threshold_pct,
        new.reference,
        margins,
        no_baseline=tuple(name for name in scope if name in new.algorithms and name not in old.algorithms),
        not_measured=tuple(name for name in scope if name not in new.algorithms),
        in_both=sum(name in old.algorithms and name in new.algorithms for name in scope),
    )


def _only(results: ResultSet, names: Collection[str] | None) -> ResultSet:
    if names is None:
        return results
    return msgspec.structs.replace(
        results, algorithms={name: a for name, a in results.algorithms.items() if name in names}
    )


def _runs_numpy(old: ResultSet, new: ResultSet) -> Callable[[str], bool | None]:

    def runs(name: str) -> bool | None:
        said = [s.algorithms[name].runs_numpy if name in s.algorithms else None for s in (old, new)]
        return True if True in said else False if said == [False, False] else None

    return runs


def _environments(old: ResultSet, new: ResultSet) -> tuple[Comparability, ...]:
    found = list(comparable(old.environment, new.environment))
    stale = [
        f"the {side} set timed generation only (its drains read no move)"
        for side, s in (("old", old), ("new", new))
        if not s.reads_moves
    ]
    if stale:
        found = [
            Comparability(c.metric, c.reasons + tuple(stale), c.notes) if c.metric in ("time", "relative time") else c
            for c in found
        ]
    return tuple(found)


def _gated(checks: list[Check], allowed: Comparability, runs_numpy: Callable[[str], bool | None]) -> list[Check]:
    found = []
    for check in checks:
        why = allowed.forbids(runs_numpy(check.name))
        if check.status in ("new", "missing", "unavailable"):
            found.append(check)
        elif allowed.unmeasured:
            found.append(
                Check(check.name, check.metric, check.old, check.new, "unavailable", "; ".join(allowed.unmeasured))
            )
        elif why:
            reason = "environments differ: " + "; ".join(why)
            found.append(Check(check.name, check.metric, check.old, check.new, "skipped", reason))
        else:
            found.append(check)
    return found


def _failures(old: ResultSet, new: ResultSet) -> list[Check]:
    found = []
    for name, after in new.algorithms.items():
        before = old.algorithms.get(name)
        if before is not None and before.status == "ok" and after.status != "ok":
            failure = after.failure or {}
            at = f" at n = {failure['n']}" if "n" in failure else ""
            said = failure.get("describe", "failed")
            found.append(Check(name, "the check", None, None, "REGRESSION", f"now fails it{at}: {said}"))
    return found


def _counts(results: ResultSet) -> dict[str, InstructionCount]:
    found = {}
    for name, result in results.algorithms.items():
        if result.external or result.status != "ok":
            continue
        found[name] = result.instructions or InstructionCount(sizes=(), unavailable="no count in this set")
    return found


def _peaks(results: ResultSet) -> dict[str, dict[int, int]]:
    return {
        name: {run.n: run.tracemalloc_peak_bytes for run in result.runs if run.tracemalloc_peak_bytes is not None}
        for name, result in results.algorithms.items()
        if not result.external and result.status == "ok"
    }


def _margin(results: ResultSet) -> float | None:
    """Return the noise floor's margin of *results* (0.02: 2%)."""
    return results.noise_floor.margin if results.noise_floor else None


def _times(
    old: ResultSet,
    new: ResultSet,
    noise: float,
    threshold_pct: float,
    allowed: Comparability,
    runs_numpy: Callable[[str], bool | None],
    scope: Collection[str] | None,
) -> list[TimeRow]:
    ref = new.reference
    if allowed.reasons:
        return [TimeRow(ref, (), None, None, None, "skipped: " + "; ".join(allowed.reasons), skipped=True)]
    if ref not in old.algorithms or ref not in new.algorithms:
        return [TimeRow(ref, (), None, None, None, "reference missing from a set: times not compared")]
    if old.algorithms[ref].status != "ok" or new.algorithms[ref].status != "ok":
        return [TimeRow(ref, (), None, None, None, "reference failed its check in a set: times not compared")]
    rows: list[TimeRow] = []
    for name in [*new.algorithms, *(name for name in old.algorithms if name not in new.algorithms)]:
        if name == ref or (scope is not None and name not in scope):
            continue
        why = allowed.forbids(runs_numpy(name)) or allowed.forbids(runs_numpy(ref))
        if why and name in old.algorithms and name in new.algorithms:
            status = "skipped: environments differ: " + "; ".join(why)
            rows.append(TimeRow(name, (), None, None, None, status, skipped=True))
            continue
        rows.append(_time_entry(name, old, new, noise, threshold_pct))
    algorithms = [row for row in rows if not new.algorithms.get(row.name) or not new.algorithms[row.name].external]
    margin = max(noise, spread(algorithms))
    if margin > noise:  # the runs moved apart more than either run's own noise: judged on that
        rows = [_rejudged(row, margin, threshold_pct) for row in rows]
        algorithms = [_rejudged(row, margin, threshold_pct) for row in algorithms]
    return [reference_row(old, new, algorithms, threshold_pct), *rows]


def _rejudged(row: TimeRow, noise: float, threshold_pct: float) -> TimeRow:
    """Return *row* judged again against *noise*; a command stays marked."""
    if row.difference is None:
        return row
    found = judged(row, row.difference, noise, threshold_pct)
    if row.status.endswith(" (command)"):
        found = replace(found, status=f"{found.status} (command)")
    return found


def _time_entry(name: str, old: ResultSet, new: ResultSet, noise: float, threshold_pct: float) -> TimeRow:
    if name not in old.algorithms:
        return TimeRow(name, (), None, None, None, "new: no baseline")
    if name not in new.algorithms:
        return TimeRow(name, (), None, None, None, "not in the new set")
    why = comparable_entries(name, old.algorithms[name], new.algorithms[name])
    if why:
        return TimeRow(name, (), None, None, None, why)
    row = time_row(name, old, new, noise, threshold_pct)
    if new.algorithms[name].external:
        row = replace(row, status=f"{row.status} (command)")
    return row


def report(comparison: Comparison, old: ResultSet, new: ResultSet) -> str:
    """Return the text ``hanoi compare`` prints."""
    parts = [
        "Environments:",
        f"  old: {escaped(old.environment.describe())}",
        f"  new: {escaped(new.environment.describe())}",
        *(f"  {escaped(found.describe())}" for found in comparison.environments),
        _noise_line(comparison),
        "",
        f"Instructions per move (outside the memory allocators; a regression beyond +{comparison.threshold_pct:g}%):",
        _checks_table([c for c in comparison.checks if c.metric == "instructions per move"], "{:.1f}"),
        "",
        f"tracemalloc peak (the n where it grew most; a regression beyond +{comparison.threshold_pct:g}%):",
        _checks_table([c for c in comparison.checks if c.metric == "tracemalloc peak"], None),
        "",
        f"Time relative to {comparison.reference} (tested at each n, every n weighing the same: a change is called "
        "only when its interval lies wholly beyond the noise, the larger of the noise floors and the spread of "
        "every algorithm's change; a regression when slower with the whole interval beyond "
        f"+{comparison.time_threshold_pct:g}%):",
        _times_table(comparison),
    ]
    failures = [c for c in comparison.checks if c.metric == "the check"]
    if failures:
        parts += ["", "The check:", *(f"  {escaped(check.describe())}" for check in failures)]
    return "\n".join(parts)


def _noise_line(comparison: Comparison) -> str:
    old, new = comparison.noise
    return (
        f"Noise floor (the reference against itself, interleaved): old {fmt_margin(old) or 'not measured'}, "
        f"new {fmt_margin(new) or 'not measured'}"
    )


def _checks_table(checks: Sequence[Check], number: str | None) -> str:

    def shown(value: float | None) -> str:
        if value is None:
            return ""
        return number.format(value) if number else f"{value:,.0f} B"

    rows = [
        [
            escaped(check.name),
            shown(check.old),
            shown(check.new),
            "" if check.change is None else f"{check.change * 100:+.2f}%",
            escaped(check.status + (f": {check.reason}" if check.reason else "")),
        ]
        for check in checks
    ]
    if not rows:
        return "  (none)"
    return tabulate(rows, headers=["algorithm", "old", "new", "change", "status"], disable_numparse=True)


def _times_table(comparison: Comparison) -> str:
    ref = comparison.reference
    rows = [
        [
            escaped(row.name),
            ",".join(str(n) for n in row.ns),
            "" if row.old_rel is None else f"{row.old_rel:.3f}",
            "" if row.new_rel is None else f"{row.new_rel:.3f}",
            "" if row.change is None else f"{(row.change - 1) * 100:+.1f}%",
            escaped(row.status),
        ]
        for row in comparison.times
    ]
    headers = ["algorithm", "n compared", f"old time / {ref}", f"new time / {ref}", "change", "status"]
    return tabulate(rows, headers=headers, disable_numparse=True)
