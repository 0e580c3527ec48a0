"""The summary of a result set: every algorithm ranked by ns per move at about the same work.

Equal work: a run of the classic puzzle's n makes 2^n - 1 moves, a linear
one 3^n - 1, one on four pegs far fewer, so runs of the same n do not do the
same work.  The summary takes *W*, the most moves every timed algorithm
reached, and ranks each algorithm at its timed run closest to W (in ratio:
6560 moves is closer to 16383 than 1023 is); its n and moves are in the
table.  A set whose drains read no move (``"consumer": "generation only"``,
a file of schema 1 or 2) is not ranked: its speeds say how fast a generator
hands out objects, not how fast moves can be read.
"""

from __future__ import annotations

import math
from typing import Any

from hanoi_harness.bench.report.formatting import fmt_fit_figure, fmt_number, fmt_per_move
from hanoi_harness.bench.report.tables import Table, shown_name
from hanoi_harness.bench.results.fit import Fit
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run


def common_moves(results: ResultSet) -> int | None:
    """Return W, the most moves every timed algorithm of *results* reached (None when none was timed).

    >>> from hanoi_harness.bench.results.resultset import AlgorithmResult, Run
    >>> from hanoi_harness.bench.timing.figures import Timing
    >>> t = Timing(1e-3, 0, 1e-3, 1e-3, 1e-3, 1e-3, 0, 8, 1)
    >>> r = ResultSet("quick", "a")
    >>> r.algorithms = {"a": AlgorithmResult("a", runs=[Run(6, timing=t), Run(14, timing=t)]),
    ...                 "b": AlgorithmResult("b", runs=[Run(8, timing=t, moves=6560)])}
    >>> common_moves(r)
    6560
    """
    tops = [
        max(run.moves for run in result.timed().values()) for result in results.algorithms.values() if result.timed()
    ]
    return min(tops) if tops else None


def ranked_run(result: AlgorithmResult, target: int | None) -> Run | None:
    """Return *result*'s timed run closest to *target* moves in ratio (the larger on a tie), or None when untimed.

    Without a target, its largest timed run.
    """
    timed = [run for run in result.timed().values() if run.moves > 0]
    if not timed:
        return None
    if target is None:
        return max(timed, key=lambda run: run.n)
    return min(timed, key=lambda run: (abs(math.log(run.moves / target)), -run.moves))


def verdict(result: AlgorithmResult) -> str:
    """Return the summary's last column for *result*: the check, then any mismatch of fitted and declared classes."""
    if result.status != "ok":
        described = (result.failure or {}).get("describe", "failed")
        return f"FAILED: {described}"
    notes = []
    for what, declared, fit in (
        ("time", result.declared_time, result.fit_time),
        ("space", result.declared_space, result.fit_space),
    ):
        if fit is None:
            notes.append(f"{what}: too few sizes to fit")
        elif fit.cls != declared and not result.external:  # a command declares no class to compare with
            notes.append(f"MISMATCH {what}: fitted {fit.cls}, declared {declared}")
    errors = [f"n={run.n}: {run.timing_error}" for run in result.runs if run.timing_error]
    if errors:
        notes.append("timing failed at " + "; ".join(errors))
    return "ok" if not notes else "ok; " + "; ".join(notes)


def _classes(declared: str, fit: Fit | None, of_rss: bool = False) -> str:
    """Return "declared / fitted (figure)" for the summary, "-" for what is unknown.

    >>> _classes("", None)
    '- / -'
    """
    declared = declared or "-"
    return f"{declared} / {fit.cls} ({fmt_fit_figure(fit, of_rss)})" if fit is not None else f"{declared} / -"


def instructions_cell(result: AlgorithmResult) -> str:
    """Return the summary's instructions cell: per move outside the allocators, + the allocators' share.

    >>> from hanoi_harness.bench.counts.figures import InstructionCount
    >>> instructions_cell(AlgorithmResult("a", instructions=InstructionCount("a", (10, 14), unavailable="no valgrind")))
    'unavailable'
    >>> instructions_cell(AlgorithmResult("a", command="./a {n}"))
    '-'
    """
    count = result.instructions
    if count is None:
        return "-" if result.external or result.status != "ok" else ""
    if count.per_move is None or count.allocator_per_move is None:
        return "unavailable"
    return f"{count.per_move:.0f} + {count.allocator_per_move:.0f}"


SUMMARY_CSV = [
    "rank",
    "algorithm",
    "puzzle",
    "n",
    "moves",
    "ns_per_move",
    "ns_per_move_low",
    "ns_per_move_high",
    "stable",
    "moves_per_s",
    "speed_vs_reference",
    "instructions_per_move",
    "allocator_instructions_per_move",
    "instructions_unavailable",
    "time_declared",
    "time_fitted",
    "time_slope",
    "space_declared",
    "space_fitted",
    "space_slope",
    "space_basis",
    "n_min",
    "n_max",
    "limits",
    "stopped",
    "verdict",
]
"""The summary CSV's columns: the Markdown summary's, one figure a column (``space_basis`` gives the unit of
``space_slope``: bytes per disk, or log2 bytes per disk; ``ns_per_move_low`` and ``_high`` the 95% interval)."""


def summary(results: ResultSet) -> Table:
    """Return the summary of *results*, ranked by ns per move at about the same work (see the module's notes).

    Algorithms without timings come last, unranked, as does every algorithm
    of a set whose drains read no move.
    """
    target = common_moves(results)
    ref = results.algorithms.get(results.reference)
    ref_run = ranked_run(ref, target) if ref else None
    entries = []
    for result in results.algorithms.values():
        run = ranked_run(result, target)
        entries.append(((run.ns_per_move or math.inf) if run else math.inf, result.name, result, run))
    entries.sort(key=lambda e: (e[0], e[1]))
    headers = [
        "rank",
        "algorithm",
        "n (moves)",
        "ns/move ±95%",
        "moves/s",
        f"speed vs {results.reference}",
        "instructions/move + allocators",
        "time: declared / fitted (slope)",
        "space: declared / fitted (growth a disk)",
        "n measured",
        "verdict",
    ]
    raw: list[list[Any]] = []
    shown: list[list[str]] = []
    for rank, (_, _, result, run) in enumerate(entries, start=1):
        speed = None
        if run is not None and ref_run is not None and run.ns_per_move and ref_run.ns_per_move:
            speed = ref_run.ns_per_move / run.ns_per_move
        place = rank if run is not None and results.reads_moves else None
        raw.append(_raw(result, place, run, speed))
        shown.append(_shown(result, place, run, speed))
    return Table("Summary", headers, shown, "summary.csv", SUMMARY_CSV, raw)


def _raw(result: AlgorithmResult, rank: int | None, run: Run | None, speed: float | None) -> list[Any]:
    """Return *result*'s row of the summary's CSV (:data:`SUMMARY_CSV`), ranked *rank* at *run*."""
    ns = [r.n for r in result.runs]
    fit_t, fit_s = result.fit_time, result.fit_space
    interval = run.timing.interval if run and run.timing else None
    low, high = (interval.low / run.moves * 1e9, interval.high / run.moves * 1e9) if run and interval else (None, None)
    count = result.instructions
    return [
        rank,
        result.name,
        result.puzzle,
        run.n if run else None,
        run.moves if run else None,
        run.ns_per_move if run else None,
        low,
        high,
        run.timing.stable if run and run.timing else None,
        run.moves_per_s if run else None,
        speed,
        count.per_move if count else None,
        count.allocator_per_move if count else None,
        count.unavailable if count and count.unavailable else None,
        result.declared_time,
        fit_t.cls if fit_t else None,
        fit_t.slope if fit_t else None,
        result.declared_space,
        fit_s.cls if fit_s else None,
        fit_s.slope if fit_s else None,
        fit_s.basis if fit_s else None,
        min(ns) if ns else None,
        max(ns) if ns else None,
        result.limits,
        result.stopped,
        verdict(result),
    ]


def _shown(result: AlgorithmResult, rank: int | None, run: Run | None, speed: float | None) -> list[str]:
    """Return *result*'s row of the Markdown summary, ranked *rank* at *run*."""
    ns = [r.n for r in result.runs]
    return [
        str(rank) if rank is not None else "-",
        shown_name(result),
        f"{run.n} ({run.moves})" if run else "",
        fmt_per_move(run),
        fmt_number(run.moves_per_s if run else None, 3),
        "" if speed is None else f"{speed:.2f}x",
        instructions_cell(result),
        _classes(result.declared_time, result.fit_time),
        _classes(result.declared_space, result.fit_space, of_rss=result.external),
        f"{min(ns)}..{max(ns)}" if ns else "",
        verdict(result),
    ]
