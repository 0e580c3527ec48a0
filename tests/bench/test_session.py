"""Test the bench code: growth fits, results schema, ``hanoi bench``.

``hanoi bench`` is run end to end on a few tiny sizes.  The gate (``hanoi compare``) is in
test_compare.py, result files that lie in test_files.py, the output directory's safety in test_outdir.py.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path

import msgspec
import psutil
import pytest

from hanoi_harness.bench import run as _run
from hanoi_harness.bench import session, shell
from hanoi_harness.bench.memory.measure import Rss, rss_peak, tracemalloc_peak
from hanoi_harness.bench.plan import FULL, QUICK
from hanoi_harness.bench.report.render import all_tables
from hanoi_harness.bench.report.view import text, view
from hanoi_harness.bench.results import fit as _fit
from hanoi_harness.bench.results import resultset
from hanoi_harness.bench.results.fit import fit_space, fit_wall
from hanoi_harness.bench.results.resultset import AlgorithmResult, Run, load
from hanoi_harness.bench.run import run
from hanoi_harness.bench.shell import Command, check_commands
from hanoi_harness.cli.main import main
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import build_registry
from tests.helpers import REGISTRY, at_scale, bench_set, printer_command, run_cli, timed


def status(argv: list[str]) -> int:
    """Return the exit status of ``hanoi ARGV``, argparse's errors included.

    argparse's errors are a SystemExit.
    """
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


# --- the fit classifier ---------------------------------------------------------------------------------------


def noisy(values: list[float], spread: float, seed: int) -> list[float]:
    """Scale each value by a factor within 1 +- spread, reproducibly.

    That is the noise of a shared machine.
    """
    rng = random.Random(seed)
    return [v * (1 + rng.uniform(-spread, spread)) for v in values]


NS = list(range(4, 21))


@pytest.mark.parametrize("seed", range(5))
def test_wall_fit_tells_constant_from_linear_cost_per_move(seed: int) -> None:
    flat = noisy([180e-9 * (2**n - 1) for n in NS], 0.10, seed)
    linear = noisy([(50 + 20 * n) * 1e-9 * (2**n - 1) for n in NS], 0.10, seed)
    assert fit_wall(NS, flat).cls == "2^n"  # type: ignore[union-attr]
    assert fit_wall(NS, linear).cls == "n 2^n"  # type: ignore[union-attr]


def test_wall_fit_ignores_the_start_up_cost_of_small_n() -> None:
    # 3 microseconds to start a generator: 1000 times a move at n = 2, nothing at n = 20.
    seconds = [3e-6 + 150e-9 * (2**n - 1) for n in NS]
    fit = fit_wall(NS, seconds)
    assert fit is not None and fit.cls == "2^n" and abs(fit.slope) < 0.1 and fit.points == 13


@pytest.mark.parametrize("seed", range(5))
def test_space_fit_classes(seed: int) -> None:
    assert fit_space(NS, noisy([900 + 36 * 2**n for n in NS], 0.05, seed)).cls == "2^n"  # type: ignore[union-attr]
    assert fit_space(NS, noisy([1500 + 250 * n for n in NS], 0.05, seed)).cls == "n"  # type: ignore[union-attr]
    # tracemalloc peaks repeat exactly; a flat footprint moves by a few bytes at most (integers growing).
    assert fit_space(NS, noisy([3224.0] * len(NS), 0.01, seed)).cls == "1"  # type: ignore[union-attr]


def test_one_wild_peak_does_not_flip_a_space_class() -> None:
    ns = list(range(10, 19))
    growing = [1500 + 250 * n for n in ns]
    flat = [3224.0] * len(ns)
    for index in range(len(ns)):
        wild = [value * (0.2 if i == index else 1) for i, value in enumerate(growing)]
        high = [value * (5 if i == index else 1) for i, value in enumerate(flat)]
        assert fit_space(ns, wild).cls == "n", index  # type: ignore[union-attr]
        assert fit_space(ns, high).cls == "1", index  # type: ignore[union-attr]


def test_fits_need_three_sizes() -> None:
    assert fit_wall([8, 9], [1.0, 2.0]) is None
    assert fit_wall([2, 3, 4, 5], [1.0, 2.0, 4.0, 8.0]) is None  # all below the smallest n a time fit uses
    assert fit_space([3, 4], [10.0, 20.0]) is None


@at_scale
def test_fits_on_measured_peaks_match_the_ports() -> None:
    """tracemalloc is deterministic, so the ports' classes can be asserted."""
    ns = list(range(10, 18))  # lists grow in steps (over-allocation), every n as a bench measures
    names = ("tree_array", "flag_stack", "parity_positions", "clockwise_sentinel", "level_formula", "bitwise")
    classes = {}
    for name in names:
        algorithm = REGISTRY.get(name)
        classes[name] = fit_space(ns, [float(tracemalloc_peak(algorithm, n)) for n in ns]).cls  # type: ignore[union-attr]
    # parity_positions and clockwise_sentinel grow by one or two pointers a disk over a 1.4 KB frame.
    assert classes == {name: REGISTRY.get(name).space for name in names}
    assert set(classes.values()) == {"2^n", "n", "1"}


# --- the results file and directory ---------------------------------------------------------------------------


BASE = {"flag_stack": 0.6, "level_formula": 0.5, "tree_array": 1.1}


def test_schema_round_trip(tmp_path: Path) -> None:
    original = bench_set(BASE)
    runs = original.algorithms["tree_array"].runs
    runs[0] = msgspec.structs.replace(runs[0], tracemalloc_peak_bytes=6_200, rss=Rss(26.9, 25.7), check_s=0.01)
    runs[1] = msgspec.structs.replace(runs[1], rss=Rss(27.0, 25.7, numpy=False))
    original.algorithms["tree_array"].fit.space = _fit.Fit("2^n", 0.94, "log2 bytes vs n", 3)
    runs = original.algorithms["level_formula"].runs
    runs[1] = msgspec.structs.replace(runs[1], rss_error="no result within 30 s")
    path = tmp_path / "results.json"
    path.write_text(original.dumps())
    loaded = load(tmp_path)
    assert loaded == original and loaded.dumps() == original.dumps()
    assert [run.rss and run.rss.numpy for run in loaded.algorithms["tree_array"].runs] == [None, False, None]
    assert json.loads(path.read_text())["schema"] == resultset.SCHEMA
    assert path.read_text().splitlines()[0].startswith('{"generated_by": "Generated by')


def test_another_schema_is_refused(tmp_path: Path) -> None:
    data = json.loads(bench_set(BASE).dumps())
    for schema in (3, 99):
        (tmp_path / "results.json").write_text(json.dumps(data | {"schema": schema}))
        with pytest.raises(UsageError, match=rf"not a results.json of schema 5 \(found schema {schema}\)$"):
            load(tmp_path)


# --- measuring ------------------------------------------------------------------------------------------------


def test_rss_of_a_fresh_child_and_whether_it_loaded_numpy() -> None:
    found = rss_peak("tree_array", 12, [], 60)
    assert isinstance(found, Rss) and found.peak_mib > 0 and found.baseline_mib > 0 and found.numpy is False
    chunked = rss_peak("blocks", 12, [], 60)  # its chunks are numpy arrays
    assert isinstance(chunked, Rss) and chunked.numpy is True
    failed = rss_peak("no_such_algorithm", 3, [], 60)
    assert isinstance(failed, str) and failed.startswith("unknown algorithm 'no_such_algorithm'")


PLUGINS = '''
def variant(n, a=0, b=1, c=2):
    """The recursion, written again."""
    if n:
        yield from variant(n - 1, a, c, b)
        yield (n, a, c)
        yield from variant(n - 1, b, a, c)

def wrong(n):
    """Moves the largest disk first."""
    yield (n, 0, 2)
'''


NO_VALGRIND = "valgrind is left out of this test (its counts are test_counts.py's)"


@pytest.fixture
def no_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make runs in this test count no instructions.

    Valgrind is slow to start an interpreter, and the counts are tested on their own.  Every count is then
    unavailable with :data:`NO_VALGRIND` as its reason.
    """
    monkeypatch.setattr(_run, "find_valgrind", lambda: NO_VALGRIND)


def test_bench_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], no_valgrind: None
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.py").write_text(PLUGINS)
    out = tmp_path / "out"
    args = ["bench", "--quick", "--sizes", "3,4,5", "--out", str(out), "--plugin", "mine.py:variant"]
    assert main([*args, "--plugin", "mine.py:wrong"]) == 1  # a failed check is exit 1, as in 'hanoi verify'
    results = load(out)
    assert list(results.algorithms) == ["recursive", "variant", "wrong"]
    wrong = results.algorithms["wrong"]
    assert wrong.status == "failed" and wrong.runs == [] and "illegal" in (wrong.failure or {})["describe"]
    for name in ("recursive", "variant"):
        result = results.algorithms[name]
        runs = result.runs
        assert [(r.n, r.moves) for r in runs] == [(3, 7), (4, 15), (5, 31)]
        assert all(r.timing and r.timing.rounds >= 9 and r.tracemalloc_peak_bytes for r in runs)
        assert all(r.timing and r.timing.interval and len(r.timing.samples) >= 9 for r in runs)
        assert runs[-1].rss is not None and runs[0].rss is None  # peak RSS at the largest quick n only
        assert result.instructions is not None and result.instructions.unavailable == NO_VALGRIND
    assert wrong.instructions is None  # not measured at all
    assert results.noise_floor is not None and results.noise_floor.case == "recursive n=5"
    assert results.consumer == "digest" and results.environment.python_build and results.environment.numpy
    names = ["README.md", "tables.md", "summary.csv", "instructions.csv", "time.csv", "moves.csv", "memory.csv"]
    for name in [*names, "pytest-benchmark.json"]:
        assert "Generated by 'hanoi bench'" in (out / name).read_text().splitlines()[0]
    marker = json.loads((out / ".hanoi-bench.json").read_text())
    assert sorted(marker["files"]) == sorted(p.name for p in out.iterdir() if p.name != ".hanoi-bench.json")
    for name in ("ns_per_move_classic.png", "memory_classic.png", "instructions.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    assert "[index.html](index.html)" in (out / "README.md").read_text()
    page = (out / "index.html").read_text()
    assert 'data-algorithm="variant"' in page and "FAILED: illegal at step 1" in page
    readme = (out / "README.md").read_text()
    assert not re.search("MISMATCH (time|space)", page + readme)  # three tiny sizes fit no class
    readme = (out / "README.md").read_text()
    assert "| variant" in readme and "FAILED: illegal at step 1" in readme
    assert f"Unavailable where a count could not be had: {NO_VALGRIND}" in readme  # never a silent gap
    assert f"unavailable: {NO_VALGRIND}" in (out / "tables.md").read_text()
    assert "## The noise floor" in readme and "recursive n=5 timed against itself" in readme
    said = capsys.readouterr().err.splitlines()[-1]  # the n, the step and the reason of the failed check
    assert said == (
        "hanoi: wrong failed the check at n = 3: illegal at step 1: move 3 0 2: disk 3 is not on top of peg 0 "
        "(its top is 1) (tops 1, -, -)"
    )
    assert "quick/" not in {p.name for p in out.iterdir()} and "no `quick/` baseline" in readme

    # The same run again compares clean against itself, once told that its counts are missing; a named subset
    # measures the reference too.
    assert main(["compare", str(out), str(out / "results.json")]) == 3
    assert "the gate fails (--allow-incomplete to pass)" in capsys.readouterr().err
    assert main(["compare", str(out), str(out / "results.json"), "--allow-incomplete"]) == 0
    assert main(["bench", "--quick", "--sizes", "4", "--out", str(out), "variant", "--plugin", "mine.py:variant"]) == 0
    assert list(load(out).algorithms) == ["recursive", "variant"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.py", "out"]  # no lock, staging or old set left


def test_bench_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["bench", "--quick", "--out", str(tmp_path)]) == 2
    assert main(["bench", "no_such_algorithm", "--out", str(tmp_path / "x")]) == 2
    assert status(["bench", "--sizes", "3,x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("hanoi") for line in err)


def test_full_walk_stops_at_the_cap_and_fits(no_valgrind: None) -> None:
    """A full run's walk stops at the cap and fits: every phase, and the fits.

    The cap is lowered so that it is quick.
    """
    # Budgets out of reach, so the walk ends at the cap whatever the machine's speed.
    settings = replace(
        FULL, n_cap=10, drain_budget_s=1e9, check_budget_s=1e9, max_time_s=0.01, memory_budget_s=1e9, rss_stride=4
    )
    algorithms = [REGISTRY.get("recursive"), REGISTRY.get("tree_array"), REGISTRY.get("linear")]
    results, report = run(algorithms, [], settings)
    tree = results.algorithms["tree_array"]
    assert [r.n for r in tree.runs] == list(range(1, 11)) and tree.stopped == "the cap: n <= 10"
    assert tree.fit_space is not None and tree.fit_space.cls == "2^n"
    assert [r.n for r in tree.runs if r.rss] == [2, 6, 10]
    assert tree.fit_time is None and tree.fit_wall is not None  # no counts here: no time class, an observation
    # One run of 1023 moves or more (n = 10) cannot tell a pointer a disk from small ints running out: no class.
    assert results.algorithms["recursive"].fit_space is None
    # The linear puzzle walks the same work: its most disks within 2^m - 1 moves, for m = 1..10.
    linear = results.algorithms["linear"]
    assert [(r.n, r.moves) for r in linear.runs] == [(1, 2), (2, 8), (3, 26), (4, 80), (5, 242), (6, 728)]
    assert linear.stopped == "the cap: n <= 6, the most disks within the classic puzzle's 2^10 - 1 moves"
    assert linear.puzzle == "3 pegs, linear: 0-1-2" and not linear.classic
    assert len(report["benchmarks"]) == 26 * FULL.passes  # each case once a pass


# --- external programs (--command) -------------------------------------------------------------------------


@pytest.fixture
def printer(tmp_path: Path) -> str:
    return printer_command(tmp_path) + " {n}"


def test_the_walk_drops_an_algorithm_at_its_first_failure_and_says_why_one_never_walked(tmp_path: Path) -> None:
    from hanoi_harness.bench.check import check_walk

    (tmp_path / "walkers.py").write_text(
        "def go(k, a, b, c):\n"
        "    if k:\n"
        "        yield from go(k - 1, a, c, b)\n        yield (k, a, c)\n        yield from go(k - 1, b, a, c)\n"
        "\n\ndef wrong_at_3(n):\n    yield from go(n, 0, 1, 2) if n < 3 else [(2, 0, 2)]\n"
    )
    spec = f"{tmp_path / 'walkers.py'}:wrong_at_3"
    wrong = build_registry([spec], entry_points=False).get("wrong_at_3")
    only_n0 = Algorithm(name="only_n0", solve=lambda n: iter(()), summary="", max_n=0)
    settings = replace(FULL, n_cap=4, drain_budget_s=1e9, check_budget_s=1e9)
    found = check_walk([wrong, only_n0, REGISTRY.get("recursive")], [spec], settings, lambda name, n: 1e-6)
    assert found["wrong_at_3"].stopped == (
        "failed the check at n = 3: illegal at step 1: move 2 0 2: disk 2 is not on top of peg 0 (its top is 1) "
        "(tops 1, -, -)"
    )
    assert found["wrong_at_3"].ns == []
    assert found["wrong_at_3"].failure is not None and found["wrong_at_3"].failure.status == "illegal"
    assert found["only_n0"].stopped == "no n in 0 <= n <= 0 within the cap n <= 4" and found["only_n0"].ns == []
    assert found["recursive"].ns == [1, 2, 3, 4] and found["recursive"].stopped == "the cap: n <= 4"


def test_commands_stand_in_the_tables(
    tmp_path: Path, printer: str, capsys: pytest.CaptureFixture[str], no_valgrind: None
) -> None:
    out = tmp_path / "out"
    args = ["bench", "--quick", "--sizes", "2,4,6", "--out", str(out), "recursive"]
    dies = ["--command", "dies=exit 3"]
    assert main([*args, "--command", f"mine={printer}", "--command", f"broken={printer} wrong", *dies]) == 1
    results = load(out)
    assert list(results.algorithms) == ["recursive", "mine", "broken", "dies"]
    mine, broken = results.algorithms["mine"], results.algorithms["broken"]
    assert mine.external and mine.command == printer and mine.origin == "--command" and mine.status == "ok"
    assert [r.n for r in mine.runs] == [2, 4, 6] and not results.algorithms["recursive"].external
    for run_ in mine.runs:
        assert run_.timing is not None and run_.timing.rounds >= 9 and run_.ns_per_move and run_.moves == 2**run_.n - 1
        assert run_.tracemalloc_peak_bytes is None  # no tracemalloc figure for another process
        assert run_.rss is not None and run_.rss.peak_mib > 1 and run_.rss.baseline_mib > 1
    assert mine.fit_space is None and mine.declared_time == mine.declared_space == ""  # n = 6 is too small to fit
    # Passing at n = 2, failing at 4: reported with the verdict, and not timed even at the size it passed.
    assert broken.status == "failed" and broken.runs == []
    assert (
        broken.stopped
        == "failed the check at n = 4: incomplete: after 16 moves the disks are spread (peg 0: 1; peg 1: 0; peg 2: 3)"
    )
    assert (broken.failure or {})["describe"].startswith("incomplete: after 16 moves")
    said = "crashed after 0 moves: the program exited with status 3"
    assert (results.algorithms["dies"].failure or {})["describe"] == said
    saved = json.loads((out / "results.json").read_text())["algorithms"]["mine"]
    assert saved["external"] is True and saved["command"] == printer

    readme = (out / "README.md").read_text()
    assert f"FAILED: {said}" in readme and "step None" not in readme
    assert "| mine (command)" in readme and "## External programs (`--command`)" in readme
    assert "Its times include process start-up" in readme and "no tracemalloc figure" in readme
    summary_row = next(line for line in readme.splitlines() if "| mine (command)" in line)  # the summary's
    assert "no class declared; not enough sizes" in summary_row and "MISMATCH" not in summary_row
    assert "MiB RSS " in summary_row  # its peak memory is its process's peak RSS, and says so
    tables = (out / "tables.md").read_text()
    detail = next(line for line in tables.split("## Details")[1].splitlines() if "| mine (command)" in line)
    assert "| - / - (not enough sizes)" in detail
    memory = tables.split("## Peak memory, tracemalloc")[1].split("##")[0]
    assert next(line for line in memory.splitlines() if "mine (command)" in line).count("| -") == 3
    assert mine.instructions is None and "| mine (command)      | -" not in readme  # no count for a command
    assert f"hanoi: broken failed the check at n = 4: {(broken.failure or {})['describe']}\n" in capsys.readouterr().err

    assert main(["compare", str(out), str(out), "--allow-incomplete"]) == 0
    assert "within noise: 1.000x" in capsys.readouterr().out


def test_command_names_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["bench", "--quick", "--out", str(tmp_path / "x")]
    for spec in ("recursive=./prog {n}", "for=./prog {n}", "two words=./prog {n}", "no_command="):
        assert main([*base, "--command", spec]) == 2
    assert main([*base, "--command", "a=./p {n}", "--command", "a=./q {n}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 5 and all(line.startswith("hanoi: error: --command") for line in err)
    assert "registered algorithm" in err[0] and "keyword" in err[1] and "given twice" in err[4]
    assert not (tmp_path / "x").exists()


def test_command_walk_stops_at_the_cap_or_a_budget(printer: str) -> None:
    command = Command("mine", printer)
    capped = replace(FULL, n_cap=4, drain_budget_s=1e9, check_budget_s=1e9)
    walked = check_commands([command], capped)["mine"]
    assert walked.ns == [1, 2, 3, 4] and sorted(walked.drain_s) == [1, 2, 3, 4] and walked.stopped == "the cap: n <= 4"
    assert walked.moves == {1: 1, 2: 3, 3: 7, 4: 15}
    starved = replace(capped, drain_budget_s=1e-9)
    stopped = check_commands([command], starved)["mine"]
    assert stopped.ns == [1] and stopped.stopped.startswith("drain budget:")


def test_command_walk_stops_where_a_check_or_a_run_to_dev_null_fails(printer: str) -> None:
    capped = replace(FULL, n_cap=6, drain_budget_s=1e9, check_budget_s=1e9)
    wrong = check_commands([Command("wrong", printer + " wrong")], capped)["wrong"]
    assert wrong.stopped.startswith("failed the check at n = 3: incomplete: after 8 moves the disks are spread")
    assert wrong.ns == [] and wrong.failure is not None
    # Checked on a pipe, it prints the moves; into /dev/null (the drain) from n = 2 on, it fails.
    picky = Command("picky", f"if [ -p /dev/stdout ] || [ {{n}} -lt 2 ]; then {printer}; else exit 4; fi")
    walked = check_commands([picky], capped)["picky"]
    assert walked.stopped == "its run to /dev/null failed at n = 2: the command exited with status 4"
    assert walked.ns == [1] and sorted(walked.check_s) == [1] and sorted(walked.drain_s) == [1]


def test_a_run_past_its_timeout_is_stopped_and_a_failing_run_says_its_status() -> None:
    with pytest.raises(shell.CommandFailed, match=r"^no end within 0.2 s; stopped$"):
        shell.run_discarding("sleep 30", 3, timeout=0.2)
    with pytest.raises(shell.CommandFailed, match=r"^the command exited with status 3$"):
        shell.run_discarding("exit 3", 3)


def test_peak_rss_runs_say_why_a_size_has_no_figure() -> None:
    # At n = 0 (the baseline) it kills its shell, so nothing reads the peak; at n = 2 it fails.
    exits = shlex.quote("import sys; sys.exit(5 if {n} == 2 else 0)")
    command = Command("odd", f"[ {{n}} -eq 0 ] && kill -9 $$; {shlex.quote(sys.executable)} -c {exits}")
    found = shell.rss_runs(command, [1, 2], lambda n: 30.0)
    one = found[("odd", 1)]
    assert isinstance(one, Rss) and one.baseline_mib == 0.0 and one.peak_mib > 1
    assert found[("odd", 2)] == "the command exited with status 5"


def test_peak_rss_is_the_program_s_own(printer: str) -> None:
    """The peak RSS figure is the command's own process, not this one's.

    This process, under pytest, is much larger, and a fork copies it.
    """
    here = psutil.Process().memory_info().rss
    small = shell.peak_rss("/bin/true", 0)
    large = shell.peak_rss(f"{shlex.quote(sys.executable)} -S -E -c 'x = bytearray(2**26)'", 0)
    assert 0 < small < here / 2 and large - small > 2**26 * 0.9
    with pytest.raises(shell.CommandFailed, match="exited with status 3"):
        shell.peak_rss("sh -c 'exit 3'", 0)
    with pytest.raises(shell.CommandFailed, match=r"ended its shell \(status 3\)"):
        shell.peak_rss("exit 3", 0)  # the shell itself ends there, before the report
    assert shell.peak_rss(f"{printer}", 3) > small


def test_a_generation_only_set_is_never_ranked() -> None:
    """A set that timed generation only is shown but never ranked.

    A set of an older version timed a drain that read no move: its speeds are shown but not ranked.
    """
    results = bench_set({"blocks": 0.0002})
    results.consumer = "generation only"
    summary = all_tables(results)[0]
    assert [row[0] for row in summary.shown] == ["-", "-"]
    assert [row[0] for row in summary.raw] == [None, None]
    readme = text("README.md.j2", view(results, all_tables(results)))
    assert "Not ranked: this set comes from a version whose drains read no move" in readme
    assert not re.search("MISMATCH (time|space)", readme)  # a schema-2 set has no fits to compare with


def test_a_variant_is_divided_by_its_own_moves() -> None:
    """A variant's ns per move divides by its own moves, not 2^n - 1.

    The ns per move of a linear run of 8 disks divides by its 6560 moves, not 2^8 - 1, in the file and the
    tables.
    """
    results = bench_set({})
    results.algorithms["linear"] = AlgorithmResult(
        "linear", puzzle="3 pegs, linear: 0-1-2", runs=[Run(8, moves=6560, timing=timed(6560 * 500e-9))]
    )
    (run,) = results.algorithms["linear"].runs
    assert run.ns_per_move == pytest.approx(500, rel=0.02) and run.moves_per_s == pytest.approx(2e6, rel=0.02)
    assert msgspec.to_builtins(run)["ns_per_move"] == run.ns_per_move
    tables = {table.csv: table for table in all_tables(results)}
    assert tables["moves.csv"].raw[-1][1:] == [None, 6560, None, None]
    summary = {row[1]: row for row in tables["summary.csv"].raw}
    assert summary["linear"][4:6] == [8, 6560]  # its own puzzle's largest run; the classic one's is n = 14
    assert summary["recursive"][4:6] == [14, 16383]
    assert summary["linear"][0] == summary["recursive"][0] == 1  # each first in its own puzzle
    assert summary["linear"][3] == "linear" and summary["recursive"][3] == "recursive"  # each puzzle's reference
    parts = tables["ns_per_move.csv"].parts
    assert [part.label for part in parts] == ["3 pegs, every move", "3 pegs, linear: 0-1-2"]
    assert parts[1].headers == ["algorithm", "n=8"]


def test_a_full_run_measures_the_baseline_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_valgrind: None
) -> None:
    """A full run writes quick/ first.

    A full run has no --quick, no --sizes; it is lowered here so that it is quick.
    """
    lowered = replace(FULL, n_cap=3, drain_budget_s=1e9, check_budget_s=1e9, max_time_s=0.01, rss_stride=0)
    monkeypatch.setattr(session, "FULL", lowered)
    monkeypatch.setattr(session, "QUICK", QUICK.with_sizes([2, 3]))
    out = tmp_path / "out"
    assert main(["bench", "--out", str(out), "recursive"]) == 0
    full, quick = load(out), load(out / "quick")
    assert [r.n for r in full.algorithms["recursive"].runs] == [1, 2, 3] and full.settings["sizes"] is None
    assert [r.n for r in quick.algorithms["recursive"].runs] == [2, 3] and quick.mode == "quick"
    # The report's duration is the whole run's: the baseline first.
    phases = list(full.durations_s)
    assert phases[0] == "quick baseline" and "checking" in phases
    assert "quick baseline" not in quick.durations_s
    readme = (out / "README.md").read_text()
    made = next(line for line in readme.splitlines() if line.startswith("A full run of"))
    assert "It took " in made and "quick baseline" in made
    assert "`quick/results.json` is a quick run" in readme
    # Rendered again from results.json alone: the same files, quick/ kept as it was.
    before = {p.name: p.read_bytes() for p in (out / "quick").iterdir()}
    assert main(["report", str(out)]) == 0
    assert {p.name: p.read_bytes() for p in (out / "quick").iterdir()} == before
    assert (out / "README.md").read_text() == readme


def test_sizes_without_quick_measure_those_sizes_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_valgrind: None
) -> None:
    """--sizes alone measures the full run's rounds at those n only.

    There is no quick baseline.
    """
    out = tmp_path / "out"
    code, said, _ = run_cli(capsys, "bench", "--sizes", "3,4", "--out", str(out), "recursive")
    assert code == 0 and "full run of 1 algorithms" in said
    results = load(out)
    assert results.mode == "full" and [r.n for r in results.algorithms["recursive"].runs] == [3, 4]
    assert not (out / "quick").exists()
    assert list(results.durations_s) == [
        "checking",
        "timing",
        "noise floor",
        "tracemalloc",
        "peak RSS",
        "instruction counts",
    ]
    readme = (out / "README.md").read_text()
    assert "no `quick/` baseline" in readme
