"""The bench code itself: growth fits, compare's exit status, the results schema, and ``hanoi bench``
end to end on a few tiny sizes.  Result files that lie are in test_bench_files.py, the output
directory's safety in test_bench_outdir.py."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from hanoi_harness.bench import _external, _fit, _readme, _results, _session, cref
from hanoi_harness.bench._compare import compare
from hanoi_harness.bench._external import Command, check_commands
from hanoi_harness.bench._fit import fit_space, fit_time
from hanoi_harness.bench._measure import Timing
from hanoi_harness.bench._memory import Rss, rss_peak, tracemalloc_peak
from hanoi_harness.bench._plan import FULL, QUICK, Settings
from hanoi_harness.bench._results import AlgorithmResult, ResultSet, Run, load
from hanoi_harness.bench._run import run
from hanoi_harness.bench._tables import all_tables
from hanoi_harness.cli import main
from hanoi_harness.errors import UsageError
from tests.helpers import REGISTRY, printer_command, run_cli


def status(argv: list[str]) -> int:
    """The exit status of ``hanoi ARGV``, argparse's errors (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


# --- the fit classifier ---------------------------------------------------------------------------------------


def noisy(values: list[float], spread: float, seed: int) -> list[float]:
    """Each value times a factor within 1 +- spread: the noise of a shared machine, reproducibly."""
    rng = random.Random(seed)
    return [v * (1 + rng.uniform(-spread, spread)) for v in values]


NS = list(range(4, 21))


@pytest.mark.parametrize("seed", range(5))
def test_time_fit_tells_constant_from_linear_cost_per_move(seed: int) -> None:
    flat = noisy([180e-9 * (2**n - 1) for n in NS], 0.10, seed)
    linear = noisy([(50 + 20 * n) * 1e-9 * (2**n - 1) for n in NS], 0.10, seed)
    assert fit_time(NS, flat).cls == "2^n"  # type: ignore[union-attr]
    assert fit_time(NS, linear).cls == "n 2^n"  # type: ignore[union-attr]


def test_time_fit_ignores_the_start_up_cost_of_small_n() -> None:
    # 3 microseconds to start a generator: 1000 times a move at n = 2, nothing at n = 20.
    seconds = [3e-6 + 150e-9 * (2**n - 1) for n in NS]
    fit = fit_time(NS, seconds)
    assert fit is not None and fit.cls == "2^n" and abs(fit.slope) < 0.1 and fit.points == 13


@pytest.mark.parametrize("seed", range(5))
def test_space_fit_classes(seed: int) -> None:
    assert fit_space(NS, noisy([900 + 36 * 2**n for n in NS], 0.05, seed)).cls == "2^n"  # type: ignore[union-attr]
    assert fit_space(NS, noisy([1500 + 250 * n for n in NS], 0.05, seed)).cls == "n"  # type: ignore[union-attr]
    assert fit_space(NS, noisy([3224.0] * len(NS), 0.05, seed)).cls == "1"  # type: ignore[union-attr]


def test_fits_need_three_sizes() -> None:
    assert fit_time([8, 9], [1.0, 2.0]) is None
    assert fit_time([2, 3, 4, 5], [1.0, 2.0, 4.0, 8.0]) is None  # all below the smallest n a time fit uses
    assert fit_space([3, 4], [10.0, 20.0]) is None


def test_fits_on_measured_peaks_match_the_ports() -> None:
    """tracemalloc is deterministic, so the ports' classes can be asserted."""
    ns = [10, 12, 14, 16]  # lists grow in steps (over-allocation): a few sizes apart show it
    names = ("tree_array", "flag_stack", "parity_positions", "clockwise_sentinel", "level_formula", "bitwise")
    classes = {}
    for name in names:
        solve = REGISTRY.get(name).solve
        classes[name] = fit_space(ns, [float(tracemalloc_peak(solve, n)) for n in ns]).cls  # type: ignore[union-attr]
    # parity_positions and clockwise_sentinel grow by one or two pointers a disk over a 1.4 KB frame.
    assert classes == {name: REGISTRY.get(name).space for name in names}
    assert set(classes.values()) == {"2^n", "n", "1"}


# --- compare --------------------------------------------------------------------------------------------------


def timing(seconds: float) -> Timing:
    return Timing(seconds, 0.02 * seconds, seconds, seconds, seconds, seconds, 0.0, 5, 1)


def result_set(factors: dict[str, float], machine: float = 1.0, ns: tuple[int, ...] = (6, 10, 14)) -> ResultSet:
    """A quick result set: each algorithm `factor` times the reference's time, on a machine `machine` times slower."""
    results = ResultSet(mode="quick", reference="recursive")
    for name, factor in {"recursive": 1.0, **factors}.items():
        runs = [Run(n=n, timing=timing(machine * factor * 300e-9 * (2**n - 1))) for n in ns]
        results.algorithms[name] = AlgorithmResult(name=name, declared_time="2^n", declared_space="n", runs=runs)
    return results


BASE = {"flag_stack": 0.6, "level_formula": 0.5, "tree_array": 1.1}


def write(tmp_path: Path, name: str, results: ResultSet) -> str:
    path = tmp_path / name
    path.mkdir()
    (path / "results.json").write_text(results.dumps())
    return str(path)


def test_compare_same_is_not_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(tmp_path, "old", result_set(BASE))
    new = write(tmp_path, "new", result_set({k: v * 1.1 for k, v in BASE.items()}))
    assert main(["compare", old, new]) == 0
    assert "no regression" in capsys.readouterr().out


def test_compare_flags_a_4x_slower_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(tmp_path, "old", result_set(BASE))
    new = write(tmp_path, "new", result_set({**BASE, "level_formula": 4 * BASE["level_formula"]}))
    assert main(["compare", old, new]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip().endswith(": level_formula")
    assert "+300.0%" in captured.out


def test_compare_ignores_a_slower_machine(tmp_path: Path) -> None:
    old = write(tmp_path, "old", result_set(BASE))
    new = write(tmp_path, "new", result_set(BASE, machine=3.0))
    assert main(["compare", old, new]) == 0


def test_compare_flags_a_slower_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slower_reference = {k: v / 4 for k, v in BASE.items()}  # every other one now looks 4 times faster
    old = write(tmp_path, "old", result_set(BASE))
    new = write(tmp_path, "new", result_set(slower_reference))
    assert main(["compare", old, new]) == 1
    assert capsys.readouterr().err.strip().endswith(": recursive")


def test_compare_uses_only_pairs_both_sets_have() -> None:
    old = result_set(BASE, ns=(6, 10))
    new = result_set({**BASE, "newcomer": 9.0}, ns=(10, 14))
    outcome = compare(old, new, 20)
    rows = {row.name: row for row in outcome.rows}
    assert rows["flag_stack"].ns == (10,) and rows["flag_stack"].status == "ok"
    assert rows["newcomer"].status == "new: no baseline" and not outcome.regressions


def test_compare_threshold_is_the_boundary() -> None:
    old = result_set(BASE)
    new = result_set({**BASE, "tree_array": 1.3 * BASE["tree_array"]})
    assert compare(old, new, 35).regressions == []
    assert compare(old, new, 25).regressions == ["tree_array"]


def test_compare_flags_a_new_check_failure() -> None:
    new = result_set(BASE)
    new.algorithms["flag_stack"] = AlgorithmResult(name="flag_stack", status="failed")
    assert compare(result_set(BASE), new).regressions == ["flag_stack"]


def test_compare_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "junk.json").write_text("{not json")
    assert main(["compare", str(tmp_path / "missing"), str(tmp_path / "junk.json")]) == 2
    assert main(["compare", str(tmp_path / "junk.json"), str(tmp_path / "junk.json")]) == 2
    assert status(["compare", "a", "b", "--threshold", "-5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("hanoi") for line in err)


# --- the results file and directory ---------------------------------------------------------------------------


def test_schema_round_trip(tmp_path: Path) -> None:
    original = result_set(BASE)
    run_ = original.algorithms["tree_array"].runs[0]
    run_.tracemalloc_peak_bytes, run_.rss, run_.check_s = 6_200, Rss(26.9, 25.7), 0.01
    original.algorithms["tree_array"].fit_space = _fit.Fit("2^n", 0.94, "log2 bytes vs n", 3)
    original.algorithms["level_formula"].runs[1].rss_error = "no result within 30 s"
    path = tmp_path / "results.json"
    path.write_text(original.dumps())
    loaded = load(tmp_path)
    assert loaded.to_dict() == original.to_dict()
    assert json.loads(path.read_text())["schema"] == _results.SCHEMA
    assert path.read_text().splitlines()[0].startswith('{"generated_by": "Generated by')


def test_another_schema_is_refused(tmp_path: Path) -> None:
    data = result_set(BASE).to_dict()
    data["schema"] = 99
    (tmp_path / "results.json").write_text(json.dumps(data))
    with pytest.raises(UsageError, match="schema 1 or 2 "):
        load(tmp_path)


# --- measuring ------------------------------------------------------------------------------------------------


def test_rss_of_a_fresh_child() -> None:
    found = rss_peak("tree_array", 12, [], 60)
    assert isinstance(found, Rss) and found.peak_mib > 0 and found.baseline_mib > 0
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


def test_bench_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
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
        runs = results.algorithms[name].runs
        assert [r.n for r in runs] == [3, 4, 5]
        assert all(r.timing and r.timing.rounds >= 5 and r.tracemalloc_peak_bytes for r in runs)
        assert runs[-1].rss is not None and runs[0].rss is None  # peak RSS at the largest quick n only
    for name in ("README.md", "tables.md", "summary.csv", "time.csv", "memory.csv", "pytest-benchmark.json"):
        assert "Generated by 'hanoi bench'" in (out / name).read_text().splitlines()[0]
    marker = json.loads((out / ".hanoi-bench.json").read_text())
    assert sorted(marker["files"]) == sorted(p.name for p in out.iterdir() if p.name != ".hanoi-bench.json")
    for name in ("time_vs_n.png", "memory_vs_n.png", "ns_per_move.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG"
    readme = (out / "README.md").read_text()
    assert "| variant" in readme and "FAILED: illegal at step 1" in readme
    assert "failed the check (reported, not measured): wrong" in capsys.readouterr().err
    assert "quick/" not in {p.name for p in out.iterdir()} and "no `quick/` baseline" in readme

    # The same run again compares clean against itself; a named subset measures the reference too.
    assert main(["compare", str(out), str(out / "results.json")]) == 0
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


def test_full_walk_stops_at_the_cap_and_fits() -> None:
    """A full run's walk, with the cap lowered so that it is quick: every phase, and the fits."""
    # Budgets out of reach, so the walk ends at the cap whatever the machine's speed.
    lowered = {"sizes": None, "n_cap": 10, "drain_budget_s": 1e9, "check_budget_s": 1e9}
    settings = Settings(**{**FULL.to_dict(), **lowered, "max_time_s": 0.01, "memory_budget_s": 1e9, "rss_stride": 4})
    algorithms = [REGISTRY.get("recursive"), REGISTRY.get("tree_array")]
    results, report = run(algorithms, [], settings)
    tree = results.algorithms["tree_array"]
    assert [r.n for r in tree.runs] == list(range(1, 11)) and tree.stopped == "the cap: n <= 10"
    assert tree.fit_space is not None and tree.fit_space.cls == "2^n"
    assert [r.n for r in tree.runs if r.rss] == [2, 6, 10]
    assert tree.fit_time is not None and results.algorithms["recursive"].fit_space.cls == "n"  # type: ignore[union-attr]
    assert len(report["benchmarks"]) == 20


# --- external programs (--command) and the C reference ---------------------------------------------------------


@pytest.fixture
def printer(tmp_path: Path) -> str:
    return printer_command(tmp_path) + " {n}"


def test_commands_stand_in_the_tables(tmp_path: Path, printer: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    args = ["bench", "--quick", "--sizes", "2,4,6", "--out", str(out), "recursive"]
    assert main([*args, "--command", f"mine={printer}", "--command", f"broken={printer} wrong"]) == 1
    results = load(out)
    assert list(results.algorithms) == ["recursive", "mine", "broken"]
    mine, broken = results.algorithms["mine"], results.algorithms["broken"]
    assert mine.external and mine.command == printer and mine.origin == "--command" and mine.status == "ok"
    assert [r.n for r in mine.runs] == [2, 4, 6] and not results.algorithms["recursive"].external
    for run_ in mine.runs:
        assert run_.timing is not None and run_.timing.rounds >= 5 and run_.ns_per_move
        assert run_.tracemalloc_peak_bytes is None  # no tracemalloc figure for another process
        assert run_.rss is not None and run_.rss.peak_mib > 1 and run_.rss.baseline_mib > 1
    assert mine.fit_space is not None and mine.declared_time == mine.declared_space == ""
    # Passing at n = 2, failing at 4: reported with the verdict, and not timed even at the size it passed.
    assert broken.status == "failed" and broken.runs == [] and broken.stopped == "failed the check at n = 4"
    assert (broken.failure or {})["describe"].startswith("incomplete: after 16 moves")
    saved = json.loads((out / "results.json").read_text())["algorithms"]["mine"]
    assert saved["external"] is True and saved["command"] == printer

    readme = (out / "README.md").read_text()
    assert "| mine (command)" in readme and "## External programs (`--command`)" in readme
    assert "Its times include process start-up" in readme and "no tracemalloc figure" in readme
    summary_row = next(line for line in readme.splitlines() if "| mine (command)" in line)  # the summary's
    assert "- / " in summary_row and "MISMATCH" not in summary_row
    assert f"- / {mine.fit_space.cls} (" in summary_row and "/disk of RSS)" in summary_row  # a figure with its unit
    tables = (out / "tables.md").read_text()
    memory = tables.split("## Peak memory, tracemalloc")[1].split("##")[0]
    assert next(line for line in memory.splitlines() if "mine (command)" in line).count("| -") == 3
    assert "failed the check (reported, not measured): broken" in capsys.readouterr().err

    assert main(["compare", str(out), str(out)]) == 0
    assert "ok (command)" in capsys.readouterr().out


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
    capped = Settings(**{**FULL.to_dict(), "sizes": None, "n_cap": 4, "drain_budget_s": 1e9, "check_budget_s": 1e9})
    walked = check_commands([command], capped)["mine"]
    assert walked.ns == [1, 2, 3, 4] and sorted(walked.drain_s) == [1, 2, 3, 4] and walked.stopped == "the cap: n <= 4"
    starved = Settings(**{**capped.to_dict(), "drain_budget_s": 1e-9})
    stopped = check_commands([command], starved)["mine"]
    assert stopped.ns == [1] and stopped.stopped.startswith("drain budget:")


def test_peak_rss_is_the_program_s_own(printer: str) -> None:
    """The figure is the command's process, not this one's (hundreds of MiB under pytest) copied at the fork."""
    here = psutil.Process().memory_info().rss
    small = _external.peak_rss("/bin/true", 0)
    large = _external.peak_rss(f"{shlex.quote(sys.executable)} -S -E -c 'x = bytearray(2**26)'", 0)
    assert 0 < small < here / 2 and large - small > 2**26 * 0.9
    with pytest.raises(_external.CommandFailed, match="exited with status 3"):
        _external.peak_rss("sh -c 'exit 3'", 0)
    with pytest.raises(_external.CommandFailed, match=r"ended its shell \(status 3\)"):
        _external.peak_rss("exit 3", 0)  # the shell itself ends there, before the report
    assert _external.peak_rss(f"{printer}", 3) > small


def test_compare_with_commands() -> None:
    old = result_set(BASE)
    new = result_set({**BASE, "mine": 2.0})
    old.algorithms["mine"] = AlgorithmResult(name="mine", command="./a {n}", runs=new.algorithms["recursive"].runs)
    new.algorithms["mine"].command = "./a {n}"
    rows = {row.name: row for row in compare(old, new).rows}
    assert rows["mine"].status == "REGRESSION (command)" and compare(old, new).regressions == ["mine"]
    # Not counted in the reference's estimate: the three algorithms alone say it did not change.
    assert rows["recursive"].change == pytest.approx(1.0)
    new.algorithms["mine"].command = "./b {n}"
    changed = {row.name: row for row in compare(old, new).rows}["mine"]
    assert changed.status == "command changed: not compared" and not changed.regression


def test_schema_1_files_still_load(tmp_path: Path) -> None:
    data = result_set(BASE).to_dict()
    data["schema"] = 1
    del data["c_reference"]
    for entry in data["algorithms"].values():
        del entry["external"], entry["command"]
    (tmp_path / "results.json").write_text(json.dumps(data))
    loaded = load(tmp_path)
    assert loaded.c_reference is None and not any(a.external for a in loaded.algorithms.values())
    assert loaded.algorithms["tree_array"].timed() == result_set(BASE).algorithms["tree_array"].timed()


def readme_section(readme: str, title: str) -> str:
    """The section of a rendered README under the heading *title*, up to the next heading ("" when absent)."""
    heading = f"## {title}\n"
    return "" if heading not in readme else heading + readme.split(heading, 1)[1].split("\n## ", 1)[0]


def test_c_reference_section() -> None:
    results = result_set(BASE)
    results.c_reference = {"n": 28, "skipped": "no C compiler (set CC, or install gcc)"}
    title = "blocks vs a C per-move loop"
    section = readme_section(_readme.readme(results, all_tables(results)), title)
    assert "Not measured in this run: no C compiler" in section
    results.c_reference = None
    assert readme_section(_readme.readme(results, all_tables(results)), title) == ""
    if cref.compiler() is None:
        pytest.skip("no C compiler: the measured section is not rendered here")
    results.c_reference = cref.measure(10, repeat=1)
    results.machine = {"cpu": "Test CPU", "cores": 2, "arch": "x86_64", "os": "Linux"}
    section = readme_section(_readme.readme(results, all_tables(results)), title)
    assert "Test CPU (2 cores" in section and "`hanoi moves blocks 10 --binary`" in section
    assert f"{results.c_reference['speedup_vs_gathered_writes']:.2f}x" in section
    assert "Bytes identical (the\nthree outputs compared at min(n, 16)): yes" in section


def test_a_full_run_measures_the_baseline_and_the_c_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full run (no --quick, no --sizes) writes quick/ and stores cref's figures; lowered here so that it is quick."""
    lowered = {"n_cap": 3, "drain_budget_s": 1e9, "check_budget_s": 1e9, "max_time_s": 0.01, "rss_stride": 0}
    monkeypatch.setattr(_session, "FULL", Settings(**{**FULL.to_dict(), **lowered}))
    monkeypatch.setattr(_session, "QUICK", QUICK.with_sizes([2, 3]))
    monkeypatch.setattr(_session, "CREF_N", 8)
    out = tmp_path / "out"
    assert main(["bench", "--out", str(out), "recursive"]) == 0
    full, quick = load(out), load(out / "quick")
    assert [r.n for r in full.algorithms["recursive"].runs] == [1, 2, 3] and full.settings["sizes"] is None
    assert [r.n for r in quick.algorithms["recursive"].runs] == [2, 3] and quick.mode == "quick"
    assert full.c_reference is not None and full.c_reference["n"] == 8 and quick.c_reference is None
    # The report's duration is the whole run's: the baseline first, the C reference last.
    phases = list(full.durations_s)
    assert phases[0] == "quick baseline" and phases[-1] == "C reference" and "checking" in phases
    assert "C reference" not in quick.durations_s
    readme = (out / "README.md").read_text()
    assert "It took " in readme and "quick baseline" in readme.splitlines()[3]
    assert "`quick/results.json` is a quick run" in readme
    if "skipped" in full.c_reference:
        assert f"Not measured in this run: {full.c_reference['skipped']}" in readme
    else:
        assert full.c_reference["identical"] is True and "## blocks vs a C per-move loop" in readme
    # Rendered again from results.json alone: the same files, quick/ kept as it was.
    before = {p.name: p.read_bytes() for p in (out / "quick").iterdir()}
    assert main(["report", str(out)]) == 0
    assert {p.name: p.read_bytes() for p in (out / "quick").iterdir()} == before
    assert (out / "README.md").read_text() == readme


def test_sizes_without_quick_measure_those_sizes_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--sizes alone: the full run's rounds at exactly those n, no quick baseline and no C reference."""
    out = tmp_path / "out"
    code, said, _ = run_cli(capsys, "bench", "--sizes", "3,4", "--out", str(out), "recursive")
    assert code == 0 and "full run of 1 algorithms" in said
    results = load(out)
    assert results.mode == "full" and [r.n for r in results.algorithms["recursive"].runs] == [3, 4]
    assert results.c_reference is None and not (out / "quick").exists()
    assert list(results.durations_s) == ["checking", "timing", "tracemalloc", "peak RSS"]
    readme = (out / "README.md").read_text()
    assert "no `quick/` baseline" in readme and "## blocks vs a C per-move loop" not in readme


def test_the_report_says_where_the_figures_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed version, and the commit of the package's own source when that is a checkout: never of the
    directory hanoi runs in, and never "unversioned"."""
    from hanoi_harness.bench import _provenance

    version = _provenance.version()
    assert version != "unknown"
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "__init__.py").write_text("")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(checkout), *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "__init__.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    monkeypatch.setattr(_provenance, "PACKAGE_DIR", checkout)
    found = _provenance.source()
    assert found["version"] == version and len(found["id"]) == 40 and found["dirty"] is False
    (checkout / "__init__.py").write_text("changed = True\n")
    assert _provenance.source()["dirty"] is True
    monkeypatch.setattr(_provenance, "PACKAGE_DIR", tmp_path)  # installed: no checkout around it
    installed = _provenance.source()
    assert installed == {"version": version, "id": None, "branch": "", "dirty": False}
    results = result_set(BASE)
    results.commit = installed
    assert f"hanoi-harness {version} (installed, not from a git checkout)" in _readme.provenance(results)
    results.commit = found
    assert f"hanoi-harness {version} (commit `{found['id']}`)" in _readme.provenance(results)
    results.commit = {"id": "unversioned"}  # a file written before the version was recorded reads as it did
    assert "commit `unversioned`" in _readme.provenance(results)
