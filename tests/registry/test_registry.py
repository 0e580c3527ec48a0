"""Test registration: decorator, entry points, ad-hoc plugins, errors."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from hanoi_harness.core.checker import check_algorithm
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import sources
from hanoi_harness.registry.record import Algorithm, FinalPeg
from hanoi_harness.registry.sources import REGISTRY, Registry, build_registry, load_plugin
from tests.helpers import FIXTURES

GOOD = '''
def my_variant(n):
    """A variant under development: the recursion ending on peg 1."""
    def go(k, a, b, c):
        if k:
            yield from go(k - 1, a, c, b)
            yield (k, a, c)
            yield from go(k - 1, b, a, c)
    yield from go(n, 0, 2, 1)
'''


@pytest.fixture
def plugin_file(tmp_path: Path) -> Path:
    path = tmp_path / "variant.py"
    path.write_text(GOOD)
    return path


def test_plugin_from_file_is_named_after_the_function(plugin_file: Path) -> None:
    algorithm = load_plugin(f"{plugin_file}:my_variant")
    assert algorithm.name == "my_variant"
    assert algorithm.summary.startswith("A variant under development")
    assert algorithm.final_peg == FinalPeg.anywhere()
    assert algorithm.min_n == 0 and algorithm.max_n is None
    assert check_algorithm(algorithm, 6).ok  # ends on peg 1: any peg but 0 is accepted


def test_plugin_from_module(monkeypatch: pytest.MonkeyPatch, plugin_file: Path) -> None:
    monkeypatch.syspath_prepend(str(plugin_file.parent))
    algorithm = load_plugin("variant:my_variant")
    assert algorithm.name == "my_variant"


@pytest.mark.parametrize(
    ("source", "spec", "message"),
    [
        (GOOD, "{path}", "expected FILE.py:FUNC"),
        (GOOD, "{path}:", "expected FILE.py:FUNC"),
        (GOOD, "{path}:nothing", "has no attribute 'nothing'"),
        (GOOD, "{path}:not-a-name", "is not a function name"),
        ("raise ImportError('missing dependency')\n", "{path}:f", "failed to import: ImportError: missing dependency"),
        ("def f(:\n", "{path}:f", "failed to import: SyntaxError"),
        ("f = 3\n", "{path}:f", "is not a generator function"),
        (GOOD, "no_such_module_xyz:f", "failed to import: ModuleNotFoundError"),
        (GOOD, "missing.py:f", "no such file"),
    ],
)
def test_plugin_errors_are_one_clear_line(tmp_path: Path, source: str, spec: str, message: str) -> None:
    path = tmp_path / "plugin.py"
    path.write_text(source)
    with pytest.raises(UsageError, match=None) as info:
        load_plugin(spec.format(path=path))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_an_exit_at_import_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(UsageError, match="failed to import: SystemExit: 0"):
        load_plugin(f"{path}:f")


def test_a_change_of_directory_at_import_is_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("moves_away.py").write_text("import os\nos.chdir('/')\n" + GOOD)
    Path("second.py").write_text(GOOD.replace("my_variant", "second"))
    registry = build_registry(["moves_away.py:my_variant", "second.py:second"])  # the second found after the chdir
    assert Path.cwd() == tmp_path and {"my_variant", "second"} <= set(registry.names())
    assert registry.get("second").origin == f"plugin {tmp_path / 'second.py'}:second"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import os\nos._exit(3)\n", "importing it ended the process (exit status 3)"),
        ("while True:\n    pass\n", "importing it took more than 1 s; it was stopped"),
        ("import sys\nsys.exit(4)\n", "failed to import: SystemExit: 4"),
    ],
)
def test_plugins_are_imported_in_a_child_first(tmp_path: Path, source: str, message: str) -> None:
    path = tmp_path / "hostile.py"
    path.write_text(source + GOOD)
    # Only the import that never ends needs a short timeout: a busy machine may take over a second to start a child.
    with pytest.raises(UsageError) as info:
        build_registry([f"{path}:my_variant"], timeout=1 if "while" in source else 60)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_catalog_describes_plugins_without_importing_them(plugin_file: Path) -> None:
    import sys

    from hanoi_harness.registry.probe import catalog, describe, described

    before = set(sys.modules)
    registry = catalog([f"{plugin_file}:my_variant"])
    record = registry.get("my_variant")
    assert not any(name.startswith("_hanoi_plugin_") for name in set(sys.modules) - before)  # imported in a child
    assert record.origin == f"plugin {plugin_file}:my_variant" and record.summary.startswith("A variant")
    with pytest.raises(UsageError, match="runs in its own process only"):
        record.solve(3)
    for algorithm in REGISTRY:  # every field a record declares, but its functions and labels, survives the trip
        again = described(describe(algorithm))
        assert describe(again) == describe(algorithm)
        assert (again.solve_from is None) == (algorithm.solve_from is None)


def test_the_catalog_carries_each_plugin_s_puzzle() -> None:
    from hanoi_harness.core.puzzle import CYCLIC, k_pegs
    from hanoi_harness.registry.probe import catalog

    variants = FIXTURES / "plugins" / "variants.py"
    registry = catalog([f"{variants}:SIX_PEGS", f"{variants}:CYCLIC_BY_CLASSIC"])
    six, cyclic = registry.get("six_pegs"), registry.get("cyclic_by_classic")
    assert (six.puzzle, six.final_peg, six.solve_for is not None) == (k_pegs(6), FinalPeg.fixed(5), True)
    assert (cyclic.puzzle, cyclic.final_peg, cyclic.solve_for) == (CYCLIC, FinalPeg.fixed(1), None)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"puzzle": [2, "any"]}, "at least 3 pegs"),
        ({"puzzle": [3, "diagonal"]}, "puzzle is not"),
        ({"puzzle": [10**9, "any"]}, "puzzle is not"),
        ({"puzzle": [4, "cyclic"]}, "defined for 3 pegs"),
        ({"final_peg": [3, 3]}, "final peg 3 is not a peg of 3 pegs"),
        ({"final_peg": [-1, 2]}, "final_peg is not"),
    ],
)
def test_a_description_that_no_record_could_have_is_refused(change: dict[str, object], error: str) -> None:
    from hanoi_harness.registry.probe import describe, described

    data = {**describe(REGISTRY.get("recursive")), **change}
    with pytest.raises((ValueError, UsageError), match=error):
        described(data)


def test_duplicate_names_are_refused(plugin_file: Path) -> None:
    with pytest.raises(UsageError, match="duplicate algorithm name 'my_variant'"):
        build_registry([f"{plugin_file}:my_variant", f"{plugin_file}:my_variant"])
    registry = Registry()
    registry.add(REGISTRY.get("recursive"))
    with pytest.raises(UsageError, match="duplicate algorithm name 'recursive'"):
        registry.add(REGISTRY.get("recursive"))


@pytest.mark.parametrize("name", ["", "has space", "1abc", "class", "with-dash"])
def test_malformed_names_are_refused(name: str) -> None:
    with pytest.raises(UsageError, match="invalid algorithm name"):
        Algorithm(name=name, solve=lambda n: iter(()), summary="x")


def test_bad_metadata_is_refused() -> None:
    with pytest.raises(UsageError, match="space must be"):
        Algorithm(name="x", solve=lambda n: iter(()), summary="x", space="n^2")
    with pytest.raises(UsageError, match="pegs must be three distinct"):
        Algorithm(name="x", solve=lambda n: iter(()), summary="x", pegs=("A", "A", "C"))


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(UsageError, match="did you mean 'flag_stack'"):
        build_registry().get("flagstack")


class _EntryPoint:
    def __init__(self, name: str, obj: object = None, error: Exception | None = None) -> None:
        self.name, self.value, self._obj, self._error = name, f"thirdparty:{name}", obj, error

    def load(self) -> object:
        if self._error is not None:
            raise self._error
        return self._obj


def _fake_entry_points(monkeypatch: pytest.MonkeyPatch, *entries: _EntryPoint) -> None:
    def entry_points(group: str) -> list[_EntryPoint]:
        assert group == "hanoi.algorithms"
        return list(entries)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(sources, "none_advertised", lambda: False)


def test_entry_points_register_records_and_bare_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    namespace: dict[str, object] = {}
    exec(GOOD, namespace)
    record = Algorithm(
        name="third_party", solve=REGISTRY.get("recursive").solve, summary="packaged", pegs=("A", "B", "C")
    )
    _fake_entry_points(monkeypatch, _EntryPoint("third_party", record), _EntryPoint("bare", namespace["my_variant"]))
    registry = build_registry()
    assert check_algorithm(registry.get("third_party"), 5).ok
    assert registry.get("bare").final_peg == FinalPeg.anywhere()
    assert check_algorithm(registry.get("bare"), 5).ok


def test_broken_entry_point_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_entry_points(monkeypatch, _EntryPoint("broken", error=ImportError("no numpy here")))
    with pytest.raises(UsageError, match=r"entry point 'broken' .* failed to import: ImportError: no numpy here"):
        build_registry()


def test_entry_point_clashing_with_in_tree_name(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_entry_points(monkeypatch, _EntryPoint("recursive", REGISTRY.get("recursive").solve))
    with pytest.raises(UsageError, match="duplicate algorithm name 'recursive'"):
        build_registry()


def test_relabelling_happens_in_the_record() -> None:
    record = Algorithm(
        name="labelled",
        solve=lambda n: iter([(2, "s", "t"), (1, "s", "d"), (2, "t", "d")]),
        summary="x",
        pegs=("s", "t", "d"),
        disks="descending",
    )
    assert list(record.moves(2)) == [(1, 0, 1), (2, 0, 2), (1, 1, 2)]


# --- a plugin's record as its child describes it --------------------------------------------------------


def description(**changes: object) -> dict[str, object]:
    """What the child says of the in-tree bitwise, with *changes*."""
    from hanoi_harness.registry.probe import describe

    return {**describe(REGISTRY.get("bitwise")), **changes}


def test_a_description_comes_back_as_the_record_without_its_functions() -> None:
    from hanoi_harness.registry.probe import described

    record = described(description())
    bitwise = REGISTRY.get("bitwise")
    assert (record.name, record.max_n, record.final_peg, record.source) == (
        "bitwise",
        30,
        bitwise.final_peg,
        bitwise.source,
    )
    assert record.solve_from is not None and record.solve_for is None and not record.chunks
    with pytest.raises(UsageError, match="bitwise runs in its own process only"):
        record.solve(3)


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"summary": 3}, "a text field is not text"),
        ({"min_n": -1}, "a limit on n is not a whole number"),
        ({"max_n": 2.5}, "a limit on n is not a whole number"),
        ({"final_peg": [1, "two"]}, "final_peg is not a peg number or null"),
        ({"puzzle": [3, "sideways"]}, "puzzle is not 3 to"),
        ({"source": ["an author", "a title"]}, "source is not four texts"),
    ],
)
def test_a_description_that_is_not_one_is_refused(changes: dict[str, object], why: str) -> None:
    from hanoi_harness.registry.probe import described

    with pytest.raises(ValueError, match=why):
        described(description(**changes))


def test_records_that_do_not_read_name_the_import_they_came_from() -> None:
    from hanoi_harness.registry.probe import _records

    lines = ["importing 0", 'records [{"name": "mine"}]']
    with pytest.raises(UsageError, match=r"^plugin 'x\.py:mine': its records could not be read: 'summary'$"):
        _records(lines, True, 0, ["x.py:mine"], 10.0, "")
