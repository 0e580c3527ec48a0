"""Test result files that lie: every value read is checked.

Anything else is one line and exit 2.

``hanoi compare`` is the regression gate, so a corrupt or hostile ``results.json``
must never make it pass (exit 0) nor crash it (a traceback); ``hanoi report``
reads the same way.  Each case is one valid file with one value replaced by
raw JSON text, compared in both directions against the valid file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.bench.results.resultset import MAX_BYTES, Fits, ResultSet, load
from hanoi_harness.errors import UsageError
from tests.helpers import assert_one_line_error, bench_set, run_cli

CaptureText = pytest.CaptureFixture[str]


def valid_set() -> ResultSet:
    """Return a quick result set of three algorithms over n = 6, 10, 14.

    Every optional record is present.
    """
    results = bench_set({"bitwise": 0.5, "tree_array": 1.2})
    results.durations_s = {"checking": 1.0, "timing": 2.0}
    return results


def data_of(results: ResultSet) -> dict[str, Any]:
    """Return the JSON data of *results*, as a bench writes it."""
    found: dict[str, Any] = json.loads(results.dumps())
    return found


def with_raw(data: dict[str, Any], path: tuple[Any, ...], raw: str) -> str:
    """Return the JSON text of *data*, the value at *path* replaced by *raw*.

    *path* is a list of keys and list indices; *raw* is text.
    """
    data = json.loads(json.dumps(data))
    where: Any = data
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw)


TEN_TIMES = "0.0015414476545784595"
"""Ten times the median of bitwise at n = 10 in the valid set."""

SHRINKING = "[300000000, 290000000, 300000000]"
"""Counts at n1, n2, n1 that give a negative figure per move: fewer instructions for more moves."""


MEDIAN = ("algorithms", "bitwise", "runs", 1, "timing", "median")
RUN = ("algorithms", "bitwise", "runs", 1)
TIMING = (*RUN, "timing")
COUNTS = ("algorithms", "bitwise", "instructions")
FLOOR = ("noise_floor", "difference")

CASES = {
    # The gate's own figure: NaN made every change nan and every row ok, exit 0.
    "median NaN": (MEDIAN, "NaN"),
    "median 0": (MEDIAN, "0"),
    "median negative": (MEDIAN, "-1e-6"),
    "median Infinity": (MEDIAN, "Infinity"),
    "median -Infinity": (MEDIAN, "-Infinity"),
    "median overflowing to infinity": (MEDIAN, "1e999"),
    "median a string": (MEDIAN, '"fast"'),
    "median a boolean": (MEDIAN, "true"),
    "median null": (MEDIAN, "null"),
    "median a list": (MEDIAN, "[1e-6]"),
    "median below a nanosecond": (MEDIAN, "1e-300"),
    "iqr negative": (("algorithms", "bitwise", "runs", 1, "timing", "iqr"), "-1"),
    "rounds 0": (("algorithms", "bitwise", "runs", 1, "timing", "rounds"), "0"),
    "rounds a float": (("algorithms", "bitwise", "runs", 1, "timing", "rounds"), "5.5"),
    "n negative": ((*RUN, "n"), "-3"),
    "n a float": ((*RUN, "n"), "10.0"),
    "n huge": ((*RUN, "n"), "100000"),
    "n of 5000 digits": ((*RUN, "n"), "9" * 5000),
    "tracemalloc peak negative": ((*RUN, "tracemalloc_peak_bytes"), "-5"),
    "rss peak NaN": ((*RUN, "rss"), '{"peak_mib": NaN, "baseline_mib": 1}'),
    "a run not an object": (RUN, "7"),
    "runs not a list": (("algorithms", "bitwise", "runs"), '{"n": 3}'),
    "algorithms a list": (("algorithms",), "[]"),
    "a name not an identifier": (("algorithms",), '{"two words": {}}'),
    "status unknown": (("algorithms", "bitwise", "status"), '"maybe"'),
    "fit class unknown": (
        ("algorithms", "bitwise", "fit"),
        '{"space": {"cls": "n^3", "slope": 1, "basis": "bytes per disk", "points": 3}}',
    ),
    "fit slope NaN": (
        ("algorithms", "bitwise", "fit"),
        '{"time": {"cls": "2^n", "slope": NaN, "basis": "log-log ns/move", "points": 3}}',
    ),
    "mode unknown": (("mode",), '"slow"'),
    "reference not a name": (("reference",), "3"),
    "schema true": (("schema",), "true"),
    "schema a float": (("schema",), "2.0"),
    "schema a string": (("schema",), '"2"'),
    "schema 99": (("schema",), "99"),
    "schema missing": (("schema",), "null"),
    "duration negative": (("durations_s", "timing"), "-2"),
    "duration a string": (("durations_s", "timing"), '"2 s"'),
    "environment cpu nested": (("environment", "cpu"), '{"model": "x"}'),
    "environment dirty a string": (("environment", "dirty"), '"yes"'),
    "environment cores 0": (("environment", "cores"), "0"),
    "environment load of four": (("environment", "load"), "[1, 2, 3, 4]"),
    "settings sizes with a string": (("settings", "sizes"), '[6, "ten"]'),
    "settings count sizes with a string": (("settings", "count_sizes"), '[10, "x"]'),
    "consumer unknown": (("consumer",), '"guessed"'),
    # What schema 3 added: the moves of a run, the statistics of a timing, the counts, the noise floor.
    "moves negative": ((*RUN, "moves"), "-1"),
    "moves missing": ((*RUN, "moves"), "null"),
    "moves a float": ((*RUN, "moves"), "1023.0"),
    "a kept round NaN": ((*TIMING, "samples"), "[1e-6, NaN]"),
    "a kept round of 0 s": ((*TIMING, "samples"), "[1e-6, 0]"),
    "more kept rounds than kept": ((*TIMING, "samples"), "[" + ", ".join(["1e-6"] * 33) + "]"),
    "interval ends reversed": ((*TIMING, "interval"), '{"low": 2e-6, "high": 1e-6, "level": 0.95}'),
    "interval level 2": ((*TIMING, "interval"), '{"low": 1e-6, "high": 2e-6, "level": 2}'),
    "a stability reason a number": ((*TIMING, "unstable"), "[3]"),
    "instructions of two counts": ((*COUNTS, "instructions"), "[1, 2]"),
    "instructions negative": ((*COUNTS, "instructions"), "[1, -2, 3]"),
    "instructions missing": ((*COUNTS, "instructions"), "null"),
    "allocator a string": ((*COUNTS, "allocator"), '"many"'),
    "counted sizes three": ((*COUNTS, "sizes"), "[10, 12, 14]"),
    "counted moves one": ((*COUNTS, "moves"), "[1023]"),
    "noise floor p-value over 1": ((*FLOOR, "p_value"), "1.5"),
    "noise floor verdict unknown": ((*FLOOR, "verdict"), '"faster maybe"'),
    "noise floor ratio 0": ((*FLOOR, "ratio"), "0"),
    "failure describe a number": (("algorithms", "bitwise", "failure"), '{"describe": 3}'),
    # Figures that contradict each other.  A negative figure per move passed as "improved" in NEW and
    # as a regression in OLD; a median outside its own rounds and interval as "+900.0% within noise".
    "counts giving a negative figure per move": ((*COUNTS, "instructions"), SHRINKING),
    "a figure per move its counts do not give": ((*COUNTS, "per_move"), "-2000.0"),
    "counted moves not increasing": ((*COUNTS, "moves"), "[16383, 1023]"),
    "counted moves equal": ((*COUNTS, "moves"), "[1023, 1023]"),
    "counted sizes decreasing": ((*COUNTS, "sizes"), "[14, 10]"),
    "allocators above the count": ((*COUNTS, "allocator"), "[400000000, 21536000, 20000000]"),
    "no counts and a blank reason": (COUNTS, '{"sizes": [10, 14], "unavailable": " "}'),
    "median outside its interval and rounds": (MEDIAN, "0.0015414476545784595"),
    "median below its interval": (MEDIAN, "0.000153"),
    "q3 below the median": ((*TIMING, "q3"), "0.000154"),
    "minimum above q1": ((*TIMING, "minimum"), "0.0001534"),
    "iqr not q3 - q1": ((*TIMING, "iqr"), "1e-3"),
    "mean below the minimum": ((*TIMING, "mean"), "1e-6"),
    "a kept round below the minimum": ((*TIMING, "samples"), "[0.0001, 0.000154]"),
    "ns per move its median does not give": ((*RUN, "ns_per_move"), "1.0"),
    "noise floor margin its interval does not give": (("noise_floor", "margin"), "0.5"),
    "deep nesting in a value": (("environment",), "[" * 100000 + "]" * 100000),
    "nesting past the bound": (("algorithms", "bitwise", "summary"), "[" * 40 + "]" * 40),
}


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good"
    path.mkdir()
    (path / "results.json").write_text(valid_set().dumps())
    return path


@pytest.mark.parametrize("case", CASES)
def test_the_gate_refuses_a_bad_value_in_one_line(
    case: str, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, raw = CASES[case]
    bad = tmp_path / "bad.json"
    bad.write_text(with_raw(data_of(valid_set()), path, raw))
    for argv in (["compare", str(good), str(bad)], ["compare", str(bad), str(good)], ["report", str(bad)]):
        code, _, err = run_cli(capsys, *argv)
        assert_one_line_error(code, err, str(bad))


def test_a_refusal_names_the_value(good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(with_raw(data_of(valid_set()), MEDIAN, "NaN"))
    code, _, err = run_cli(capsys, "compare", str(good), str(bad))
    assert_one_line_error(code, err, f"{bad}: not JSON: JSON is malformed: invalid character")
    bad.write_text(with_raw(data_of(valid_set()), MEDIAN, "-1"))
    code, _, err = run_cli(capsys, "compare", str(good), str(bad))
    assert_one_line_error(code, err, "algorithms.bitwise.runs[1].timing.median: Expected `float` >= 1e-09")
    bad.write_text(with_raw(data_of(valid_set()), ("schema",), "true"))
    code, _, err = run_cli(capsys, "compare", str(good), str(bad))
    assert_one_line_error(code, err, "not a results.json of schema 5 (found schema true)")
    bad.write_text(with_raw(data_of(valid_set()), (*RUN, "n"), "9" * 5000))
    code, _, err = run_cli(capsys, "compare", str(good), str(bad))
    assert_one_line_error(code, err, "algorithms.bitwise.runs[1].n: Integer value out of range")


@pytest.mark.parametrize(
    ("edits", "figure", "why"),
    [
        (
            [((*COUNTS, "instructions"), "[300000000, 290000000, 300000000]")],
            "instructions.per_move",
            "fewer than none",
        ),
        ([((*COUNTS, "per_move"), "-2000.0")], "instructions.per_move", "-2000 is not what its counts give (2000)"),
        ([(MEDIAN, TEN_TIMES)], "runs[1].timing.median", "lies outside its 95% interval"),
        ([(MEDIAN, TEN_TIMES), ((*TIMING, "interval"), "null")], "runs[1].timing.median", "outside the rounds it kept"),
    ],
)
def test_a_contradiction_names_the_figure(
    edits: list[tuple[tuple[Any, ...], str]], figure: str, why: str, good: Path, tmp_path: Path, capsys: CaptureText
) -> None:
    data = data_of(valid_set())
    for path, raw in edits:
        data = json.loads(with_raw(data, path, raw))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    for argv in (["compare", str(good), str(bad)], ["compare", str(bad), str(good)]):
        code, _, err = run_cli(capsys, *argv)
        assert_one_line_error(code, err, f"algorithms.bitwise.{figure}: ", why)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100000 + "]" * 100000,  # deeper than the parser's recursion
        "{not json",
        "",
        '{"schema": 2}',
        "[]",
        "null",
        "\ufeff{}",  # a byte-order mark is not JSON
    ],
)
def test_files_that_are_not_result_sets(
    text: str, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    code, _, err = run_cli(capsys, "compare", str(good), str(bad))
    assert_one_line_error(code, err, str(bad))


def test_bytes_that_are_not_text(good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, data in {"binary": bytes(range(256)), "utf16": valid_set().dumps().encode("utf-16")}.items():
        bad = tmp_path / name
        bad.write_bytes(data)
        code, _, err = run_cli(capsys, "compare", str(good), str(bad))
        assert_one_line_error(code, err, str(bad))


def test_files_that_never_end_are_refused_without_reading(good: Path, tmp_path: Path) -> None:
    """Files that never end are refused at once, without reading them.

    A named pipe nobody writes to, /dev/zero and a huge sparse file, in a fresh process.
    """
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_BYTES * 64)  # sparse: nothing on disk, but reading it would be a gigabyte
    for bad in (fifo, Path("/dev/zero"), huge):
        done = subprocess.run(
            [sys.executable, "-m", "hanoi_harness", "compare", str(good), str(bad)],
            capture_output=True,
            text=True,
            timeout=60,  # a reader that blocked on the pipe or read /dev/zero would never end
            cwd=tmp_path,
        )
        assert_one_line_error(done.returncode, done.stderr, str(bad))
    with pytest.raises(UsageError, match="not a regular file"):
        load(Path("/dev/zero"))
    with pytest.raises(UsageError, match=f"huge.json: more than the {MAX_BYTES} bytes"):
        load(huge)


@pytest.mark.parametrize("how", ["directory", "symlink to a directory"])
def test_a_results_json_that_is_a_directory_is_one_line(
    how: str, good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    if how == "directory":
        (bad / "results.json").mkdir()
    else:
        (tmp_path / "elsewhere").mkdir()
        (bad / "results.json").symlink_to(tmp_path / "elsewhere")
    for argv in (["compare", str(good), str(bad)], ["compare", str(bad), str(good)], ["report", str(bad)]):
        code, _, err = run_cli(capsys, *argv)
        assert_one_line_error(code, err, f"{bad / 'results.json'}: a directory, not a result file")
    code, _, err = run_cli(capsys, "report", str(good), "--out", str(bad))
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err


def test_extreme_but_valid_times_compare_without_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The smallest time against the largest still compares, without error.

    The bounds on times keep every ratio the gate takes finite.
    """
    files = {}
    for name, seconds in {"fastest": 1e-9, "slowest": 1e6}.items():
        data = data_of(valid_set())
        for run in data["algorithms"]["bitwise"]["runs"]:
            run["timing"].update(median=seconds, q1=seconds, q3=seconds, minimum=seconds, mean=seconds)
            run["timing"].update(interval={"low": seconds, "high": seconds, "level": 0.95})
            sign = 1 if seconds < 1 else -1  # the kept rounds within the bounds too
            run["timing"]["samples"] = samples = [seconds * (1 + sign * i / 1e6) for i in range(12)]
            run["timing"].update(iqr=0.0, minimum=min(samples))  # figures that agree with each other
            del run["ns_per_move"], run["moves_per_s"]  # kept for readers, who may do without
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "compare", str(files["fastest"]), str(files["slowest"]))
    assert code == 1 and err.strip() == "hanoi: regression: bitwise (time relative to recursive)"
    code, _, err = run_cli(capsys, "compare", str(files["slowest"]), str(files["fastest"]))
    assert code == 0 and "Traceback" not in err  # faster: a reference judged from two others cannot be called


def test_a_round_the_cpu_clock_did_not_see_reads_back(tmp_path: Path) -> None:
    """A bench may time a round of a tiny drain as 0 s of CPU time."""
    data = json.loads(valid_set().dumps())
    timing = data["algorithms"]["bitwise"]["runs"][0]["timing"]
    timing["samples"] = [0.0, *timing["samples"][1:]]
    timing.update(minimum=0.0)
    (tmp_path / "results.json").write_text(json.dumps(data))
    assert load(tmp_path).algorithms["bitwise"].runs[0].timing.minimum == 0.0  # type: ignore[union-attr]


def test_a_valid_file_loads_as_written(tmp_path: Path) -> None:
    original = valid_set()
    (tmp_path / "results.json").write_text(original.dumps())
    assert load(tmp_path) == original


def test_counts_at_every_size_and_their_fits_read_back_as_written(tmp_path: Path) -> None:
    from hanoi_harness.bench.counts.figures import InstructionCount
    from hanoi_harness.bench.results.fit import Fit, fit_counts

    results = valid_set()
    entry = results.algorithms["bitwise"]
    moves = (255, 1023, 4095, 16383)
    work = tuple(10**8 + 7 * i + 4000 * m for i, m in enumerate(moves))
    again = 10**8 + 28 + 4000 * 255
    entry.instructions = InstructionCount(
        sizes=(8, 10, 12, 14), span=(10, 14), moves=moves, instructions=(*work, again), allocator=(0,) * 5
    )
    entry.fit = Fits(fit_counts(entry.instructions), None, Fit("n 2^n", 0.6, "log-log ns/move", 3))
    assert entry.fit_time is not None and entry.fit_time.cls == "2^n"
    assert entry.instructions.per_move == 4000.0 and [s.per_move for s in entry.instructions.steps()] == [4000.0] * 3
    (tmp_path / "results.json").write_text(results.dumps())
    assert load(tmp_path) == results


def test_counts_at_sizes_out_of_order_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = data_of(valid_set())
    data["algorithms"]["bitwise"]["instructions"]["span"] = [14, 10]
    (tmp_path / "results.json").write_text(json.dumps(data))
    with pytest.raises(UsageError, match="span"):
        load(tmp_path)
