"""Readers of the records inside ``results.json`` other than runs and timings, each value checked.

:class:`hanoi_harness.bench.results.resultset.ResultSet` reads a file through these:
fits, settings, the C reference, instruction counts, the noise floor, and the
``machine`` and ``commit`` records of files of schema 1 or 2.  Each takes a
:class:`~hanoi_harness.bench.results.validate.Fields` (or None for an absent record)
and refuses, in one line naming the value, anything the schema does not allow.
"""

from __future__ import annotations

from typing import Any

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.plan import MAX_N
from hanoi_harness.bench.results.fit import Fit
from hanoi_harness.bench.results.validate import Fields
from hanoi_harness.bench.timing.figures import SECONDS
from hanoi_harness.bench.timing.noise import NoiseFloor
from hanoi_harness.bench.timing.stats import VERDICTS, Difference, Interval

FIT_CLASSES = ("1", "n", "2^n", "n 2^n")
FIT_BASES = ("log-log ns/move", "log2 bytes vs n", "bytes per disk")

COUNT = (0, 2**63)
"""An instruction count of one process: a machine executing 10^9 a second for 292 years stays below 2^63."""

MOVES = (0, 2**63)
"""Moves of one run: a result file reads what a 64-bit counter holds."""


def fit(data: Fields | None) -> Fit | None:
    """Return the fit in *data* (None for none): a known class and basis, a finite slope."""
    if data is None:
        return None
    return Fit(
        data.choice("cls", FIT_CLASSES),
        data.number("slope", -1e15, 1e15),
        data.choice("basis", FIT_BASES),
        data.integer("points", 0, MAX_N + 1),
    )


def commit(data: Fields | None) -> dict[str, Any]:
    """Return the ``commit`` record of a file of schema 1 or 2: the version and the commit id (either may be absent)."""
    if data is None:
        return {}
    found: dict[str, Any] = {key: data.optional_text(key) for key in ("version", "id", "branch") if key in data.data}
    if "dirty" in data.data:
        found["dirty"] = data.flag("dirty")
    return found


SETTINGS_NUMBERS = ("drain_budget_s", "check_budget_s", "max_time_s", "memory_budget_s", "check_timeout_s")
SETTINGS_COUNTS = {"n_cap": MAX_N, "min_rounds": 10**9, "rss_stride": MAX_N, "check_memory_mb": 2**40}


def settings(data: Fields | None) -> dict[str, Any]:
    """Return the settings a report shows from *data*, each checked; keys it does not know are left out."""
    if data is None:
        return {}
    found: dict[str, Any] = {}
    if data.has("mode"):
        found["mode"] = data.choice("mode", ("full", "quick"))
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


C_SECONDS = ("c_fwrite_per_move", "c_gathered_writes", "python_blocks")
C_RATIOS = ("speedup_vs_fwrite_per_move", "speedup_vs_gathered_writes")


def c_reference(data: Fields | None) -> dict[str, Any] | None:
    """Return the C reference's figures in *data* (None for none): the reason it was skipped, or every figure."""
    if data is None:
        return None
    found: dict[str, Any] = {"n": data.integer("n", 0, 63), "moves": data.integer("moves", 0, 2**64)}
    found["bytes"] = data.integer("bytes", 0, 3 * 2**64)
    if data.has("repeat"):
        found["repeat"] = data.integer("repeat", 1, 10**6)
    if data.has("skipped"):
        return {**found, "skipped": data.text("skipped")}
    found.update(compiler=data.text("compiler", ""), identical=data.flag("identical"))
    found.update({key: data.number(key, *SECONDS) for key in C_SECONDS})
    found.update({key: data.number(key, 1e-9, 1e9) for key in C_RATIOS})
    return found


def instructions(name: str, data: Fields | None) -> InstructionCount | None:
    """Return algorithm *name*'s instruction counts in *data* (None for none), or why it has none.

    The figures per move in the file are for its readers: they are computed
    again from the counts, so a file cannot state a figure its counts do not give.
    """
    if data is None:
        return None
    sizes = data.integers("sizes", 0, MAX_N) or []
    if len(sizes) not in (0, 2):
        raise data.refuse("sizes", f"expected two sizes (or none), got {len(sizes)}")
    unavailable = data.text("unavailable", "")
    if unavailable:
        return InstructionCount(name, tuple(sizes), unavailable=unavailable)
    moves = _integers(data, "moves", 2, MOVES)
    return InstructionCount(
        name,
        tuple(sizes),
        (moves[0], moves[1]),
        _triple(data, "instructions"),
        _triple(data, "allocator"),
    )


def _integers(data: Fields, key: str, count: int, bounds: tuple[int, int]) -> list[int]:
    """Return exactly *count* integers within *bounds* at *key*."""
    found = data.integers(key, *bounds)
    if found is None or len(found) != count:
        raise data.refuse(key, f"expected {count} integers, got {'none' if found is None else len(found)}")
    return found


def _triple(data: Fields, key: str) -> tuple[int, int, int]:
    """Return the three counts at *key* (at n1, n2 and n1 again)."""
    first, second, again = _integers(data, key, 3, COUNT)
    return first, second, again


def noise_floor(data: Fields | None) -> NoiseFloor | None:
    """Return the noise floor in *data* (None for none): a case, and its difference from itself."""
    if data is None:
        return None
    return NoiseFloor(data.text("case"), difference(data.fields("difference")))


def difference(data: Fields) -> Difference:
    """Return the difference of two sets of rounds in *data*: a known verdict, the ratio, its interval, a p-value."""
    interval = data.optional_fields("interval")
    said = data.choice("verdict", VERDICTS)
    return Difference(
        verdict=next(verdict for verdict in VERDICTS if verdict == said),
        ratio=data.number("ratio", 1e-9, 1e9),
        interval=_interval(interval) if interval else None,
        p_value=data.number("p_value", 0.0, 1.0),
    )


def _interval(data: Fields) -> Interval:
    """Return a ratio's interval in *data*: two ends in order, at a level between 0 and 1."""
    low, high = data.number("low", 1e-9, 1e9), data.number("high", 1e-9, 1e9)
    if low > high:
        raise data.refuse("high", f"expected at least low ({low:g}), got {high:g}")
    return Interval(low, high, data.number("level", 0.5, 1.0))
