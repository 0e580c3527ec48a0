"""Registration: the decorator, entry points, ad-hoc plugins, and their errors."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from hanoi_harness.checker import check_algorithm
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import REGISTRY, Algorithm, FinalPeg, Registry, build_registry, load_plugin

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
