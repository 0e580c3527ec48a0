"""Where records come from, and the :class:`Registry` that holds them."""

from __future__ import annotations

import difflib
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, FinalPeg, Solver

ENTRY_POINT_GROUP = "hanoi.algorithms"


class Registry:
    """A name -> :class:`Algorithm` mapping that refuses duplicates."""

    def __init__(self) -> None:
        self._algorithms: dict[str, Algorithm] = {}

    def add(self, algorithm: Algorithm) -> Algorithm:
        if algorithm.name in self._algorithms:
            other = self._algorithms[algorithm.name]
            raise UsageError(
                f"duplicate algorithm name {algorithm.name!r}: {algorithm.origin} clashes with {other.origin}"
            )
        self._algorithms[algorithm.name] = algorithm
        return algorithm

    def __contains__(self, name: object) -> bool:
        return name in self._algorithms

    def __iter__(self) -> Iterator[Algorithm]:
        return iter(sorted(self._algorithms.values(), key=_order))

    def __len__(self) -> int:
        return len(self._algorithms)

    def names(self) -> list[str]:
        return [a.name for a in self]

    def get(self, name: str) -> Algorithm:
        """Return the record named *name*; a UsageError suggests a close name."""
        try:
            return self._algorithms[name]
        except KeyError:
            close = difflib.get_close_matches(name, list(self._algorithms), n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"unknown algorithm {name!r}{hint} (see 'hanoi list')") from None


def _order(algorithm: Algorithm) -> tuple[int, str]:
    # The reference first, then the ports alphabetically, then plugins.
    rank = 0 if algorithm.name == "recursive" else 1 if algorithm.origin.startswith("in-tree") else 2
    return (rank, algorithm.name)


REGISTRY = Registry()  #: The in-tree algorithms, filled when :mod:`hanoi_algorithms` is imported.


def register(**metadata: Any) -> Callable[[Solver], Solver]:
    """Make a decorator registering a function as ``solve``, with *metadata*."""

    def decorate(solve: Solver) -> Solver:
        REGISTRY.add(Algorithm(solve=solve, origin=f"in-tree {solve.__module__}", **metadata))
        return solve

    return decorate


def _from_object(obj: Any, name: str, origin: str) -> Algorithm:
    """An :class:`Algorithm` from an entry point's or plugin's object."""
    if isinstance(obj, Algorithm):
        return obj
    if not callable(obj):
        raise UsageError(f"{origin}: {name!r} is not a generator function or an Algorithm record")
    doc = inspect.getdoc(obj) or ""
    summary = doc.splitlines()[0] if doc else f"ad-hoc plugin {name}"
    return Algorithm(
        name=name, solve=obj, summary=summary, family="plugin", final_peg=FinalPeg.anywhere(), origin=origin
    )


def _parse_spec(spec: str) -> tuple[str, str, bool]:
    """Split a ``--plugin`` *spec* into its target and its function."""
    target, sep, func = spec.rpartition(":")
    if not sep or not target or not func:
        raise UsageError(f"plugin {spec!r}: expected FILE.py:FUNC or package.module:FUNC")
    if not func.isidentifier():
        raise UsageError(f"plugin {spec!r}: {func!r} is not a function name")
    return target, func, target.endswith(".py") or "/" in target or Path(target).is_file()


def resolve_spec(spec: str) -> str:
    """The plugin *spec* with its file made absolute.

    >>> resolve_spec("package.module:f")
    'package.module:f'
    >>> resolve_spec("/tmp/../tmp/x.py:f")
    '/tmp/x.py:f'
    """
    target, func, is_file = _parse_spec(spec)
    return f"{os.path.abspath(target)}:{func}" if is_file else spec


def load_plugin(spec: str) -> Algorithm:
    """The ad-hoc algorithm of ``--plugin FILE.py:FUNC`` or ``module:FUNC``."""
    target, func, is_file = _parse_spec(spec)
    here = os.getcwd()
    try:
        if is_file:
            path = Path(target)
            if not path.is_file():
                raise UsageError(f"plugin {spec!r}: no such file {target!r}")
            module_name = f"_hanoi_plugin_{path.stem}_{abs(hash(path.resolve()))}"
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise UsageError(f"plugin {spec!r}: cannot load {target!r} as Python")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
    except (UsageError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # any import-time failure is the plugin's, reported in one line
        raise UsageError(f"plugin {spec!r} failed to import: {type(exc).__name__}: {exc}") from None
    finally:
        _return_to(here)
    obj = getattr(module, func, None)
    if obj is None:
        raise UsageError(f"plugin {spec!r}: {target!r} has no attribute {func!r}")
    algorithm = _from_object(obj, func, f"plugin {spec}")
    # A full record keeps its own fields, but it came in as a plugin: 'hanoi verify' picks it by that origin.
    return replace(algorithm, origin=f"plugin {spec}")


def load_entry_points(registry: Registry, on_import: Callable[[str], None] | None = None) -> None:
    """Add to *registry* every algorithm of the installed entry points."""
    for entry in installed_entry_points():
        origin = entry_point_origin(entry)
        if on_import is not None:
            on_import(origin)
        try:
            obj = entry.load()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a broken third-party package must not take the CLI down
            raise UsageError(f"{origin} failed to import: {type(exc).__name__}: {exc}") from None
        # A full record keeps its own fields but not its origin: it is no in-tree record, whatever it says.
        registry.add(replace(_from_object(obj, entry.name, origin), origin=origin))


def installed_entry_points() -> list[Any]:
    """The installed entry points of the group ``hanoi.algorithms``.

    :func:`none_advertised` spares importing :mod:`importlib.metadata`, which is slow.
    """
    if none_advertised():
        return []
    import importlib.metadata

    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def none_advertised(path: Sequence[str] | None = None) -> bool:
    """Whether surely no distribution on *path* (``sys.path``) names our group."""
    finders = [finder for finder in sys.meta_path if hasattr(finder, "find_distributions")]
    if finders != [importlib.machinery.PathFinder]:
        return False
    return not any(_may_advertise(entry or ".") for entry in (sys.path if path is None else path))


def _may_advertise(entry: str) -> bool:
    """Whether the ``sys.path`` entry *entry* may hold our entry points."""
    if entry.lower().endswith(".egg") or (os.path.exists(entry) and not os.path.isdir(entry)):
        return True
    try:
        names = os.listdir(entry)
    except OSError:  # missing or unreadable: importlib.metadata finds nothing there either
        return False
    for name in names:
        if name.lower().endswith((".dist-info", ".egg-info")):
            try:
                with open(os.path.join(entry, name, "entry_points.txt"), "rb") as f:
                    if ENTRY_POINT_GROUP.encode() in f.read():
                        return True
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
                pass  # importlib.metadata reads no entry points from these either
            except OSError:
                return True
    return False


def entry_point_origin(entry: Any) -> str:
    """Where a record of the entry point *entry* comes from, in words.

    >>> from importlib.metadata import EntryPoint
    >>> entry_point_origin(EntryPoint("mine", "my_package.solvers:mine", ENTRY_POINT_GROUP))
    "entry point 'mine' (my_package.solvers:mine) of an unknown distribution"
    """
    dist = getattr(entry, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    version = getattr(dist, "version", None) if name else None
    brought = f"the distribution {name} {version}" if version else f"the distribution {name}" if name else ""
    return f"entry point {entry.name!r} ({entry.value}) of {brought or 'an unknown distribution'}"


def _return_to(directory: str) -> None:
    """Change back to *directory* if imported code moved us."""
    try:
        moved = os.getcwd() != directory
    except OSError:  # it removed the directory we were in
        moved = True
    if moved:
        os.chdir(directory)


def build_registry(
    plugins: Iterable[str] = (),
    *,
    entry_points: bool = True,
    guard: bool = True,
    timeout: float | None = None,
    wanted: str | None = None,
) -> Registry:
    """The in-tree algorithms, the entry points and the ad-hoc *plugins*.

    With *guard*, plugins and entry points are first imported in a child, within *timeout* seconds.
    """
    import hanoi_algorithms  # noqa: F401  (importing the package registers every in-tree module)

    specs = [resolve_spec(spec) for spec in plugins]
    installed = entry_points and bool(installed_entry_points())
    described: list[Algorithm] = []
    if guard and (specs or installed):
        from hanoi_harness.registry import DEFAULT_TIMEOUT_S
        from hanoi_harness.registry.probe import probe

        described = probe(specs, timeout=DEFAULT_TIMEOUT_S if timeout is None else timeout, entry_points=installed)
    registry = Registry()
    for algorithm in REGISTRY:
        registry.add(algorithm)
    if installed and guard and wanted is not None and wanted in registry:
        for algorithm in described:
            if not algorithm.origin.startswith("plugin "):
                registry.add(algorithm)
    elif installed:
        load_entry_points(registry)
    for spec in specs:
        registry.add(load_plugin(spec))
    return registry
