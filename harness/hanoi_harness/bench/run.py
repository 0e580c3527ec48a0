"""Run one bench, phase by phase, from the checks to the fit."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from hanoi_harness.bench.check import Checked, check_fixed, check_walk
from hanoi_harness.bench.consume import consume
from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.counts.measure import Valgrind, count_all, count_sizes, find_valgrind, span_of
from hanoi_harness.bench.memory.measure import Rss, rss_peak, tracemalloc_peak
from hanoi_harness.bench.plan import Settings, fixed_sizes
from hanoi_harness.bench.results.environment import capture
from hanoi_harness.bench.results.fit import fit_counts, fit_space, fit_wall
from hanoi_harness.bench.results.resultset import AlgorithmResult, Declared, ResultSet, Run
from hanoi_harness.bench.shell import ORIGIN, Command, CommandCase, check_commands, rss_runs
from hanoi_harness.bench.timing.measure import AnyCase, Case, TimingRun, rounds_for, time_cases
from hanoi_harness.bench.timing.noise import NOISE_N, NoiseFloor, noise_floor
from hanoi_harness.progress import Progress
from hanoi_harness.registry.record import Algorithm

REFERENCE = "recursive"  #: The algorithm every relative time is taken against; always measured.


def run(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    settings: Settings,
    progress: Progress | None = None,
    commands: Sequence[Command] = (),
) -> tuple[ResultSet, dict[str, Any]]:
    """Measure *algorithms* and *commands* with *settings*."""
    hooks = progress or Progress()
    clock = _Clock()
    checked = _check_phase(algorithms, plugins, settings, hooks, commands)
    clock.lap("checking")
    ok = [a for a in algorithms if checked[a.name].ok]
    ok_commands = [c for c in commands if checked[c.name].ok]
    top = max((max(checked[name].ns) for name in [a.name for a in ok] + [c.name for c in ok_commands]), default=0)
    cases: list[AnyCase] = []
    for n in range(top + 1):
        cases += [Case(a, n, _rounds(checked[a.name], n, settings)) for a in ok if n in checked[a.name].check_s]
        cases += [CommandCase(c, n, settings.check_timeout_s) for c in ok_commands if n in checked[c.name].check_s]
    valgrind = find_valgrind()
    environment = capture(valgrind)  # the load average as the timing starts
    hooks.phase("timing", len(cases) * settings.passes)
    with tempfile.TemporaryDirectory(prefix="hanoi-bench-") as work:
        timed = time_cases(
            cases,
            Path(work),
            min_rounds=settings.min_rounds,
            max_time_s=settings.max_time_s,
            passes=settings.passes,
            on_timed=lambda name, n: hooks.step(f"{name} n={n}"),
        )
    clock.lap("timing")
    floor = _noise_phase(ok, checked, hooks)
    clock.lap("noise floor")
    peaks, rss = _memory_phases(ok, checked, plugins, settings, hooks, clock)
    counts = _count_phase(ok, checked, plugins, settings, valgrind, hooks)
    clock.lap("instruction counts")
    if ok_commands:
        rss.update(_command_rss(ok_commands, checked, hooks))
        clock.lap("peak RSS of commands")
    hooks.close()

    results = ResultSet(
        mode=settings.mode,
        reference=REFERENCE,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        environment=environment,
        settings=msgspec.json.decode(msgspec.json.encode(settings)),  # its sizes as lists, as read
        timer=_timer(timed.report),
        durations_s=clock.laps,
        noise_floor=floor,
    )
    for a in algorithms:
        results.algorithms[a.name] = _assemble(a, checked[a.name], timed, peaks, rss, counts.get(a.name))
    for c in commands:
        results.algorithms[c.name] = _assemble_command(c, checked[c.name], timed, rss)
    return results, timed.report


def _check_phase(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    settings: Settings,
    hooks: Progress,
    commands: Sequence[Command] = (),
) -> dict[str, Checked]:

    def step(name: str, n: int) -> None:
        hooks.step(f"{name} n={n}")

    if settings.sizes is not None:
        total = sum(len(fixed_sizes(a, settings.sizes)) for a in algorithms) + len(commands) * len(settings.sizes)
        hooks.phase("checking", total)
        found = check_fixed(algorithms, settings.sizes, plugins, settings, step)
        return {**found, **check_commands(commands, settings, step)}
    by_name = {a.name: a for a in algorithms}

    def probe(name: str, n: int) -> float:
        started = time.perf_counter()
        consume(by_name[name], n)
        return time.perf_counter() - started

    hooks.phase("checking", None)
    found = check_walk(algorithms, plugins, settings, probe, step)
    return {**found, **check_commands(commands, settings, step)}


def _memory_phases(
    ok: Sequence[Algorithm],
    checked: dict[str, Checked],
    plugins: Sequence[str],
    settings: Settings,
    hooks: Progress,
    clock: _Clock,
) -> tuple[dict[tuple[str, int], int], dict[tuple[str, int], Rss | str]]:
    """Measure the tracemalloc peaks, then the peak RSS, of each of *ok*."""
    sizes = {a.name: _memory_sizes(checked[a.name], settings) for a in ok}
    hooks.phase("tracemalloc", sum(len(ns) for ns, _ in sizes.values()))
    peaks: dict[tuple[str, int], int] = {}
    for a in ok:
        for n in sizes[a.name][0]:
            peaks[(a.name, n)] = tracemalloc_peak(a, n)
            hooks.step(f"{a.name} n={n}")
    clock.lap("tracemalloc")
    hooks.phase("peak RSS", sum(len(rss) for _, rss in sizes.values()))
    rss: dict[tuple[str, int], Rss | str] = {}
    for a in ok:
        for n in sizes[a.name][1]:
            # Generous: a child also starts Python and builds the registry; a check takes 2-3 drains.
            timeout = max(30.0, 20 * checked[a.name].check_s[n])
            rss[(a.name, n)] = rss_peak(a.name, n, plugins, timeout)
            hooks.step(f"{a.name} n={n}")
    clock.lap("peak RSS")
    return peaks, rss


def _noise_phase(ok: Sequence[Algorithm], checked: dict[str, Checked], hooks: Progress) -> NoiseFloor | None:
    """Time the reference against itself, interleaved, to find the noise floor."""
    reference = next((a for a in ok if a.name == REFERENCE), None)
    sizes = [n for n in checked[REFERENCE].ns if n <= NOISE_N] if reference else []
    if reference is None or not sizes:
        return None
    n = max(sizes)
    hooks.phase(f"noise floor ({REFERENCE} n={n} against itself)", None)
    return noise_floor(f"{REFERENCE} n={n}", lambda: consume(reference, n), timer=time.process_time)


def _count_phase(
    ok: Sequence[Algorithm],
    checked: dict[str, Checked],
    plugins: Sequence[str],
    settings: Settings,
    valgrind: Valgrind | str,
    hooks: Progress,
) -> dict[str, InstructionCount]:
    sizes = {a.name: count_sizes(a, checked[a.name].ns, settings.count_sizes, settings.count_cap) for a in ok}
    drains = sum(len(found) + 1 for found in sizes.values() if not isinstance(found, str))
    hooks.phase("instruction counts (valgrind)", drains)
    found = count_all(valgrind, sizes, plugins, on_counted=lambda name, n: hooks.step(f"{name} n={n}"))
    return {a.name: msgspec.structs.replace(found[a.name], span=span_of(a, settings.count_sizes)) for a in ok}


def _command_rss(
    commands: Sequence[Command], checked: dict[str, Checked], hooks: Progress
) -> dict[tuple[str, int], Rss | str]:
    hooks.phase("peak RSS of commands", sum(len(checked[c.name].ns) for c in commands))
    found: dict[tuple[str, int], Rss | str] = {}
    for c in commands:
        check_s = checked[c.name].check_s

        def timeout(n: int, check_s: dict[int, float] = check_s) -> float:
            return max(30.0, 20 * check_s.get(n, 0.0))  # the check also parsed every line: a run is faster

        found.update(rss_runs(c, checked[c.name].ns, timeout, lambda name, n: hooks.step(f"{name} n={n}")))
    return found


class _Clock:
    """The seconds each phase took, for the report."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.laps: dict[str, float] = {}

    def lap(self, phase: str) -> None:
        now = time.monotonic()
        self.laps[phase] = round(now - self.last, 1)
        self.last = now


def _rounds(checked: Checked, n: int, settings: Settings) -> int | None:
    drain_s = checked.drain_s.get(n, checked.check_s[n] / 2)
    return rounds_for(drain_s, settings.min_rounds, settings.max_time_s, settings.passes)


def _memory_sizes(checked: Checked, settings: Settings) -> tuple[list[int], list[int]]:
    if checked.drain_s:
        ns = [n for n in checked.ns if checked.drain_s[n] <= settings.memory_budget_s] or checked.ns[:1]
    else:
        ns = list(checked.ns)
    descending = ns[::-1]
    rss = descending[:: settings.rss_stride] if settings.rss_stride else descending[:1]
    return ns, sorted(rss)


def _assemble(
    algorithm: Algorithm,
    checked: Checked,
    timed: TimingRun,
    peaks: dict[tuple[str, int], int],
    rss: dict[tuple[str, int], Rss | str],
    count: InstructionCount | None,
) -> AlgorithmResult:
    result = AlgorithmResult(
        name=algorithm.name,
        summary=algorithm.summary,
        source=str(algorithm.source) if algorithm.source else "",
        family=algorithm.family,
        origin=algorithm.origin,
        limits=algorithm.limits(),
        puzzle=str(algorithm.puzzle),
        declared=Declared(algorithm.time, algorithm.space),
        stopped=checked.stopped,
        instructions=count,
    )
    return _fill(result, checked, timed, peaks, rss)


def _assemble_command(
    command: Command, checked: Checked, timed: TimingRun, rss: dict[tuple[str, int], Rss | str]
) -> AlgorithmResult:
    result = AlgorithmResult(
        name=command.name,
        summary="an external program, run whole for each n",
        family="external program",
        origin=ORIGIN,
        limits=command.limits(),
        stopped=checked.stopped,
        command=command.template,
    )
    return _fill(result, checked, timed, {}, rss)


def _fill(
    result: AlgorithmResult,
    checked: Checked,
    timed: TimingRun,
    peaks: dict[tuple[str, int], int],
    rss: dict[tuple[str, int], Rss | str],
) -> AlgorithmResult:
    """Fill in *result*'s verdict, runs and fits from every phase; return it."""
    if not checked.ok:
        result.status = "failed"
        verdict = checked.failure
        result.failure = {**verdict.to_dict(), "describe": verdict.describe()} if verdict else None
        return result
    for n in checked.ns:
        key = (result.name, n)
        found = rss.get(key)
        result.runs.append(
            Run(
                n=n,
                moves=checked.moves[n],
                check_s=round(checked.check_s[n], 4),
                timing=timed.timings.get(key),
                timing_error=timed.errors.get(key),
                tracemalloc_peak_bytes=peaks.get(key),
                rss=found if found is not None and not isinstance(found, str) else None,
                rss_error=found if isinstance(found, str) else None,
            )
        )
    timed_runs = [run for run in result.runs if run.timing is not None]
    medians = [r.timing.median for r in timed_runs if r.timing]
    result.fit.wall_time = fit_wall([r.n for r in timed_runs], medians, [r.moves for r in timed_runs])
    result.fit.time = fit_counts(result.instructions)
    if result.external:
        sampled = [run for run in result.runs if run.rss is not None]
        rss_peaks = [r.rss.peak_mib * 2**20 for r in sampled if r.rss]
        result.fit.space = fit_space([r.n for r in sampled], rss_peaks, [r.moves for r in sampled])
        return result
    traced = [run for run in result.runs if run.tracemalloc_peak_bytes is not None]
    bytes_held = [float(r.tracemalloc_peak_bytes or 0) for r in traced]
    result.fit.space = fit_space([r.n for r in traced], bytes_held, [r.moves for r in traced])
    return result


def failure_line(result: AlgorithmResult) -> str:
    """Return one line on an algorithm or command that failed its check.

    >>> failed = AlgorithmResult("mine", status="failed", failure={"n": 3, "describe": "illegal at step 5: ..."})
    >>> failure_line(failed)
    'mine failed the check at n = 3: illegal at step 5: ...'
    """
    failure = result.failure or {}
    if "n" in failure and "describe" in failure:
        return f"{result.name} failed the check at n = {failure['n']}: {failure['describe']}"
    return f"{result.name} {result.stopped or 'failed the check'}"


def _timer(report: dict[str, Any]) -> str:
    for bench in report.get("benchmarks", []):
        return str(bench.get("options", {}).get("timer", ""))
    return ""
