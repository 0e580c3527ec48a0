"""Test the views of a result set, README.md and index.html included.

Each puzzle is ranked against its own reference, with plain verdicts.  The plots are ones a reader can
follow: no two lines alike, no puzzle squeezed by another's axis, every axis saying its scale.  The page
in a real browser is test_page.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.report import plots as _plots
from hanoi_harness.bench.report.puzzles import kind_of, reference_for, standings
from hanoi_harness.bench.report.render import all_tables, render
from hanoi_harness.bench.report.styles import (
    COLOURS,
    MAX_LINES,
    REFERENCE_COLOUR,
    Panel,
    Style,
    digest,
    panels,
    style_of,
    styles,
)
from hanoi_harness.bench.report.summary import findings, glance, summary, verdict
from hanoi_harness.bench.report.view import text, view
from hanoi_harness.bench.results.fit import Fit, fit_counts, fit_space
from hanoi_harness.bench.results.resultset import AlgorithmResult, Declared, Fits, ResultSet, Run, load
from hanoi_harness.bench.timing.figures import Timing
from hanoi_harness.bench.timing.stats import Interval
from tests.helpers import ROOT, bench_set, timed

COMMITTED = ROOT / "results"


@pytest.fixture(scope="module")
def committed() -> ResultSet:
    """The committed full run."""
    return load(COMMITTED)


def variants() -> ResultSet:
    """Return a set of three puzzles: the classic, the linear one and 4 pegs.

    The classic one's reference is recursive.
    """
    results = bench_set({"level_formula": 0.5, "tree_array": 1.4})
    for name, puzzle, family, factor in (
        ("linear", "3 pegs, linear: 0-1-2", "recursive", 3.0),
        ("linear_blocks", "3 pegs, linear: 0-1-2", "blocks", 0.01),
        ("stewart", "4 pegs, every move", "recursive", 2.0),
        ("their_stewart", "4 pegs, every move", "peer: recursive", 1.0),
    ):
        runs = [Run(n, moves=3**n - 1, timing=timed(factor * 300e-9 * (3**n - 1), seed=n)) for n in (4, 6, 8)]
        origin = "plugin peers.py:STEWART" if name == "their_stewart" else "built-in"
        results.algorithms[name] = AlgorithmResult(name, family=family, origin=origin, puzzle=puzzle, runs=runs)
    return results


# --- like with like ---------------------------------------------------------------------------------------------


def test_each_puzzle_is_ranked_within_itself_against_its_own_reference(committed: ResultSet) -> None:
    for results in (committed, variants()):
        table = summary(results)
        assert sorted(table.raw, key=lambda row: row[1]) == sorted(table.raw, key=lambda row: row[1])
        assert len(table.raw) == len(results.algorithms) and len(table.parts) == len(standings(results))
        for part in table.parts:
            puzzles = {results.algorithms[name].puzzle for name in part.names}
            assert len(puzzles) == 1  # a table holds one puzzle
            rows = [row for row in table.raw if row[1] in part.names]
            reference = rows[0][3]
            assert results.algorithms[reference].puzzle in puzzles  # never another puzzle's reference
            ranks = [row[0] for row in rows]
            assert ranks[0] == 1 and ranks == sorted(ranks)  # ties share a rank (=2)
            assert all(rank <= place for place, rank in enumerate(ranks, start=1))
            assert next(row[11] for row in rows if row[1] == reference) == pytest.approx(1.0)
            assert part.headers[4] == f"speed vs {reference}"
    linear = {row[1]: row for row in summary(variants()).raw}
    assert linear["linear_blocks"][:4] == [1, "linear_blocks", "3 pegs, linear: 0-1-2", "linear"]
    assert linear["linear_blocks"][11] == pytest.approx(300, rel=0.05)


def test_algorithms_whose_intervals_overlap_share_a_rank_written_with_an_equals_sign() -> None:
    # level_formula and bitwise 3% apart, within the rounds' 10% spread: tied. tree_array is surely slower.
    results = bench_set({"level_formula": 0.5, "bitwise": 0.515, "tree_array": 1.4}, spread=0.1)
    (standing,) = standings(results)
    assert sorted((entry.place, entry.result.name) for entry in standing.entries) == [
        ("3", "recursive"),
        ("4", "tree_array"),
        ("=1", "bitwise"),
        ("=1", "level_formula"),
    ]
    assert [row[0] for row in summary(results).parts[0].shown] == ["=1", "=1", "3", "4"]
    assert "=3 marks a shared rank" in summary(results).parts[0].lead
    # Steady rounds 3% apart still tie: two runs could rank them either way. 10% apart they rank apart.
    near = standings(bench_set({"level_formula": 0.5, "bitwise": 0.515}, spread=0.001))[0]
    assert [entry.place for entry in near.entries][:2] == ["=1", "=1"]
    steady = standings(bench_set({"level_formula": 0.5, "bitwise": 0.55}, spread=0.001))[0]
    assert [entry.place for entry in steady.entries] == ["1", "2", "3"]


def test_the_report_opens_with_plain_sentences_drawn_from_the_figures(tmp_path: Path) -> None:
    results = bench_set({"level_formula": 0.5, "bitwise": 0.515, "tree_array": 1.4, "flag_stack": 1.41}, spread=0.1)
    runs = results.algorithms["level_formula"].runs
    runs[-1] = replace(runs[-1], tracemalloc_peak_bytes=900)
    for name, family, cls in (
        ("recursive", "recursive", "n 2^n"), ("flag_stack", "stack", "2^n"), ("tree_array", "tree", "n 2^n"),
        ("level_formula", "formula", "2^n"), ("bitwise", "formula", "2^n"),
    ):  # fmt: skip
        results.algorithms[name].family = family
        results.algorithms[name].fit.time = Fit(cls, 0.0, "log-log ns/move", 3)  # type: ignore[arg-type]
    (standing,) = standings(results)
    first = [entry.result.name for entry in standing.entries if entry.place == "=1"]
    assert sorted(first) == ["bitwise", "level_formula"]
    ns = [f"{entry.run.ns_per_move:.0f}" for entry in standing.entries if entry.run and entry.place == "=1"]
    assert glance(results) == [
        f"The classic puzzle (3 pegs, every move): {first[0]} and {first[1]} share the fastest place, at {ns[0]} and "
        f"{ns[1]} ns a move; their 95% intervals overlap or lie within 5%. The leanest is level_formula, at a "
        "tracemalloc peak of 900 B. Tied, as their 95% intervals overlap or lie within 5%: =4 tree_array and "
        "flag_stack.",
        "The recursions and stacks take time 2^n (the same cost every move) for flag_stack; n 2^n (a cost a move "
        "growing like n) for recursive and tree_array.",
        "The formulas and blocks take time 2^n (the same cost every move) for bitwise and level_formula.",
    ]
    alone = bench_set({"level_formula": 0.5}, spread=0.001)
    assert glance(alone)[0].startswith("The classic puzzle (3 pegs, every move): level_formula is the fastest, at ")
    assert "ns a move, 2 times the speed of recursive." in glance(alone)[0]
    (tmp_path / "results.json").write_text(results.dumps())
    render(load(tmp_path), tmp_path)
    readme_text = (tmp_path / "README.md").read_text()
    assert readme_text.index("At a glance") < readme_text.index("A quick run of")
    assert f"- {glance(results)[0]}" in readme_text
    assert "share the fastest place" in (tmp_path / "index.html").read_text()


def test_a_wide_interval_ranks_by_what_is_surely_faster_and_the_legend_follows_the_ranks() -> None:
    results = bench_set({"x": 1, "a": 1, "b": 1})
    for name, (median, low, high) in {
        "x": (100, 95, 105), "a": (500, 100, 900), "recursive": (300, 290, 310), "b": (480, 470, 490),
    }.items():  # fmt: skip
        runs = results.algorithms[name].runs
        scale = runs[-1].moves * 1e-9
        interval = Interval(low * scale, high * scale)
        runs[-1] = replace(runs[-1], timing=Timing(median * scale, 0, 0, 0, 0, 0, 0, 12, 1, interval))
    (standing,) = standings(results)
    assert [(entry.result.name, entry.place) for entry in standing.entries] == [
        ("x", "=1"), ("a", "=1"), ("recursive", "2"), ("b", "3"),
    ]  # fmt: skip
    (lines,) = _plots.kinds(results)
    assert lines.panels[0].names == ("x", "a", "recursive", "b")  # the legend in rank order, not by median


def test_a_puzzle_s_reference_is_the_set_s_or_its_own_recursion_never_a_peer() -> None:
    results = variants()
    found = {standing.puzzle: standing.reference for standing in standings(results)}
    assert found == {
        "3 pegs, every move": "recursive",
        "3 pegs, linear: 0-1-2": "linear",
        "4 pegs, every move": "stewart",
    }
    members = [results.algorithms["their_stewart"], AlgorithmResult("mine", family="stack")]
    assert reference_for(results, members) == "mine"  # the project's first record, not the faster peer
    assert reference_for(results, members[:1]) == "their_stewart"  # a puzzle of peers alone
    assert [kind_of(puzzle).key for puzzle in found] == ["classic", "linear", "k_pegs"]


def test_the_summary_shows_first_what_a_reader_compares(committed: ResultSet) -> None:
    part = summary(committed).parts[0]
    assert part.headers[:4] == ["rank", "algorithm", "ns/move ±95%", "moves/s"]
    assert part.headers[5:] == ["instructions/move", "peak memory", "verdict"]
    row = dict(zip(part.headers, part.shown[part.names.index("recursive")], strict=True))
    assert re.fullmatch(r"\d+(\.\d+)? ±[\d.]+%( unstable)?", row["ns/move ±95%"])
    assert re.fullmatch(r"[\d.]+ [kMG]", row["moves/s"]) and row["speed vs recursive"] == "1.00x"
    assert re.fullmatch(r"\d+", row["instructions/move"])
    # The peak at the ranked run, or, where that run had none measured, at the n named.
    assert re.fullmatch(r"[\d.]+ (B|KiB|MiB)( \(n=\d+\))?", row["peak memory"])
    # Declared n 2^n and n: the committed full run's counts and peaks agree.
    assert row["verdict"] == "as declared: time n 2^n, space n"


# --- verdicts ---------------------------------------------------------------------------------------------------


def test_a_mismatch_is_explained_under_its_table() -> None:
    results = bench_set({"tree_array": 1.0})
    tree = results.algorithms["tree_array"]
    tree.fit.time = Fit("n 2^n", 1.07, "log-log instructions/move", 10)
    tree.fit.space = Fit("n", 200.0, "bytes per disk", 8)
    assert verdict(tree) == "MISMATCH time: declared 2^n, fitted n 2^n; space n as declared"
    (said,) = findings(tree)
    assert said.startswith("tree_array, time: declared 2^n") and "grow like n^1.07 over 10 sizes" in said
    tables = all_tables(results)
    assert tables[0].parts[0].notes == (said,)
    model = view(results, tables)
    below = text("README.md.j2", model).split("| tree_array")[1].split("\n## ")[0]
    assert f"- {said}" in below  # right under the table, not at the end of the page
    assert said in text("index.html.j2", model)


@pytest.mark.parametrize(
    ("declared", "fit", "words"),
    [
        ("n", Fit("1", -357.0, "bytes per disk", 10), "does not grow measurably with n (-357 B/disk over 10 sizes"),
        ("1", Fit("n", 13.6, "bytes per disk", 10), "grows like n (+13.6 B/disk over 10 sizes)"),
        ("n", Fit("2^n", 0.86, "log2 bytes vs n", 9), "doubling with each disk, like 2^n (x1.82/disk"),
    ],
)
def test_a_space_mismatch_says_what_the_peak_did(declared: str, fit: Fit, words: str) -> None:
    result = AlgorithmResult(
        "a", declared=Declared("2^n", declared), fit=Fits(time=Fit("2^n", 0, "log-log instructions/move", 9))
    )
    result.fit.space = fit
    (said,) = findings(result)
    assert said.startswith(f"a, space: declared {declared}, but its tracemalloc peak") and words in said


def test_time_mismatches_say_which_way() -> None:
    flat = AlgorithmResult(
        "f", declared=Declared("n 2^n", "n"), fit=Fits(time=Fit("2^n", 0.06, "log-log instructions/move", 12))
    )
    assert "under the n^0.25 that reads as n 2^n: no growth with n shows" in findings(flat)[0]
    assert (
        findings(
            AlgorithmResult("c", command="./c {n}", fit=Fits(time=Fit("2^n", -1.0, "log-log instructions/move", 5)))
        )
        == []
    )
    assert findings(AlgorithmResult("x", status="failed")) == []


def test_a_wall_clock_trend_the_counts_do_not_show_is_an_observation() -> None:
    counted = Fit("2^n", 0.05, "log-log instructions/move", 7)
    result = AlgorithmResult("t", declared=Declared("2^n", "n"), fit=Fits(time=counted))
    result.fit.space, result.fit.wall_time = (
        Fit("n", 20.0, "bytes per disk", 7),
        Fit("n 2^n", 0.6, "log-log ns/move", 9),
    )
    assert verdict(result) == "as declared: time 2^n, space n"  # the clock decides nothing
    (said,) = findings(result)
    assert said.startswith("t, observation (no verdict): its ns per move grows like n^0.60")


def test_without_counts_the_time_class_is_not_counted() -> None:
    missing = InstructionCount(sizes=(10, 14), unavailable="valgrind is not installed")
    result = AlgorithmResult("a", declared=Declared("2^n", "n"), instructions=missing)
    result.fit.space, result.fit.wall_time = (
        Fit("n", 20.0, "bytes per disk", 7),
        Fit("n 2^n", 0.6, "log-log ns/move", 9),
    )
    assert verdict(result) == "space n as declared; time: not counted"
    assert findings(result) == []


def test_a_quick_run_states_no_class_it_cannot_support() -> None:
    """A quick run states no class it cannot support: never a MISMATCH.

    The committed quick baseline's own measurements, fitted again, give 'not enough sizes'.
    """
    quick = load(COMMITTED / "quick")
    assert quick.mode == "quick"
    verdicts = {}
    for result in quick.algorithms.values():
        result.fit.time = fit_counts(result.instructions)
        traced = [run for run in result.runs if run.tracemalloc_peak_bytes]
        peaks = [float(run.tracemalloc_peak_bytes or 0) for run in traced]
        result.fit.space = fit_space([r.n for r in traced], peaks, [r.moves for r in traced])
        verdicts[result.name] = verdict(result)
    assert not [said for said in verdicts.values() if "MISMATCH" in said]
    assert verdicts["tree_array"] == "space 2^n as declared; time: not enough sizes"  # a doubling shows at 3 sizes
    assert sum(said == "not enough sizes to fit time or space" for said in verdicts.values()) >= len(verdicts) - 2


def test_a_space_fit_counts_large_runs_by_their_moves() -> None:
    """A space fit counts large runs by their moves, not their disks.

    A linear run of 7 disks makes 2186 moves, past the 1023 the linear test asks of a run, as the classic
    n = 11.
    """
    ns = [7, 8, 9, 10]
    moves = [3**n - 1 for n in ns]
    assert fit_space(ns, [2000.0 + 240 * n for n in ns], moves) == Fit("n", 240.0, "bytes per disk", 4)
    assert fit_space(ns, [2000.0 + 240 * n for n in ns]) is None  # as the classic puzzle: only n = 10 is large


# --- plots ------------------------------------------------------------------------------------------------------


def draw(results: ResultSet, out: Path) -> dict[str, Any]:
    """Draw *results*' plots as :func:`plot` does; return them by file name.

    The figures are left open.

    The figures are built but neither laid out nor encoded (the PNGs are the other tests'): what is drawn is
    what is checked.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    figures: list[Any] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plt, "close", figures.append)
        patch.setitem(matplotlib.rcParams, "figure.max_open_warning", 0)  # they are closed once checked
        patch.setattr(Figure, "savefig", lambda *_, **__: None)
        files = _plots.plot(results, out)
    return dict(zip(files, figures, strict=True))


@pytest.fixture(scope="module")
def drawings(committed: ResultSet, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    """Return the figures of the committed set, of its peers' and of 3 puzzles.

    The peers' figures are those of a set of three puzzles when there are no peers.
    """
    import matplotlib.pyplot as plt

    peers = load(COMMITTED / "peers") if (COMMITTED / "peers").is_dir() else variants()
    out = tmp_path_factory.mktemp("plots")
    found = [draw(results, out) for results in (committed, peers, variants())]
    yield found
    for figures in found:
        for figure in figures.values():
            plt.close(figure)


def lines_of(ax: Any) -> list[tuple[str, str, str]]:
    """Return the label, colour and marker of each line of the axes *ax*.

    The lines are its error-bar containers' data lines.
    """
    from matplotlib.colors import to_hex

    return [
        (c.get_label(), to_hex(c.lines[0].get_color()), c.lines[0].get_marker())
        for c in ax.containers
        if c.lines[0] is not None
    ]


def test_no_plot_draws_two_lines_alike_nor_more_than_a_reader_separates(drawings: list[dict[str, Any]]) -> None:
    for figures in drawings:
        for file, figure in figures.items():
            if file == "instructions.png":
                continue
            style: dict[str, tuple[str, str]] = {}
            for ax in (ax for ax in figure.axes if ax.get_visible()):
                found = lines_of(ax)
                assert 0 < len(found) <= MAX_LINES
                ranks = [int(label.split(".")[0].lstrip("=")) for label, _, _ in found]
                assert ranks == sorted(ranks)  # the legend in rank order (within a puzzle, for k pegs)
                for label, colour, marker in found:
                    name = label.split(". ", 1)[1].split(" ")[0].rstrip(":")
                    assert style.setdefault(name, (colour, marker)) == (colour, marker)  # one style a line
            assert len(set(style.values())) == len(style), file  # no two lines share colour and marker


def test_every_axis_says_its_scale_and_no_puzzle_is_squeezed(
    committed: ResultSet, drawings: list[dict[str, Any]]
) -> None:
    figures = drawings[0]
    assert sorted(figures) == sorted(picture.file for picture in _plots.pictures(committed))
    kinds = {lines.kind.key: lines for lines in _plots.kinds(committed)}
    assert list(kinds) == ["classic", "cyclic", "linear", "k_pegs"]
    for key, lines in kinds.items():
        most = max(run.moves for result in lines.results.values() for run in result.runs)
        for file in (f"ns_per_move_{key}.png", f"memory_{key}.png"):
            for ax in (ax for ax in figures[file].axes if ax.get_visible()):
                assert ax.get_xscale() == "log" and "log scale" in ax.get_xlabel()
                scale = "log" if "(log scale" in ax.get_ylabel() else "linear"
                assert scale in ax.get_ylabel() and ax.get_yscale() == scale
                assert ax.get_xlim()[1] < most * 3  # its own puzzle's moves, not another's
                names = {label.split(". ", 1)[1].split(" ")[0].rstrip(":") for label, _, _ in lines_of(ax)}
                assert names <= set(lines.results)
            title = figures[file]._suptitle.get_text()
            assert ("log-log" in title) == file.startswith("ns_per_move")
            assert lines.kind.title in title.replace("\n", " ")
    drawn = [ax for ax in figures["ns_per_move_classic.png"].axes if ax.get_visible()]
    groups = ("recursions and stacks", "rules and iterations", "formulas and blocks")
    assert [ax.get_title() for ax in drawn] == [
        f"{what}: {group}" for what in ("ns per move", "instructions per move") for group in groups
    ]
    classic = drawn[:3]
    reference = re.compile(r".*recursive \(reference\): [\d.]+ [nµm]?s")
    assert all(any(reference.fullmatch(label) for label, _, _ in lines_of(ax)) for ax in classic)
    assert len({ax.get_xlim() for ax in drawn}) == 1  # a count under its time: one x range in every panel


def test_every_axis_ends_on_a_tick_above_its_lines_and_a_linear_one_starts_at_0(
    drawings: list[dict[str, Any]],
) -> None:
    for figures in drawings:
        for file, figure in figures.items():
            if file == "instructions.png":
                continue
            for ax in (ax for ax in figure.axes if ax.get_visible()):
                low, high = ax.get_ylim()
                ys = [y for line in ax.get_lines() for y in line.get_ydata()]
                ys += [y for c in ax.collections for segment in c.get_segments() for _, y in segment]
                assert low <= min(ys) and max(ys) <= high * (1 + 1e-9)  # no line above the top tick
                ticks = ax.yaxis.get_major_locator().tick_values(low, high)
                assert any(abs(tick - high) <= 1e-9 * high for tick in ticks)  # the top is a tick
                if ax.get_yscale() == "linear":
                    assert low == 0
                if "RSS" in ax.get_ylabel():
                    assert high >= _plots.RSS.span  # a few pages' ripple is drawn as small as it is


def test_instructions_per_move_are_drawn_at_every_size_counted() -> None:
    # Counts at three sizes, then the first again (the record's tuples grow with the sizes counted).
    fields: Any = ((10, 12, 14), (1023, 4095, 16383), (1_000_000, 5_100_000, 21_500_000, 1_000_300), (0, 0, 0, 0))
    counted = InstructionCount(sizes=fields[0], moves=fields[1], instructions=fields[2], allocator=fields[3])
    found = _plots.instruction_points(AlgorithmResult("a", instructions=counted))
    # The forks' constant, (1_000_300 - 1_000_000) / 3 = 100, taken off each difference.
    assert found == [(4095, (4_100_000 - 100) / 3072), (16383, (16_400_000 - 100) / 12288)]
    assert _plots.instruction_points(AlgorithmResult("a", instructions=replace(counted, instructions=None))) == []


def test_a_set_without_counts_or_runs_still_plots(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    results = bench_set({})
    results.algorithms["recursive"].instructions = None
    results.algorithms["broken"] = AlgorithmResult("broken", status="failed")
    assert _plots.plot(results, tmp_path) == ["ns_per_move_classic.png", "memory_classic.png", "instructions.png"]
    assert all((tmp_path / file).read_bytes()[:4] == b"\x89PNG" for file in _plots.plot(results, tmp_path))
    figures = draw(results, tmp_path)
    assert sorted(figures) == ["instructions.png", "memory_classic.png", "ns_per_move_classic.png"]
    bars = figures["instructions.png"].axes[-1]
    assert [text.get_text() for text in bars.texts] == ["no instruction counts in this set"]
    for figure in figures.values():
        plt.close(figure)


names = st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True), min_size=1, max_size=40, unique=True)
families = st.sampled_from(["recursive", "stack", "tree", "rule-based", "formula", "blocks", "ad hoc", "peer: x"])


@given(names, st.data())
def test_any_set_of_lines_gets_panels_a_reader_can_follow(ranked: list[str], data: st.DataObject) -> None:
    family = {name: data.draw(families) for name in ranked}
    reference = data.draw(st.sampled_from([None, *ranked]))
    laid = panels(ranked, family, reference)
    assert all(len(panel.names) <= MAX_LINES for panel in laid)
    drawn_once = [name for panel in laid for name in panel.names if name != reference]
    assert sorted(drawn_once) == sorted(name for name in ranked if name != reference)  # every line, once
    if reference is not None:
        assert all(reference in panel.names for panel in laid)
    order = {name: place for place, name in enumerate(ranked)}
    assert all(list(panel.names) == sorted(panel.names, key=order.__getitem__) for panel in laid)
    chosen = styles(laid, reference)
    pairs = [(chosen[name].colour, chosen[name].marker) for name in ranked]
    assert len(set(pairs)) == len(pairs)
    others = [chosen[name].colour for name in ranked if name != reference]
    assert all(others.count(colour) <= -(-len(others) // len(COLOURS)) for colour in others)  # spread evenly
    # The same names in another order and other panels (another run's ranks) look the same.
    assert styles([Panel("", tuple(reversed(ranked)))], reference) == chosen


def test_a_line_s_style_comes_from_its_name_alone() -> None:
    """The same algorithm looks the same in every run's plots, whatever its rank.

    Pinned: a change of the digest or the palette would change every report's colours.
    """
    assert digest("recursive") == 0x21CE078705D04CA6  # SHA-256, not Python's salted hash()
    assert style_of("bitwise") == Style("#0072B2", "P", "-")
    names = ("bitwise", "flag_stack", "level_formula", "clockwise_pillars", "inorder_stack", "recursive")
    first = styles([Panel("", names)], "recursive")
    second = styles([Panel("", names[3:]), Panel("", (*names[:3], "recursive"))], "recursive")
    assert first == second and first["recursive"].colour == REFERENCE_COLOUR
    # Where no other name of the figure takes its colour first, a name keeps its own style.
    assert [name for name in names[:-1] if first[name] == style_of(name)] == ["bitwise", "flag_stack", "level_formula"]


def test_styles_keep_going_past_every_pair() -> None:
    """More lines than pairs of colour and marker still get a style each.

    The pairs then repeat.
    """
    many = tuple(f"a{i}" for i in range(200))
    chosen = styles([Panel("", many[i : i + 8]) for i in range(0, 200, 8)], None)
    assert len(chosen) == 200 and len({(s.colour, s.marker) for s in chosen.values()}) == 120


# --- README.md and index.html -----------------------------------------------------------------------------------


def test_the_readme_is_the_short_view_and_links_the_report(tmp_path: Path) -> None:
    results = variants()
    (tmp_path / "results.json").write_text(results.dumps())
    written = render(load(tmp_path), tmp_path)
    assert written[:3] == ["index.html", "README.md", "tables.md"]
    text = (tmp_path / "README.md").read_text()
    assert "[index.html](index.html)" in text
    headings = re.findall(r"^### (.+)$", text, flags=re.MULTILINE)
    assert headings == [
        "The classic puzzle (3 pegs, every move)",
        "The linear puzzle (3 pegs in a row, 0-1-2)",
        "4 pegs, every move",
    ]
    for picture in _plots.pictures(results):
        assert f"]({picture.file})" in text and f'src="{picture.file}"' in (tmp_path / "index.html").read_text()
    assert "## Details, by puzzle" in (tmp_path / "tables.md").read_text()


def test_the_page_has_a_section_per_algorithm_with_its_source(tmp_path: Path) -> None:
    results = variants()
    results.algorithms["level_formula"].source = "Qiao, \u201cA collection\u201d, CSDN blog, c. 2014"
    mine = AlgorithmResult("mine", command="./mine {n} | tee x", runs=[Run(3, timing=timed(1e-3))])
    results.algorithms["mine"] = mine
    html = text("index.html.j2", view(results, all_tables(results)))
    for name in results.algorithms:
        assert f'<section class="algorithm" id="alg-{name}"' in html
        assert f'<a href="#alg-{name}">' in html  # its row in the summary links to it
    section = html.split('id="alg-level_formula"')[1].split("</section>")[0]
    assert "Qiao, \u201cA collection\u201d, CSDN blog, c. 2014" in section
    assert "not recorded in this results.json" in html.split('id="alg-tree_array"')[1].split("</section>")[0]
    assert "./mine {n} | tee x" in html and "no class declared" in html
    assert 'http-equiv="Content-Security-Policy" content="default-src \'none\'' in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing on the network


def test_control_characters_never_reach_the_page(tmp_path: Path) -> None:
    from hanoi_harness.bench.report.render import render
    from hanoi_harness.bench.results.resultset import load
    from tests.helpers import bench_set

    results = bench_set({"level_formula": 0.5})
    results.algorithms["level_formula"].summary = "fast\x1b[2J\x07\x00 and\u200b quiet"
    (tmp_path / "results.json").write_text(results.dumps())
    render(load(tmp_path), tmp_path)
    page = (tmp_path / "index.html").read_text()
    assert not any(ord(c) < 32 and c not in "\n\t\r" for c in page) and "\u200b" not in page
    assert "fast\\x1b[2J\\x07\\x00 and\\u200b quiet" in page
