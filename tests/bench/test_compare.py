"""Test ``hanoi compare``, the regression gate, on result sets made here.

The tests say which figure fails it, which only reports, what another environment or a missing valgrind
does, and the exit status of each.

The sets come from :func:`tests.helpers.bench_set`: every figure present, rounds drawn with a fixed seed, so
each outcome is deterministic.  The gate's real counts (valgrind) are in test_counts.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.gate.compare import DEFAULT_THRESHOLD_PCT, compare
from hanoi_harness.bench.gate.times import paired
from hanoi_harness.bench.memory.measure import Rss
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run
from hanoi_harness.bench.timing.noise import NoiseFloor
from hanoi_harness.bench.timing.stats import Difference, Interval
from tests.helpers import assert_one_line_error, bench_set, counted, run_cli

BASE = {"flag_stack": 0.6, "level_formula": 0.5, "tree_array": 1.1}


def write(tmp_path: Path, name: str, results: ResultSet) -> str:
    path = tmp_path / name
    path.mkdir(parents=True)
    (path / "results.json").write_text(results.dumps())
    return str(path)


def gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: ResultSet, new: ResultSet, *options: str
) -> tuple[int, str, str]:
    """Run ``hanoi compare`` of *old* and *new*: its status, stdout and stderr.

    Both sets are written into *tmp_path*.
    """
    return run_cli(capsys, "compare", write(tmp_path, "old", old), write(tmp_path, "new", new), *options)


# --- the deterministic figures --------------------------------------------------------------------------------


def test_unchanged_code_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), bench_set(BASE, seed=1))
    assert code == 0, err
    assert "no regression beyond 1% (deterministic) or 50% (time)" in out
    assert "REGRESSION" not in out and err == ""


@pytest.mark.parametrize("name", ["recursive", "flag_stack", "tree_array"])
def test_three_percent_more_instructions_fail_naming_the_algorithm(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = bench_set(BASE)
    before = new.algorithms[name].instructions
    assert before is not None and before.per_move is not None
    new.algorithms[name].instructions = counted(name, before.per_move * 1.03)
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 1
    assert err.strip() == f"hanoi: regression: {name} (instructions per move)"
    row = next(line for line in out.splitlines() if line.startswith(name) and "REGRESSION" in line)
    assert "+3.00%" in row


def test_the_threshold_is_the_boundary() -> None:
    new = bench_set(BASE)
    new.algorithms["flag_stack"].instructions = counted("flag_stack", 2400 * 1.009)
    assert compare(bench_set(BASE), new).regressions == []
    assert compare(bench_set(BASE), new, threshold_pct=0.5).regressions == ["flag_stack (instructions per move)"]
    assert DEFAULT_THRESHOLD_PCT == 1.0


def test_a_grown_tracemalloc_peak_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = bench_set(BASE)
    runs = new.algorithms["level_formula"].runs
    runs[1] = replace(runs[1], tracemalloc_peak_bytes=2000)  # from 1510 at n = 10
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 1 and err.strip() == "hanoi: regression: level_formula (tracemalloc peak)"
    assert "+32.45%" in out and "n = 10" in out


def test_a_new_check_failure_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = bench_set(BASE)
    new.algorithms["flag_stack"] = AlgorithmResult(
        name="flag_stack",
        status="failed",
        failure={"n": 3, "describe": "illegal at step 5: move 1 0 1: peg 0 is empty"},
    )
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 1 and "flag_stack (the check)" in err
    assert "flag_stack: the check: REGRESSION (now fails it at n = 3: illegal at step 5: move 1 0 1: peg 0" in out


# --- what could not be compared -------------------------------------------------------------------------------


def without_valgrind(results: ResultSet) -> ResultSet:
    """Return *results* as a machine without valgrind writes them.

    Every count is unavailable, saying why.
    """
    why = "valgrind is not installed (on Debian or Ubuntu: apt-get install valgrind)"
    environment = replace(results.environment, valgrind="", valgrind_missing=why)
    for result in results.algorithms.values():
        result.instructions = InstructionCount(sizes=(10, 14), unavailable=why)
    return replace(results, environment=environment)


def test_without_valgrind_the_gate_fails_saying_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), without_valgrind(bench_set(BASE)))
    assert code == 3  # not comparable: neither a pass nor a regression
    assert "instructions: not compared: no valgrind in the new run" in out
    names = ", ".join(["recursive", *BASE])
    assert f"hanoi: not checked, the gate fails (--allow-incomplete to pass): instructions per move of {names} (" in err
    assert err.count("valgrind is not installed") == 1 and "regression" not in err  # said once for them all


def test_counts_of_a_run_that_says_it_had_no_valgrind_are_not_compared() -> None:
    new = bench_set(BASE)
    new.environment = replace(new.environment, valgrind="", valgrind_missing="valgrind is not installed")
    found = compare(bench_set(BASE), new)  # its counts present all the same: not trusted
    counts = [check for check in found.checks if check.metric == "instructions per move"]
    assert {(check.status, check.reason) for check in counts} == {("unavailable", "no valgrind in the new run")}


def test_allow_incomplete_passes_but_still_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), without_valgrind(bench_set(BASE)), "--allow-incomplete")
    assert code == 0 and "hanoi: not checked, allowed: " in err and "no regression" in out


def test_a_regression_is_still_one_when_counts_are_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = without_valgrind(bench_set(BASE))
    runs = new.algorithms["tree_array"].runs
    runs[2] = replace(runs[2], tracemalloc_peak_bytes=9999)
    code, _, err = gate(tmp_path, capsys, bench_set(BASE), new, "--allow-incomplete")
    assert code == 1 and "tree_array (tracemalloc peak)" in err


def test_another_python_build_skips_counts_peaks_and_times_and_fails_only_when_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = bench_set(BASE)
    new.environment = replace(new.environment, python_build="3.11.9 (main) [Clang 17]")
    for result in new.algorithms.values():  # grown, but another build: not a regression, not compared
        result.instructions = counted(result.name, 9999.0)
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 0 and "regression" not in err
    assert "instructions: not compared: the Python build differs (3.11.7 (main, May  9 2026" in out
    assert "tracemalloc: not compared" in out and "relative time: not compared" in out
    assert "skipped: environments differ: the Python build differs" in out
    names = ", ".join(["recursive", *BASE])
    assert err.startswith(f"hanoi: skipped, the environments differ, allowed: instructions per move of {names} (")
    assert "time relative to recursive of recursive (the Python build differs" in err
    assert err.count("the Python build differs") == 3  # one reason a metric, said once for all its algorithms
    code, _, err = gate(tmp_path / "strict", capsys, bench_set(BASE), new, "--strict-environment")
    assert code == 3 and "hanoi: skipped, the environments differ, the gate fails (--strict-environment)" in err


def ran_numpy(results: ResultSet, **loaded: bool) -> ResultSet:
    """Return *results* whose peak-RSS children said whether they loaded numpy.

    *ran_numpy* maps an algorithm's name to True or False.
    """
    for name, flag in loaded.items():
        runs = results.algorithms[name].runs
        runs[:] = [replace(run, rss=Rss(30.0, 29.0, flag)) for run in runs]
    return results


def test_another_numpy_still_compares_the_algorithms_that_never_load_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = {"recursive": False, "flag_stack": False, "level_formula": False, "tree_array": True}
    old = ran_numpy(bench_set(BASE), **plain)
    new = ran_numpy(bench_set(BASE, seed=1), **plain)
    new.environment = replace(new.environment, numpy="2.3.5")
    new.algorithms["flag_stack"].instructions = counted("flag_stack", 2400 * 1.03)
    new.algorithms["tree_array"].instructions = counted("tree_array", 9999.0)  # runs numpy: not compared
    code, out, err = gate(tmp_path, capsys, old, new)
    assert code == 1 and "hanoi: regression: flag_stack (instructions per move)" in err
    assert "instructions: compared but for the algorithms that run numpy: numpy differs (2.4.6, then 2.3.5)" in out
    skipped = err.splitlines()[-1]
    assert skipped.startswith("hanoi: skipped, the environments differ, allowed: instructions per move of tree_array (")
    assert "tracemalloc peak of tree_array (environments differ: numpy differs" in skipped
    assert "time relative to recursive of tree_array (environments differ: numpy differs" in skipped
    assert "flag_stack" not in skipped and "level_formula" not in skipped
    rows = {row.name: row for row in compare(old, new).times}
    assert rows["level_formula"].verdict == "within noise" and rows["tree_array"].skipped


def test_another_numpy_skips_what_is_not_known_to_avoid_it() -> None:
    old, new = bench_set(BASE), bench_set(BASE, seed=1)  # no peak-RSS child said: not known
    new.environment = replace(new.environment, numpy="2.3.5")
    found = compare(old, new)
    assert {check.status for check in found.checks} == {"skipped"} and found.regressions == []
    assert all(row.skipped for row in found.times[1:])
    assert compare(ran_numpy(old, recursive=False), ran_numpy(new, recursive=True)).times[1].skipped


# --- what the gate covers: every algorithm in NEW, or those named ---------------------------------------------


def test_a_baseline_that_lacks_an_algorithm_fails_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = bench_set({"flag_stack": 0.6}), bench_set({**BASE, "mine": 0.8}, seed=1)
    code, out, err = gate(tmp_path, capsys, old, new)
    assert code == 3
    assert err.splitlines()[0] == (
        f"hanoi: no baseline for level_formula, tree_array, mine in {tmp_path / 'old'}: make the baseline again with it"
    )
    rows = [line for line in out.splitlines() if line.startswith("mine ")]
    assert len(rows) == 3 and all(row.endswith("new: no baseline") for row in rows)  # counts, peak, time
    code, _, err = gate(tmp_path / "named", capsys, old, new, "mine")
    assert code == 3 and err.splitlines()[0].startswith("hanoi: no baseline for mine in ")


def test_named_algorithms_are_gated_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = bench_set(BASE), bench_set(BASE, seed=1)
    new.algorithms["tree_array"].instructions = counted("tree_array", 9999.0)  # not named: not gated
    code, out, err = gate(tmp_path, capsys, old, new, "flag_stack")
    assert code == 0, err
    assert "tree_array" not in out and "flag_stack" in out and "no regression beyond" in out
    code, _, err = gate(tmp_path / "absent", capsys, old, new, "flag_stack", "nowhere")
    assert code == 3 and f"hanoi: not measured in {tmp_path / 'absent' / 'new'}: nowhere" in err


def test_another_cpu_still_compares_counts_and_relative_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = bench_set(BASE, machine=2.0)
    new.environment = replace(new.environment, cpu="Other CPU")
    code, out, _ = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 0
    assert "time: not compared: the CPU differs (Test CPU, then Other CPU)" in out
    assert "instructions: compared (note: the CPU differs" in out


def test_counts_between_other_sizes_are_incomplete() -> None:
    new = bench_set(BASE)
    new.algorithms["flag_stack"].instructions = counted("flag_stack", 2400.0, sizes=(8, 12))
    found = compare(bench_set(BASE), new)
    assert [(c.name, c.reason) for c in found.incomplete] == [
        ("flag_stack", "counted between other sizes (10 and 14, then 8 and 12)")
    ]


def test_a_baseline_of_an_older_schema_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps(json.loads(bench_set(BASE).dumps()) | {"schema": 2}))
    code, _, err = run_cli(capsys, "compare", str(old), write(tmp_path, "new", bench_set(BASE)))
    assert_one_line_error(code, err, f"{old}: not a results.json of schema 5 (found schema 2)")


# --- times ------------------------------------------------------------------------------------------------------


def test_a_4x_slower_algorithm_is_a_time_regression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = bench_set({**BASE, "level_formula": 4 * BASE["level_formula"]}, seed=1)
    new.algorithms["level_formula"].instructions = counted("level_formula", 2000.0)  # the counts see nothing
    code, out, err = gate(tmp_path, capsys, bench_set(BASE), new)
    assert code == 1 and err.strip() == "hanoi: regression: level_formula (time relative to recursive)"
    row = next(line for line in out.splitlines() if line.startswith("level_formula") and "+300.9%" in line)
    assert "REGRESSION: slower: 4.009x (95% interval 3.984x to 4.037x, each n alike" in row  # the change's 4.009x


def test_every_n_weighs_the_same_whatever_its_rounds() -> None:
    """A change at the large n alone is diluted by the sizes, not outvoted by the small n's many rounds."""
    old, new = bench_set(BASE), bench_set(BASE, seed=1)
    slow = new.algorithms["tree_array"].runs[-1]  # n = 14: 30% slower there only
    assert slow.timing is not None
    timing = replace(
        slow.timing,
        median=slow.timing.median * 1.3,
        samples=tuple(t * 1.3 for t in slow.timing.samples),
        q1=slow.timing.q1 * 1.3,
        q3=slow.timing.q3 * 1.3,
        minimum=slow.timing.minimum * 1.3,
        mean=slow.timing.mean * 1.3,
        interval=None,
    )
    new.algorithms["tree_array"].runs[-1] = replace(slow, timing=timing)
    row = next(row for row in compare(old, new).times if row.name == "tree_array")
    assert row.change == pytest.approx(1.3 ** (1 / 3), rel=0.02)  # the geometric mean over n = 6, 10, 14
    assert row.difference is not None and row.difference.ratio == pytest.approx(row.change, rel=0.02)


def test_changes_that_scatter_alike_call_nothing() -> None:
    """Unchanged code, timed on two days: each relative time moved by up to 15%, none beyond the others."""
    factors = {f"a{i}": 1.0 for i in range(8)}
    old = bench_set(factors)
    moved = {name: 1.0 + 0.15 * ((i % 5) - 2) / 2 for i, name in enumerate(factors)}
    new = bench_set({name: moved[name] for name in factors}, seed=1)
    found = compare(old, new)
    assert {row.verdict for row in found.times[1:]} == {"within noise"}
    for row in found.times[1:]:  # the word agrees with the interval it prints
        assert row.status.startswith("within noise") and "each n alike; the noise is" in row.status


def test_a_smaller_slowdown_is_called_but_does_not_fail() -> None:
    new = bench_set({**BASE, "tree_array": 1.2 * BASE["tree_array"]}, seed=1)
    new.algorithms["tree_array"].instructions = counted("tree_array", 4400.0)
    found = compare(bench_set(BASE), new)
    row = next(row for row in found.times if row.name == "tree_array")
    assert row.verdict == "slower" and not row.regression and found.regressions == []
    assert compare(bench_set(BASE), new, time_threshold_pct=10).regressions == [
        "tree_array (time relative to recursive)"
    ]


def test_noise_is_within_noise() -> None:
    """Rounds within +-10% each, drawn afresh: no change is called.

    The medians move by a few percent.
    """
    found = compare(bench_set(BASE, spread=0.1), bench_set(BASE, spread=0.1, seed=3))
    assert {row.verdict for row in found.times if row.name != "recursive"} == {"within noise"}
    assert found.times[0].status.startswith("within noise (reference")


def test_the_noise_floor_widens_what_counts_as_noise() -> None:
    old = bench_set(BASE)
    new = bench_set({**BASE, "tree_array": 1.05 * BASE["tree_array"]}, seed=1)
    new.algorithms["tree_array"].instructions = counted("tree_array", 4400.0)

    def verdict() -> str:
        return next(row.verdict for row in compare(old, new).times if row.name == "tree_array")

    assert verdict() == "slower"  # both runs' floors are 1%: a 5% change stands out
    new.noise_floor = NoiseFloor("recursive n=14", Difference("within noise", 1.0, Interval(0.9, 1.1), 0.5))
    assert verdict() == "within noise"  # the new run's machine was 10% noisy
    assert compare(old, new).noise == pytest.approx((0.01, 0.1))


def test_a_slower_machine_is_not_a_regression() -> None:
    found = compare(bench_set(BASE), bench_set(BASE, machine=3.0, seed=1))
    assert found.regressions == [] and {row.verdict for row in found.times[1:]} == {"within noise"}


def test_a_slower_reference_is_a_regression_of_the_reference() -> None:
    faster_others = {name: factor / 4 for name, factor in BASE.items()}  # the others now look 4 times faster
    new = bench_set(faster_others, seed=1)
    for name, factor in BASE.items():
        new.algorithms[name].instructions = counted(name, 4000 * factor)
    found = compare(bench_set(BASE), new)
    assert found.regressions == ["recursive (time relative to recursive)"]
    assert found.times[0].status.startswith("REGRESSION: slower: 3 of 3 others were called faster")


def test_a_faster_reference_is_called_from_the_others_being_slower() -> None:
    slower_others = {name: factor * 4 for name, factor in BASE.items()}
    new = bench_set(slower_others, seed=1)
    for name, factor in BASE.items():
        new.algorithms[name].instructions = counted(name, 4000 * factor)
    found = compare(bench_set(BASE), new)
    assert found.times[0].status == "faster: 3 of 3 others were called slower (reference, from the others' median)"
    assert found.times[0].change == pytest.approx(0.25, rel=0.05) and not found.times[0].regression


def test_times_without_rounds_or_sizes_in_common_are_shown_but_not_tested() -> None:
    old, new = bench_set(BASE), bench_set(BASE, seed=1)
    for result in old.algorithms.values():
        result.runs[:] = [replace(run, timing=replace(run.timing, samples=())) for run in result.runs if run.timing]
    row = {row.name: row for row in compare(old, new).times}["flag_stack"]
    assert row.status == "not tested: a set kept no rounds" and row.change == pytest.approx(1.0, abs=0.05)
    assert row.difference is None and not row.regression
    moved = bench_set(BASE, seed=1, ns=(7, 11))
    moved.algorithms["recursive"] = bench_set(BASE, seed=1).algorithms["recursive"]
    row = {row.name: row for row in compare(bench_set(BASE), moved).times}["flag_stack"]
    assert row.status == "no size timed in both"


def test_an_algorithm_that_became_a_command_is_not_compared_on_time() -> None:
    old, new = bench_set(BASE), bench_set(BASE, seed=1)
    new.algorithms["flag_stack"] = replace(new.algorithms["flag_stack"], command="./flag_stack {n}")
    row = {row.name: row for row in compare(old, new).times}["flag_stack"]
    assert row.status == "an algorithm in one set, a command in the other: not compared"


def test_only_sizes_both_sets_timed_are_compared() -> None:
    old = bench_set(BASE, ns=(6, 10))
    new = bench_set({**BASE, "newcomer": 9.0}, ns=(10, 14))
    rows = {row.name: row for row in compare(old, new).times}
    assert rows["flag_stack"].ns == (10,) and rows["flag_stack"].verdict == "within noise"
    assert rows["newcomer"].status == "new: no baseline" and not rows["newcomer"].regression


def test_a_run_is_paired_with_the_reference_s_run_of_the_closest_work() -> None:
    reference = {6: Run(6), 10: Run(10), 14: Run(14)}
    assert paired(Run(8, moves=6560), reference) == 14  # a linear run of 8 disks: 6560 moves
    assert paired(Run(6, moves=728), reference) == 10
    assert paired(Run(3, moves=26), reference) == 6
    assert paired(Run(3, moves=7), {}) is None and paired(Run(0, moves=0), reference) is None  # nothing to pair


def test_commands_are_compared_on_time_only_and_not_in_the_reference_estimate() -> None:
    old, new = bench_set(BASE), bench_set({**BASE, "mine": 2.0}, seed=1)
    new.algorithms["mine"] = replace(new.algorithms["mine"], command="./a {n}", instructions=None)
    old.algorithms["mine"] = AlgorithmResult(
        name="mine", command="./a {n}", runs=bench_set({"mine": 1.0}).algorithms["mine"].runs
    )
    found = compare(old, new)
    rows = {row.name: row for row in found.times}
    assert rows["mine"].status.startswith("REGRESSION: slower") and rows["mine"].status.endswith("(command)")
    assert rows["recursive"].change == pytest.approx(1.0, abs=0.02)  # the three algorithms alone
    assert "mine" not in {check.name for check in found.checks}  # no counts, no peaks for a command
    new.algorithms["mine"].command = "./b {n}"
    assert {row.name: row for row in compare(old, new).times}["mine"].status == "command changed: not compared"


# --- bad input: exit status 2 -----------------------------------------------------------------------------------


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "missing"), str(tmp_path / "junk.json"))
    assert_one_line_error(code, err, "no results at")
    code, _, err = run_cli(capsys, "compare", "a", "b", "--threshold", "-5")
    assert_one_line_error(code, err, "expected a positive percentage")
    code, _, err = run_cli(capsys, "compare", "a", "b", "--time-threshold", "x")
    assert_one_line_error(code, err, "expected a percentage")


def test_nothing_in_common_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = ResultSet("quick", "recursive")
    code, _, err = gate(tmp_path, capsys, empty, empty)
    assert_one_line_error(code, err, "nothing to compare")


# --- the verdict as data --------------------------------------------------------------------------------------


def test_json_junit_and_markdown_say_what_the_exit_status_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junitparser = pytest.importorskip("junitparser")  # a test dependency: present wherever make test runs
    new = bench_set(BASE, seed=1)
    new.algorithms["flag_stack"].instructions = counted("flag_stack", 2400 * 1.011)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    junit = tmp_path / "junit.xml"
    code, out, _ = gate(
        tmp_path, capsys, bench_set(BASE), new, "--json", "--junit", str(junit), "--markdown", str(summary)
    )
    document = json.loads(out)
    assert code == 1 == document["exit_status"] and document["status"] == "regressed"
    assert document["regressions"] == ["flag_stack (instructions per move)"]
    entry = next(
        e for e in document["comparisons"] if e["name"] == "flag_stack" and e["metric"] == "instructions per move"
    )
    assert entry["status"] == "REGRESSION" and entry["threshold_pct"] == 1.0
    assert entry["new"] == pytest.approx(2400 * 1.011) and entry["change"] == pytest.approx(0.011)
    metrics = {(e["name"], e["metric"]) for e in document["comparisons"]}
    assert ("tree_array", "tracemalloc peak") in metrics and ("tree_array", "time relative to recursive") in metrics
    suite = junitparser.JUnitXml.fromfile(str(junit))
    cases = {(case.classname, case.name): case for suites in suite for case in suites}
    assert set(cases) == metrics
    failed = [key for key, case in cases.items() if not case.is_passed and not case.is_skipped]
    assert failed == [("flag_stack", "instructions per move")]
    text = summary.read_text()
    assert text.startswith("earlier step\n### hanoi compare: regressed (exit 1)")  # appended, as GitHub wants
    assert "| flag_stack | instructions per move | 2,400 | 2,426 | +1.10% | REGRESSION |" in text


def test_json_of_a_pass_and_of_what_could_not_be_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = gate(tmp_path, capsys, bench_set(BASE), bench_set(BASE, seed=1), "--json")
    assert code == 0 and json.loads(out)["status"] == "pass"
    code, out, _ = gate(tmp_path / "b", capsys, bench_set(BASE), without_valgrind(bench_set(BASE)), "--json")
    document = json.loads(out)
    assert code == 3 == document["exit_status"] and document["status"] == "not comparable"
    names = ", ".join(["recursive", *BASE])
    assert document["not_compared"] == [
        f"instructions per move of {names} (new: valgrind is not installed "
        "(on Debian or Ubuntu: apt-get install valgrind))"
    ]


def test_foreign_strings_print_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = bench_set(BASE), bench_set(BASE, seed=1)
    new.environment = replace(new.environment, numpy="2.4.6\u200b", cpu="Xeon\nno regression: hanoi all good\x1b[2J")
    code, out, err = gate(tmp_path, capsys, old, new, "--allow-incomplete")
    assert code == 0
    lines = (out + err).splitlines()
    assert not any(line.startswith("no regression: hanoi all good") for line in lines)
    assert "\x1b" not in out + err and "\\x1b[2J" in out
    assert "2.4.6\\u200b" in out  # a difference that does not show is shown


def test_a_row_judged_again_keeps_its_command_mark_and_an_untested_row_stays() -> None:
    from hanoi_harness.bench.gate.compare import _rejudged
    from hanoi_harness.bench.gate.times import TimeRow

    tested = Difference("slower", 1.2, Interval(1.15, 1.25), 0.001)
    command = TimeRow("c", (10,), 1.0, 1.2, 1.2, "slower: ... (command)", difference=tested)
    again = _rejudged(command, 0.3, 50.0)
    assert again.verdict == "within noise" and again.status.endswith("the noise is ±30%) (command)")
    untested = TimeRow("u", (), None, None, None, "new: no baseline")
    assert _rejudged(untested, 0.3, 50.0) is untested
