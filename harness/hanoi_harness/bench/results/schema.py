"""The one reader of ``results.json``: every record, each value checked.

A result file decides the exit status of the regression gate and feeds every
table, so it is read here and nowhere else.  :func:`load` reads the file
within bounds (:func:`~hanoi_harness.bench.results.validate.read_json`).  The
readers below turn each record into the objects of
:mod:`hanoi_harness.bench.results.resultset` through
:class:`~hanoi_harness.bench.results.validate.Fields`, which checks each
value's type and range.  Figures that contradict each other are refused
too (:mod:`hanoi_harness.bench.results.consistency`).  Any refusal is one line
(:class:`~hanoi_harness.errors.UsageError`, exit status 2) naming the value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.memory.measure import Rss
from hanoi_harness.bench.plan import MAX_N
from hanoi_harness.bench.results import consistency
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.fit import Fit
from hanoi_harness.bench.results.resultset import (
    CLASSIC_PUZZLE,
    CONSUMERS,
    MODES,
    RESULTS_FILE,
    STATUSES,
    AlgorithmResult,
    Consumer,
    ResultSet,
    Run,
)
from hanoi_harness.bench.results.validate import Fields, read_json
from hanoi_harness.bench.timing.figures import KEPT_ROUNDS, NOT_KEPT, SECONDS, SPREAD, Timing
from hanoi_harness.bench.timing.noise import NoiseFloor
from hanoi_harness.bench.timing.stats import VERDICTS, Difference, Interval
from hanoi_harness.errors import UsageError

READABLE = (1, 2, 3, 4, 5)
"""The schemas :func:`read` reads: 2, 4 and 5 only added keys to 1 and 3; 5 is what a bench writes now."""

FIT_CLASSES = ("1", "n", "2^n", "n 2^n")
FIT_BASES = ("log-log ns/move", "log-log instructions/move", "log2 bytes vs n", "bytes per disk")

COUNT = (0, 2**63)
"""An instruction count of one process: a machine executing 10^9 a second for 292 years stays below 2^63."""

MOVES = (0, 2**63)
"""Moves of one run: a result file reads what a 64-bit counter holds."""


def results_path(path: Path) -> Path:
    """Return the ``results.json`` of the directory *path*, else *path*."""
    return path / RESULTS_FILE if path.is_dir() else path


def load(path: Path) -> ResultSet:
    """Return the result set in the directory or ``results.json`` *path*.

    Anything else (no file, not a regular file, over the size or depth
    bounds, not JSON, a value of the wrong type or out of range, figures that
    contradict each other) is a one-line :class:`UsageError` naming the file and the value.
    """
    file = results_path(path)
    if not file.exists() and not file.is_symlink():
        raise UsageError(f"no results at {str(path)!r} (expected a results directory or a results.json)")
    data = read_json(file)
    try:
        return read(data)
    except UsageError as exc:
        raise UsageError(f"{file}: {exc}") from None


def read(data: Any) -> ResultSet:
    """Return the result set in *data* (parsed JSON), every value checked.

    A schema this version does not read, a missing key, or a value of the
    wrong type or out of range is a one-line :class:`UsageError` naming it.

    >>> read({"schema": True, "mode": "quick", "reference": "recursive", "algorithms": {}})
    Traceback (most recent call last):
    hanoi_harness.errors.UsageError: not a results.json of schema 1, 2, 3, 4 or 5 (found schema true)
    """
    top = Fields(data, "")
    schema = top.data.get("schema")
    if type(schema) is not int or schema not in READABLE:  # true == 1 and 2.0 == 2 in Python, not here
        readable = ", ".join(str(number) for number in READABLE[:-1]) + f" or {READABLE[-1]}"
        raise UsageError(f"not a results.json of schema {readable} (found schema {json.dumps(schema)[:40]})")
    algorithms = top.by_name("algorithms")
    return ResultSet(
        mode=top.choice("mode", MODES),
        reference=top.name("reference"),
        created=top.text("created", ""),
        environment=_environment_of(top, schema),
        settings=settings(top.optional_fields("settings")),
        timer=top.text("timer", ""),
        durations_s=top.seconds_by_name("durations_s", 1e7),
        algorithms={name: algorithm(name, entry, schema) for name, entry in algorithms.items()},
        noise_floor=noise_floor(top.optional_fields("noise_floor")),
        consumer=_consumer(top) if schema >= 3 else "generation only",
    )


def _consumer(top: Fields) -> Consumer:
    """Return the set's consumer, one of ``CONSUMERS``."""
    return "digest" if top.choice("consumer", CONSUMERS) == "digest" else "generation only"


# --- an algorithm and its runs -------------------------------------------------------------------------------


def algorithm(name: str, entry: Fields, schema: int) -> AlgorithmResult:
    """Return algorithm *name*'s record in *entry* (of *schema*), checked."""
    fits = entry.optional_fields("fit")
    timed = fit(fits.optional_fields("time")) if fits else None
    wall = fit(fits.optional_fields("wall_time")) if fits else None
    if timed is not None and timed.basis == "log-log ns/move":  # schema 4 or older: fitted on the wall clock
        timed, wall = None, timed
    declared = entry.optional_fields("declared")
    failure = entry.optional_fields("failure")
    if failure is not None:
        failure.text("describe", "")  # the one field a report shows
    return AlgorithmResult(
        name=name,
        summary=entry.text("summary", ""),
        source=entry.text("source", ""),
        family=entry.text("family", ""),
        origin=entry.text("origin", ""),
        limits=entry.text("limits", ""),
        puzzle=entry.text("puzzle", CLASSIC_PUZZLE),
        declared_time=declared.text("time", "") if declared else "",
        declared_space=declared.text("space", "") if declared else "",
        status=entry.choice("status", STATUSES) if entry.has("status") else "ok",
        failure=dict(failure.data) if failure else None,
        stopped=entry.text("stopped", ""),
        fit_time=timed,
        fit_wall=wall,
        fit_space=fit(fits.optional_fields("space")) if fits else None,
        instructions=instructions(name, entry.optional_fields("instructions")),
        runs=[run(found, schema) for found in entry.each("runs")],
        command=entry.optional_text("command"),
    )


def run(data: Fields, schema: int) -> Run:
    """Return the run in *data* (of *schema*), each figure checked."""
    found_timing, rss = data.optional_fields("timing"), data.optional_fields("rss")
    n = data.integer("n", 0, MAX_N)
    found = Run(
        n=n,
        moves=data.integer("moves", *MOVES) if schema >= 3 else (1 << n) - 1,
        check_s=data.optional_number("check_s", *SPREAD),
        timing=timing(found_timing, schema) if found_timing else None,
        timing_error=data.optional_text("timing_error"),
        tracemalloc_peak_bytes=data.optional_integer("tracemalloc_peak_bytes", 0, 2**48),
        rss=_rss(rss) if rss else None,
        rss_error=data.optional_text("rss_error"),
    )
    consistency.derived(data, "ns_per_move", found.ns_per_move, "its median and moves")
    consistency.derived(data, "moves_per_s", found.moves_per_s, "its median and moves")
    return found


def _rss(rss: Fields) -> Rss:
    """Return a run's peak RSS record; ``numpy`` is None when not known.

    ``numpy`` says whether the measuring process loaded numpy.
    """
    numpy = rss.flag("numpy") if rss.has("numpy") else None
    return Rss(rss.number("peak_mib", 0.0, 2.0**30), rss.number("baseline_mib", 0.0, 2.0**30), numpy)


def timing(data: Fields, schema: int) -> Timing:
    """Return the timing in *data*, each figure checked.

    The median and mean are positive, a round may be 0 (the CPU clock did
    not advance), counts are at least 1, and the figures agree.

    A file of *schema* 1 or 2 kept no rounds: its timing has no interval
    and is flagged unstable for that reason.
    """
    interval = data.optional_fields("interval")
    found = Timing(
        median=data.number("median", *SECONDS),
        iqr=data.number("iqr", *SPREAD),
        q1=data.number("q1", *SPREAD),
        q3=data.number("q3", *SECONDS),
        minimum=data.number("minimum", *SPREAD),  # a round the CPU clock did not see advance
        mean=data.number("mean", *SECONDS),
        stddev=data.number("stddev", *SPREAD),
        rounds=data.integer("rounds", 1, 10**9),
        iterations=data.integer("iterations", 1, 10**12),
        interval=_interval(interval, SECONDS) if interval else None,
        unstable=tuple(data.texts("unstable")) if schema >= 3 else (NOT_KEPT,),
        samples=tuple(data.numbers("samples", *SPREAD, most=KEPT_ROUNDS)),
    )
    consistency.timing(data, found)
    return found


# --- the other records ---------------------------------------------------------------------------------------


def _environment_of(top: Fields, schema: int) -> Environment:
    """Return the set's environment, from schema 2's records if need be."""
    if schema >= 3:
        found = top.optional_fields("environment")
        return environment(found) if found else Environment.from_dict({})
    return schema_2_environment(top.scalars("machine"), commit(top.optional_fields("commit")))


def environment(data: Fields) -> Environment:
    """Return the environment in *data*, each value checked.

    A value the record lacks is empty.
    """
    return Environment(
        python=data.text("python", ""),
        implementation=data.text("implementation", ""),
        python_build=data.text("python_build", ""),
        numpy=data.text("numpy", ""),
        libc=data.text("libc", ""),
        arch=data.text("arch", ""),
        os=data.text("os", ""),
        cpu=data.text("cpu", ""),
        cores=data.optional_integer("cores", 1, 2**20),
        valgrind=data.text("valgrind", ""),
        valgrind_missing=data.text("valgrind_missing", ""),
        load=tuple(data.numbers("load", 0.0, 1e6, most=3)),
        commit=data.text("commit", ""),
        dirty=data.flag("dirty"),
        version=data.text("version", ""),
        branch=data.text("branch", ""),
    )


def schema_2_environment(machine: dict[str, Any], found: dict[str, Any]) -> Environment:
    """Return the environment of a file of schema 1 or 2.

    It comes from the file's ``machine`` and ``commit`` records (both checked).

    What those files did not record (the Python build, numpy, the C
    library, valgrind) is empty, so no count or peak is compared with them.

    >>> e = schema_2_environment({"cpu": "AMD EPYC", "cores": 2}, {"id": "abc", "dirty": True})
    >>> e.cpu, e.cores, e.commit, e.dirty, e.numpy
    ('AMD EPYC', 2, 'abc', True, '')
    """

    def text(key: str) -> str:
        return str(machine.get(key) or "")

    cores = machine.get("cores")
    return Environment(
        python=text("python"),
        implementation=text("implementation"),
        os=text("os"),
        arch=text("arch"),
        cpu=text("cpu"),
        python_build="",
        numpy="",
        libc="",
        cores=cores if isinstance(cores, int) and not isinstance(cores, bool) else None,
        commit=str(found.get("id") or ""),
        branch=str(found.get("branch") or ""),
        dirty=bool(found.get("dirty")),
        version=str(found.get("version") or ""),
    )


def fit(data: Fields | None) -> Fit | None:
    """Return the fit in *data* (None for none).

    A known class and basis, a finite slope.
    """
    if data is None:
        return None
    return Fit(
        data.choice("cls", FIT_CLASSES),
        data.number("slope", -1e15, 1e15),
        data.choice("basis", FIT_BASES),
        data.integer("points", 0, MAX_N + 1),
    )


def commit(data: Fields | None) -> dict[str, Any]:
    """Return the ``commit`` record of a file of schema 1 or 2.

    The version and the commit id (either may be absent).
    """
    if data is None:
        return {}
    found: dict[str, Any] = {key: data.optional_text(key) for key in ("version", "id", "branch") if key in data.data}
    if "dirty" in data.data:
        found["dirty"] = data.flag("dirty")
    return found


SETTINGS_NUMBERS = ("drain_budget_s", "check_budget_s", "max_time_s", "memory_budget_s", "check_timeout_s")
SETTINGS_COUNTS = {
    "n_cap": MAX_N,
    "count_cap": MAX_N,
    "min_rounds": 10**9,
    "rss_stride": MAX_N,
    "check_memory_mb": 2**40,
    "passes": 1000,
}


def settings(data: Fields | None) -> dict[str, Any]:
    """Return the settings a report shows from *data*, each checked.

    Keys it does not know are left out.
    """
    if data is None:
        return {}
    found: dict[str, Any] = {}
    if data.has("mode"):
        found["mode"] = data.choice("mode", MODES)
    if "sizes" in data.data:
        found["sizes"] = data.integers("sizes", 0, MAX_N)
    if data.has("count_sizes"):
        found["count_sizes"] = data.integers("count_sizes", 0, MAX_N)
    for key in SETTINGS_NUMBERS:
        if data.has(key):
            found[key] = data.number(key, 0.0, 1e12)
    for key, high in SETTINGS_COUNTS.items():
        if data.has(key):
            found[key] = data.integer(key, 0, high)
    return found


def instructions(name: str, data: Fields | None) -> InstructionCount | None:
    """Return algorithm *name*'s instruction counts in *data* (None for none).

    Or why it has none.

    The figures per move are computed again from the counts, which must
    agree with each other and with those the file writes.  A file of schema
    4 or older counted two sizes, without ``span``: its two sizes.
    """
    if data is None:
        return None
    sizes = data.integers("sizes", 0, MAX_N) or []
    if len(sizes) == 1 or sizes != sorted(set(sizes)):
        raise data.refuse("sizes", f"expected two sizes or more in increasing order (or none), got {sizes}")
    unavailable = data.text("unavailable", "").strip()
    if unavailable:
        return InstructionCount(name, tuple(sizes), unavailable=unavailable)
    span = data.integers("span", 0, MAX_N)
    if span is not None and (len(span) != 2 or not set(span) <= set(sizes) or span[0] >= span[1]):
        raise data.refuse("span", f"expected two of the sizes {sizes} in increasing order, got {span}")
    found = InstructionCount(
        name,
        tuple(sizes),
        tuple(_integers(data, "moves", len(sizes), MOVES)),
        tuple(_integers(data, "instructions", len(sizes) + 1, COUNT)),
        tuple(_integers(data, "allocator", len(sizes) + 1, COUNT)),
        span=(span[0], span[1]) if span else None,
    )
    consistency.counts(data, found)
    return found


def _integers(data: Fields, key: str, count: int, bounds: tuple[int, int]) -> list[int]:
    """Return exactly *count* integers within *bounds* at *key*."""
    found = data.integers(key, *bounds)
    if found is None or len(found) != count:
        raise data.refuse(key, f"expected {count} integers, got {'none' if found is None else len(found)}")
    return found


def noise_floor(data: Fields | None) -> NoiseFloor | None:
    """Return the noise floor in *data* (None for none), checked."""
    if data is None:
        return None
    found = NoiseFloor(data.text("case"), difference(data.fields("difference")))
    consistency.derived(data, "margin", found.margin, "its interval")
    return found


def difference(data: Fields) -> Difference:
    """Return the difference of two sets of rounds in *data*.

    A known verdict, the ratio, its interval, a p-value.
    """
    interval = data.optional_fields("interval")
    said = data.choice("verdict", VERDICTS)
    return Difference(
        verdict=next(verdict for verdict in VERDICTS if verdict == said),
        ratio=data.number("ratio", 1e-9, 1e9),
        interval=_interval(interval, (1e-9, 1e9)) if interval else None,
        p_value=data.number("p_value", 0.0, 1.0),
    )


def _interval(data: Fields, bounds: tuple[float, float]) -> Interval:
    """Return the interval in *data*: two ends within *bounds*, in order.

    Its level is between 0.5 and 1.
    """
    low, high = data.number("low", *bounds), data.number("high", *bounds)
    if low > high:
        raise data.refuse("high", f"expected at least low ({low:g}), got {high:g}")
    return Interval(low, high, data.number("level", 0.5, 1.0))
