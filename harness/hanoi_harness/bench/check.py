"""Check every (algorithm, n) a bench run measures first, each in a child.

A crash, a hang or running out of memory is that algorithm's verdict; the others go on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hanoi_harness.bench.plan import Settings, fixed_sizes, moves_at, walk_sizes
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox.runner import Job, run_jobs


@dataclass
class Checked:
    """What checking found for the algorithm *name*."""

    name: str
    ns: list[int] = field(default_factory=list)
    check_s: dict[int, float] = field(default_factory=dict)
    moves: dict[int, int] = field(default_factory=dict)
    drain_s: dict[int, float] = field(default_factory=dict)
    failure: Verdict | None = None
    stopped: str = ""

    @property
    def ok(self) -> bool:
        return self.failure is None and bool(self.ns)


OnChecked = Callable[[str, int], None]

GROWTH = 2.0  #: The factor from n to n + 1 of the classic puzzle (and of an external program's run): twice the moves.


def _run_round(
    pairs: Sequence[tuple[str, int]],
    plugins: Sequence[str],
    settings: Settings,
    on_checked: OnChecked | None,
) -> list[tuple[str, int, Verdict, float]]:
    jobs = [Job(name, [n]) for name, n in pairs]
    ended: dict[int, float] = {}

    def done(job: Job) -> None:
        ended[id(job)] = time.monotonic()
        if on_checked is not None:
            on_checked(job.name, job.ns[0])

    run_jobs(
        jobs,
        plugins,
        timeout=settings.check_timeout_s,
        memory_mb=settings.check_memory_mb or None,
        on_done=done,
    )
    out: list[tuple[str, int, Verdict, float]] = []
    for job in jobs:
        # run_jobs always leaves one verdict per n: a dead or killed child's is crashed or timed_out.
        verdict = job.verdicts[0] if job.verdicts else Verdict("crashed", job.ns[0], 0, reason="no verdict")
        out.append((job.name, job.ns[0], verdict, ended.get(id(job), job.started) - job.started))
    return out


def check_fixed(
    algorithms: Sequence[Algorithm],
    sizes: Sequence[int],
    plugins: Sequence[str],
    settings: Settings,
    on_checked: OnChecked | None = None,
) -> dict[str, Checked]:
    """Check each of *algorithms* at *sizes*, clamped to its limits."""
    found = {a.name: Checked(a.name) for a in algorithms}
    pairs = [(a.name, n) for a in algorithms for n in fixed_sizes(a, sizes)]
    for name, n, verdict, seconds in _run_round(pairs, plugins, settings, on_checked):
        _record(found[name], n, verdict, seconds)
    for checked in found.values():
        if checked.failure is not None:
            checked.ns.clear()
            checked.check_s.clear()
        if not checked.stopped:
            checked.stopped = "fixed sizes"
    return found


Probe = Callable[[str, int], float]  #: The seconds of one drain of algorithm *name* at n, in this process.


def check_walk(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    settings: Settings,
    probe: Probe,
    on_checked: OnChecked | None = None,
) -> dict[str, Checked]:
    """Walk n upward for each of *algorithms* within *settings*' budgets."""
    found = {a.name: Checked(a.name) for a in algorithms}
    by_name = {a.name: a for a in algorithms}
    steps = {a.name: walk_sizes(a, settings) for a in algorithms}
    walking = {name: 0 for name, sizes in steps.items() if sizes}
    for name in set(found) - set(walking):
        found[name].stopped = f"no n in {by_name[name].limits()} within the cap n <= {settings.n_cap}"
    while walking:
        pairs = sorted((name, steps[name][index]) for name, index in walking.items())
        for name, n, verdict, seconds in _run_round(pairs, plugins, settings, on_checked):
            checked = found[name]
            _record(checked, n, verdict, seconds)
            if checked.failure is not None:
                checked.ns.clear()
                checked.check_s.clear()
                del walking[name]
                continue
            checked.drain_s[n] = drained = probe(name, n)
            checked.stopped = _walk_on(by_name[name], steps[name], walking[name], drained, seconds, settings)
            if checked.stopped:
                del walking[name]
            else:
                walking[name] += 1
    return found


def _walk_on(
    algorithm: Algorithm, steps: list[int], index: int, drained: float, seconds: float, settings: Settings
) -> str:
    """Return why *algorithm*'s walk stops after step *index*, or "" to go on."""
    n = steps[index]
    if index + 1 < len(steps):
        growth = moves_at(algorithm, steps[index + 1]) / moves_at(algorithm, n)
        return walk_stop(n, steps[-1], "", drained, seconds, settings, following=steps[index + 1], growth=growth)
    if algorithm.max_n == n:
        return f"its limit: n <= {n}"
    if algorithm.puzzle.classic:
        return f"the cap: n <= {n}"
    return f"the cap: n <= {n}, the most disks within the classic puzzle's 2^{settings.n_cap} - 1 moves"


def walk_stop(
    n: int,
    top: int,
    limit: str,
    drained: float,
    seconds: float,
    settings: Settings,
    *,
    following: int | None = None,
    growth: float = GROWTH,
) -> str:
    """Return why the walk stops after *n*, or "" to go on.

    >>> from hanoi_harness.bench.plan import FULL
    >>> walk_stop(5, 40, "the cap", 0.1, 0.2, FULL)
    ''
    >>> walk_stop(12, 40, "the cap", 0.6, 0.2, FULL)
    'drain budget: 0.6 s at n = 12, so n = 13 would pass 1 s'
    >>> walk_stop(6, 25, "the cap", 0.4, 0.2, FULL, growth=3.0)
    'drain budget: 0.4 s at n = 6, so n = 7 would pass 1 s'
    """
    if n >= top:
        return f"{limit}: n <= {top}"
    after = n + 1 if following is None else following
    if growth * drained > settings.drain_budget_s:
        return f"drain budget: {drained:.2g} s at n = {n}, so n = {after} would pass {settings.drain_budget_s:g} s"
    if growth * seconds > settings.check_budget_s:
        return f"check budget: {seconds:.2g} s at n = {n}, so n = {after} would pass {settings.check_budget_s:g} s"
    return ""


def _record(checked: Checked, n: int, verdict: Verdict, seconds: float) -> None:
    if checked.failure is not None:
        return
    if verdict.ok:
        checked.ns.append(n)
        checked.check_s[n] = seconds
        checked.moves[n] = verdict.moves
    else:
        checked.failure = verdict
        checked.stopped = failed_at(n, verdict)


def failed_at(n: int, verdict: Verdict) -> str:
    """Say why a walk stopped at *n*, whose *verdict* is not ok.

    >>> failed_at(3, Verdict("crashed", 3, 1, step=2, reason="IndexError: list index out of range"))
    'failed the check at n = 3: crashed at step 2: IndexError: list index out of range'
    """
    return f"failed the check at n = {n}: {verdict.describe()}"
