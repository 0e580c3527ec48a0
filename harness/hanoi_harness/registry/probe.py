"""Plugins imported first in a child process, where they can do no harm."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from hanoi_harness.core.puzzle import RULES, Puzzle
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import DEFAULT_TIMEOUT_S
from hanoi_harness.registry.record import CONFIGURATIONS, Algorithm, Citation, FinalPeg
from hanoi_harness.registry.sources import REGISTRY, Registry, installed_entry_points, resolve_spec

# The child's machinery is imported where a child is started: `hanoi list` of the in-tree
# algorithms starts none, and its start-up is the point.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess

MAX_ANSWER = 1 << 24  #: 16 MiB: the most the child may write, far more than its records need.

MAX_PEGS = 1 << 16  #: The most pegs a described record's puzzle may have: a list each.


def probe(
    specs: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT_S, entry_points: bool = False, echo: bool = False
) -> list[Algorithm]:
    """Import *specs* (and *entry_points*) in a child; return their records.

    With *echo*, what they printed is written on stderr here.
    """
    import subprocess
    import tempfile

    from hanoi_harness import process

    specs = [resolve_spec(spec) for spec in specs]
    argv = [json.dumps({"specs": specs, "entry_points": entry_points})]
    with tempfile.TemporaryFile() as errors:
        proc = process.start(
            process.python_command("hanoi_harness.registry.probe", *argv),
            env=process.python_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
        try:
            lines, finished = _answer(proc, process.deadline_after(timeout))
        finally:
            code = process.stop(proc)
        errors.seek(0)
        printed = errors.read()
    said = [line.strip() for line in printed[-4096:].decode(errors="replace").splitlines() if line.strip()]
    found = _records(lines, finished, code, specs, timeout, said[-1][:200] if said else "")
    if echo:  # what the plugins printed as they were imported, as if imported here
        sys.stderr.write(printed.decode(errors="replace"))
    return found


def probe_each(specs: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT_S) -> dict[str, UsageError | None]:
    """Import each of *specs* in a child of its own; each refusal or None."""
    import threading

    found: dict[str, UsageError | None] = {}

    def one(spec: str) -> None:
        try:
            probe([spec], timeout=timeout)
        except UsageError as exc:
            found[spec] = exc
        else:
            found[spec] = None

    threads = [threading.Thread(target=one, args=(spec,), name=f"probe-{spec}", daemon=True) for spec in specs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {spec: found.get(spec, UsageError(f"plugin {spec!r}: its import could not be checked")) for spec in specs}


def _answer(proc: subprocess.Popen[bytes], deadline: float | None) -> tuple[list[str], bool]:
    """The child's lines, and whether it finished."""
    import select

    from hanoi_harness import process

    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    data = bytearray()
    while True:
        wait = process.wait_slice(deadline)
        if deadline is not None and wait <= 0:
            return data.decode(errors="replace").splitlines(), False
        if select.select([fd], [], [], min(wait, 0.5))[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk or len(data) > MAX_ANSWER:
                return data.decode(errors="replace").splitlines(), True
            data += chunk
        elif proc.poll() is not None and not select.select([fd], [], [], 0.05)[0]:
            return data.decode(errors="replace").splitlines(), True  # ended; a stray may hold the pipe


def _records(
    lines: list[str], finished: bool, code: int, specs: list[str], timeout: float, said: str
) -> list[Algorithm]:
    importing = "the entry points"
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "importing":
            importing = f"plugin {specs[int(rest)]!r}" if rest.isdigit() and int(rest) < len(specs) else rest
        elif kind == "error":
            raise UsageError(rest)
        elif kind == "records" and finished:
            try:
                return [described(item) for item in json.loads(rest)]
            except (ValueError, TypeError, KeyError, UsageError) as exc:
                raise UsageError(f"{importing}: its records could not be read: {exc}") from None
    if not finished:
        raise UsageError(f"{importing}: importing it took more than {timeout:g} s; it was stopped")
    from hanoi_harness import process

    raise UsageError(
        f"{importing}: importing it ended the process ({process.exit_status(code)})" + (f": {said}" if said else "")
    )


def describe(algorithm: Algorithm) -> dict[str, Any]:
    """The metadata of *algorithm*, but functions and labels, as JSON data."""
    source = algorithm.source
    return {
        "name": algorithm.name,
        "summary": algorithm.summary,
        "source": None if source is None else [source.author, source.title, source.site, source.year],
        "family": algorithm.family,
        "min_n": algorithm.min_n,
        "min_n_reason": algorithm.min_n_reason,
        "max_n": algorithm.max_n,
        "max_n_reason": algorithm.max_n_reason,
        "space": algorithm.space,
        "time": algorithm.time,
        "final_peg": [algorithm.final_peg.odd, algorithm.final_peg.even],
        "puzzle": [algorithm.puzzle.pegs, algorithm.puzzle.rule],
        "reconstruction": algorithm.reconstruction,
        "solve_from": algorithm.solve_from is not None,
        "solve_for": algorithm.solve_for is not None,
        "configurations": algorithm.configurations,
        "chunks": algorithm.chunks,
        "origin": algorithm.origin,
    }


def described(data: dict[str, Any]) -> Algorithm:
    """The record :func:`describe` wrote; its functions run elsewhere only."""
    texts = ("name", "summary", "family", "min_n_reason", "max_n_reason", "space", "time", "origin")
    if not all(isinstance(data[key], str) for key in texts):
        raise ValueError("a text field is not text")
    if not _whole(data["min_n"]) or not (data["max_n"] is None or _whole(data["max_n"])):
        raise ValueError("a limit on n is not a whole number")
    odd, even = data["final_peg"]
    if not all(peg is None or _whole(peg) for peg in (odd, even)):
        raise ValueError("final_peg is not a peg number or null")
    pegs, rule = data["puzzle"]
    if not _whole(pegs) or pegs > MAX_PEGS or rule not in RULES:
        raise ValueError(f"puzzle is not 3 to {MAX_PEGS} pegs and one of the rules {', '.join(RULES)}")
    if data["configurations"] not in CONFIGURATIONS:
        raise ValueError(f"configurations is not one of {', '.join(CONFIGURATIONS)}")
    source = data["source"]
    if source is not None and not (len(source) == 4 and all(isinstance(part, str) for part in source)):
        raise ValueError("source is not four texts")
    name = data["name"]
    return Algorithm(
        name=name,
        solve=_elsewhere(name),
        summary=data["summary"],
        source=None if source is None else Citation(*source),
        family=data["family"],
        min_n=data["min_n"],
        min_n_reason=data["min_n_reason"],
        max_n=data["max_n"],
        max_n_reason=data["max_n_reason"],
        space=data["space"],
        time=data["time"],
        final_peg=FinalPeg(odd=odd, even=even),
        puzzle=Puzzle(pegs=pegs, rule=rule),
        reconstruction=bool(data["reconstruction"]),
        solve_from=_elsewhere(name) if data["solve_from"] is True else None,
        solve_for=_elsewhere(name) if data["solve_for"] is True else None,
        configurations=data["configurations"],
        chunks=data["chunks"] is True,
        origin=data["origin"],
    )


def own_plugins(algorithm: Algorithm) -> tuple[str, ...]:
    """The ``--plugin`` specs *algorithm*'s process loads: only its own.

    >>> from dataclasses import replace
    >>> record = Algorithm(name="mine", solve=print, summary="", origin="plugin /work/mine.py:mine")
    >>> own_plugins(record), own_plugins(replace(record, origin="in-tree hanoi_algorithms.x"))
    (('/work/mine.py:mine',), ())
    """
    prefix = "plugin "
    return (algorithm.origin[len(prefix) :],) if algorithm.origin.startswith(prefix) else ()


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def _elsewhere(name: str) -> Any:
    def solve(*args: Any) -> Any:
        raise UsageError(f"{name} runs in its own process only: this record holds its metadata")

    return solve


def catalog(specs: Sequence[str] = (), *, timeout: float = DEFAULT_TIMEOUT_S) -> Registry:
    """Every algorithm, without importing any code but the harness's.

    Entry points and *specs* are described by :func:`probe`, in a child.
    """
    key = tuple(resolve_spec(spec) for spec in specs)
    if key not in _CATALOGS:
        _CATALOGS[key] = _catalog(key, timeout)
    return _CATALOGS[key]


_CATALOGS: dict[tuple[str, ...], Registry] = {}


def _catalog(specs: tuple[str, ...], timeout: float) -> Registry:
    import hanoi_algorithms  # noqa: F401  (registers the in-tree modules)

    registry = Registry()
    for algorithm in REGISTRY:
        registry.add(algorithm)
    if specs or installed_entry_points():
        for algorithm in probe(specs, timeout=timeout, entry_points=True, echo=True):
            registry.add(algorithm)
    return registry


def main(argv: Sequence[str]) -> int:  # pragma: no cover - the importing child (tests/registry/test_registry.py)
    """Run the child: import, then print the records described."""
    from hanoi_harness import process

    config = json.loads(argv[0])
    process.child_start()
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what the plugins print goes to stderr, not into the answer

    def say(line: str) -> None:
        answer.write(line + "\n")
        answer.flush()

    import hanoi_algorithms  # noqa: F401
    from hanoi_harness.registry.sources import load_entry_points, load_plugin

    registry = Registry()
    importing = ["the entry points"]

    def begin(what: str, said: str) -> None:
        importing[0] = what
        say(f"importing {said}")

    try:
        if config["entry_points"]:
            begin("the entry points", "the entry points")
            load_entry_points(registry, on_import=lambda origin: begin(origin, origin))
        for index, spec in enumerate(config["specs"]):
            begin(f"plugin {spec!r}", str(index))
            registry.add(load_plugin(spec))
    except UsageError as exc:
        say("error " + " ".join(str(exc).split()))
        return 2
    except KeyboardInterrupt:  # Ctrl-C never reaches this process (child_start): the import raised it itself
        say(f"error {importing[0]} failed to import: KeyboardInterrupt, raised by its own code")
        return 2
    say("records " + json.dumps([describe(algorithm) for algorithm in registry]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
