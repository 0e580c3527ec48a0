"""The summaries of a result set: one per puzzle, with a detail table."""

from __future__ import annotations

from typing import Any

from hanoi_harness.bench.report.formatting import fmt_bytes, fmt_fit_figure, fmt_per_move, fmt_rate, fmt_sig
from hanoi_harness.bench.report.puzzles import TIED, Entry, Standing, rank_note, standings
from hanoi_harness.bench.report.styles import GROUP_ORDER, group_of
from hanoi_harness.bench.report.tables import Part, Table, shown_name
from hanoi_harness.bench.results.fit import BYTES_PER_DISK, TIME_SLOPE, Fit
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run

NOT_ENOUGH = "not enough sizes"
"""The verdict on a class the run's sizes cannot fit (a quick run's three, say): never a MISMATCH it cannot support."""

NOT_COUNTED = "not counted"
"""The verdict on a time class without instruction counts: the wall clock moves with the load, so no guess."""


def _unfitted(what: str, result: AlgorithmResult) -> str:
    """Return why *result* has no *what* class: not counted, or too few sizes."""
    count = result.instructions
    if what == "time" and (count is None or count.unavailable):
        return NOT_COUNTED
    return NOT_ENOUGH


def _fits(result: AlgorithmResult) -> list[tuple[str, str, Fit | None]]:
    """Return (what, declared, fit) for *result*'s time and space."""
    return [("time", result.declared_time, result.fit_time), ("space", result.declared_space, result.fit_space)]


def verdict(result: AlgorithmResult) -> str:
    """Return the summary's verdict on *result*.

    >>> from hanoi_harness.bench.results.resultset import Declared, Fits
    >>> fits = Fits(Fit("2^n", 0.1, "log-log instructions/move", 9), Fit("1", 0.0, "bytes per disk", 9))
    >>> verdict(AlgorithmResult("a", declared=Declared("2^n", "1"), fit=fits))
    'as declared: time 2^n, space 1'
    >>> verdict(AlgorithmResult("a", declared=Declared("n 2^n", "n"), fit=Fits(time=fits.time)))
    'MISMATCH time: declared n 2^n, fitted 2^n; space: not enough sizes'
    >>> verdict(AlgorithmResult("a", declared=Declared("2^n", "n")))
    'time: not counted; space: not enough sizes'
    """
    if result.status != "ok":
        return "FAILED: " + str((result.failure or {}).get("describe", "failed"))
    fits = _fits(result)
    if result.external:  # a command declares no class to compare with
        found = [f"{what} {fit.cls}" for what, _, fit in fits if fit is not None and what == "space"]
        said = f"no class declared; fitted {', '.join(found)}" if found else f"no class declared; {NOT_ENOUGH}"
    elif all(fit is None for _, _, fit in fits) and _unfitted("time", result) == NOT_ENOUGH:
        said = f"{NOT_ENOUGH} to fit time or space"
    elif all(fit is not None and fit.cls == declared for _, declared, fit in fits):
        said = "as declared: " + ", ".join(f"{what} {declared}" for what, declared, _ in fits)
    else:
        mismatched = [
            f"MISMATCH {what}: declared {declared}, fitted {fit.cls}"
            for what, declared, fit in fits
            if fit is not None and fit.cls != declared
        ]
        matched = [f"{what} {declared} as declared" for what, declared, fit in fits if fit and fit.cls == declared]
        unknown = [f"{what}: {_unfitted(what, result)}" for what, _, fit in fits if fit is None]
        said = "; ".join(mismatched + matched + unknown)
    errors = [f"n={run.n}: {run.timing_error}" for run in result.runs if run.timing_error]
    return said + ("; timing failed at " + "; ".join(errors) if errors else "")


def findings(result: AlgorithmResult) -> list[str]:
    """Return what each MISMATCH of *result* means, in words."""
    if result.status != "ok" or result.external:
        return []
    said = []
    wall, counted = result.fit_wall, result.fit_time
    if wall is not None and counted is not None and wall.cls != counted.cls:
        said.append(
            f"{result.name}, observation (no verdict): its ns per move grows like n^{wall.slope:.2f} over "
            f"{wall.points} sizes, its instructions per move like n^{counted.slope:.2f}. The clock reads "
            f"{wall.cls}, the counts {counted.cls}: load, or memory that outgrows the caches."
        )
    for what, declared, fit in _fits(result):
        if fit is None or fit.cls == declared:
            continue
        over = f"over {fit.points} sizes"
        if what == "time":
            grows = f"its instructions per move grow like n^{fit.slope:.2f} {over}"
            if fit.cls == "2^n":
                said.append(
                    f"{result.name}, time: declared {declared} (a cost per move growing like n), but {grows}, "
                    f"under the n^{TIME_SLOPE:g} that reads as n 2^n: no growth with n shows."
                )
            else:
                said.append(
                    f"{result.name}, time: declared {declared} (the same cost every move), but {grows}, "
                    f"past the n^{TIME_SLOPE:g} that reads as n 2^n: each move costs more as n grows."
                )
        elif fit.cls == "1":
            said.append(
                f"{result.name}, space: declared {declared}, but its tracemalloc peak does not grow measurably "
                f"with n ({fmt_fit_figure(fit)} {over}; a growth counts from {BYTES_PER_DISK:g} B a disk, "
                "a median over every two sizes)."
            )
        else:
            like = "like n" if fit.cls == "n" else "doubling with each disk, like 2^n"
            said.append(
                f"{result.name}, space: declared {declared}, but its tracemalloc peak grows {like} "
                f"({fmt_fit_figure(fit)} {over})."
            )
    return said


def instructions_cell(result: AlgorithmResult) -> str:
    """Return the detail table's instructions cell.

    >>> from hanoi_harness.bench.counts.figures import InstructionCount
    >>> missing = InstructionCount(sizes=(10, 14), unavailable="no valgrind")
    >>> instructions_cell(AlgorithmResult("a", instructions=missing))
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


def total_instructions(result: AlgorithmResult) -> tuple[float | None, str]:
    """Return *result*'s instructions per move, and its summary cell."""
    count = result.instructions
    if count is None or count.total_per_move is None:
        return None, instructions_cell(result)
    return count.total_per_move, f"{count.total_per_move:.0f}"


def peak(result: AlgorithmResult, run: Run | None) -> tuple[float | None, str]:
    """Return *result*'s peak memory in bytes at *run*, and its cell."""
    if result.external:
        sized = [(r, r.rss.peak_mib * 2**20) for r in result.runs if r.rss is not None]
        unit = " RSS"
    else:
        sized = [(r, float(r.tracemalloc_peak_bytes)) for r in result.runs if r.tracemalloc_peak_bytes is not None]
        unit = ""
    if not sized:
        return None, ""
    at, size = next(((r, b) for r, b in sized if r is run), max(sized, key=lambda found: found[0].n))
    return size, f"{fmt_bytes(size)}{unit}" + ("" if at is run else f" (n={at.n})")


HEADERS = ["rank", "algorithm", "ns/move ±95%", "moves/s", "speed vs {reference}", "instructions/move"]
HEADERS += ["peak memory", "verdict"]
"""The columns of each puzzle's summary ({reference}: the puzzle's)."""

DETAIL_HEADERS = ["rank", "algorithm", "ranked at n (moves)", "instructions/move: outside + in the allocators"]
DETAIL_HEADERS += ["time: declared / fitted", "space: declared / fitted (growth a disk)", "n measured", "stopped"]
"""The columns of each puzzle's detail table."""

SUMMARY_CSV = ["rank", "algorithm", "puzzle", "reference", "n", "moves", "ns_per_move", "ns_per_move_low"]
SUMMARY_CSV += ["ns_per_move_high", "stable", "moves_per_s", "speed_vs_reference", "instructions_per_move"]
SUMMARY_CSV += ["allocator_instructions_per_move", "instructions_unavailable", "peak_bytes", "time_declared"]
SUMMARY_CSV += ["time_fitted", "time_slope", "space_declared", "space_fitted", "space_slope", "space_basis", "n_min"]
SUMMARY_CSV += ["n_max", "limits", "stopped", "verdict"]
"""The summary CSV's columns, one figure a column, every puzzle's rows: ``rank`` is within the puzzle, against
``reference`` (``space_basis`` gives the unit of ``space_slope``: bytes per disk, or log2 bytes per disk;
``ns_per_move_low`` and ``_high`` the 95% interval; ``peak_bytes`` the summary's peak memory)."""


def summary(results: ResultSet) -> Table:
    """Return the summaries of *results*, one part per puzzle."""
    parts, shown, raw = [], [], []
    for standing in standings(results):
        rows = [_shown(entry) for entry in standing.entries]
        notes = tuple(note for entry in standing.entries for note in findings(entry.result))
        headers = [header.format(reference=standing.reference) for header in HEADERS]
        keys = [_keys(entry) for entry in standing.entries]
        names = [entry.result.name for entry in standing.entries]
        parts.append(Part(standing.title, headers, rows, keys, names, rank_note(results, standing) + ".", notes))
        shown += rows
        raw += [_raw(standing, entry) for entry in standing.entries]
    headers = [header.format(reference="reference") for header in HEADERS]
    return Table("Summary, by puzzle", headers, shown, "summary.csv", SUMMARY_CSV, raw, tuple(parts))


def details(results: ResultSet) -> Table:
    """Return the detail tables of *results*, one part per puzzle."""
    parts, shown = [], []
    for standing in standings(results):
        rows = [_detail(entry) for entry in standing.entries]
        keys: list[list[float | str | None]] = [
            [entry.rank, entry.result.name, entry.run.moves if entry.run else None] for entry in standing.entries
        ]
        names = [entry.result.name for entry in standing.entries]
        parts.append(Part(standing.title, DETAIL_HEADERS, rows, keys, names))
        shown += rows
    title = "Details, by puzzle: the figures behind the verdicts"
    return Table(title, DETAIL_HEADERS, shown, "", [], [], tuple(parts))


def _shown(entry: Entry) -> list[str]:
    result, run = entry.result, entry.run
    return [
        entry.place,
        shown_name(result),
        fmt_per_move(run),
        fmt_rate(run.moves_per_s if run else None),
        "" if entry.speed is None else f"{entry.speed:.2f}x",
        total_instructions(result)[1],
        peak(result, run)[1],
        verdict(result),
    ]


def _keys(entry: Entry) -> list[float | str | None]:
    result, run = entry.result, entry.run
    return [
        entry.rank,
        result.name,
        run.ns_per_move if run else None,
        run.moves_per_s if run else None,
        entry.speed,
        total_instructions(result)[0],
        peak(result, run)[0],
        verdict(result),
    ]


def classes_cell(declared: str, fit: Fit | None, of_rss: bool = False) -> str:
    """Return "declared / fitted (figure, sizes)" for the detail table.

    >>> classes_cell("", None), classes_cell("n", Fit("1", 0.0, "bytes per disk", 9))
    ('- / - (not enough sizes)', 'n / 1 (0 B/disk, 9 sizes)')
    """
    declared = declared or "-"
    if fit is None:
        return f"{declared} / - ({NOT_ENOUGH})"
    return f"{declared} / {fit.cls} ({fmt_fit_figure(fit, of_rss)}, {fit.points} sizes)"


def _detail(entry: Entry) -> list[str]:
    result, run = entry.result, entry.run
    ns = [r.n for r in result.runs]
    return [
        entry.place,
        shown_name(result),
        f"{run.n} ({run.moves})" if run else "",
        instructions_cell(result),
        classes_cell(result.declared_time, result.fit_time),
        classes_cell(result.declared_space, result.fit_space, of_rss=result.external),
        f"{min(ns)}..{max(ns)}" if ns else "",
        result.stopped,
    ]


def _raw(standing: Standing, entry: Entry) -> list[Any]:
    """Return *entry*'s row of the summary's CSV (:data:`SUMMARY_CSV`)."""
    result, run = entry.result, entry.run
    ns = [r.n for r in result.runs]
    fit_t, fit_s = result.fit_time, result.fit_space
    interval = run.timing.interval if run and run.timing else None
    low, high = (interval.low / run.moves * 1e9, interval.high / run.moves * 1e9) if run and interval else (None, None)
    count = result.instructions
    return [
        entry.rank,
        result.name,
        result.puzzle,
        standing.reference,
        run.n if run else None,
        run.moves if run else None,
        run.ns_per_move if run else None,
        low,
        high,
        run.timing.stable if run and run.timing else None,
        run.moves_per_s if run else None,
        entry.speed,
        count.per_move if count else None,
        count.allocator_per_move if count else None,
        count.unavailable if count and count.unavailable else None,
        peak(result, run)[0],
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


def _names(names: list[str]) -> str:
    """Return *names* as a list in words.

    >>> _names(["a"]), _names(["a", "b"]), _names(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def glance(results: ResultSet) -> list[str]:
    """Return the few plain sentences the README and the page open with."""
    said = []
    for standing in standings(results):
        ranked = [entry for entry in standing.entries if entry.rank is not None and entry.run is not None]
        line = [_fastest(standing, [entry for entry in ranked if entry.rank == 1])] if ranked else []
        peaks = [(peak(entry.result, entry.run)[0], entry.result.name) for entry in standing.entries]
        sized = [(size, name) for size, name in peaks if size is not None and not results.algorithms[name].external]
        if sized:
            least = min(size for size, _ in sized)
            names = sorted(name for size, name in sized if size == least)
            line.append(f"The leanest is {_names(names)}, at a tracemalloc peak of {fmt_bytes(least)}.")
        shared: dict[int, list[str]] = {}
        for entry in ranked:
            if entry.tied and entry.rank is not None and entry.rank > 1:
                shared.setdefault(entry.rank, []).append(entry.result.name)
        if shared:
            groups = "; ".join(f"={rank} {_names(names)}" for rank, names in sorted(shared.items()))
            line.append(f"Tied, as their {TIED}: {groups}.")
        if line:
            said.append(f"{standing.title}: " + " ".join(line))
    return said + _scaling(results)


def _fastest(standing: Standing, first: list[Entry]) -> str:
    """Return the sentence on the fastest of *standing*: *first*, its rank 1."""
    ns = _names([f"{fmt_sig(entry.run.ns_per_move if entry.run else None)}" for entry in first])
    if len(first) > 1:
        names = _names([entry.result.name for entry in first])
        return f"{names} share the fastest place, at {ns} ns a move; their {TIED}."
    entry = first[0]
    against = (
        ""
        if entry.result.name == standing.reference or entry.speed is None
        else (f", {entry.speed:.3g} times the speed of {standing.reference}")
    )
    return f"{entry.result.name} is the fastest, at {ns} ns a move{against}."


CLASS_WORDS = {"2^n": "the same cost every move", "n 2^n": "a cost a move growing like n"}
"""What a fitted time class means, in words."""


def _scaling(results: ResultSet) -> list[str]:
    """Return one sentence per kind of algorithm: its fitted time classes."""
    kinds: dict[str, dict[str, list[str]]] = {}
    for result in results.algorithms.values():
        if result.fit_time is not None and not result.external:
            found = kinds.setdefault(group_of(result.family), {})
            found.setdefault(result.fit_time.cls, []).append(result.name)
    said = []
    for kind in sorted(kinds, key=GROUP_ORDER.index):
        parts = [
            f"{cls}{f' ({CLASS_WORDS[cls]})' if cls in CLASS_WORDS else ''} for {_names(sorted(names))}"
            for cls, names in sorted(kinds[kind].items())
        ]
        said.append(f"The {kind} take time {'; '.join(parts)}.")
    return said
