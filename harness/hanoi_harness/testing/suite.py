"""The conformance checks as one suite, and a way into anyone's tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing import basic, drawn, isolated, output, resumed
from hanoi_harness.testing.failures import CheckFailed
from hanoi_harness.testing.records import AlgorithmLike, most_disks, record_of

if TYPE_CHECKING:
    import pytest


def _always(algorithm: Algorithm) -> bool:
    return True


@dataclass(frozen=True)
class Check:
    """One conformance check: its *name*, and the function it runs on a record.

    Calling it with an algorithm runs it; it returns None or raises :class:`CheckFailed`.
    """

    name: str
    run: Callable[[Algorithm], None] = field(repr=False)
    applies: Callable[[Algorithm], bool] = field(default=_always, repr=False)
    timeout: float = field(default=isolated.TIMEOUT_S, repr=False, compare=False)

    @property
    def summary(self) -> str:
        """Return what the check asks: its function's first docstring line."""
        return (self.run.__doc__ or "").strip().splitlines()[0]

    def __call__(self, algorithm: AlgorithmLike) -> None:
        __tracebackhide__ = True  # pytest shows the message, not this frame
        spec = None if isolated.in_worker() else isolated.spec_of(algorithm)
        if spec is not None:
            worker = isolated.worker_for(spec, self.timeout)
            said = worker.ask({"check": self.name})
            if "failed" in said:
                name = worker.name or (algorithm if isinstance(algorithm, str) else record_of(algorithm).name)
                raise CheckFailed(
                    f"{name} failed the check {self.name!r}: {_once(worker.seen, self.name, said['failed'])}"
                )
            return
        self.inline(algorithm)

    def inline(self, algorithm: AlgorithmLike) -> None:
        """Run the check in this process, where a test may patch what it calls."""
        __tracebackhide__ = True
        record = record_of(algorithm)
        try:
            self.run(record)
        except CheckFailed as failed:
            raise CheckFailed(f"{record.name} failed the check {self.name!r}: {failed}") from None

    def __str__(self) -> str:
        return self.name


def _binary(algorithm: Algorithm) -> bool:
    """Tell whether each disk and peg of the round trip's run fits in a byte."""
    return algorithm.puzzle.pegs <= 256 and most_disks(algorithm, output.ROUND_TRIP_SIZE) <= 255


CHECKS: tuple[Check, ...] = (
    Check("legal", basic.legal),
    Check("optimal", basic.optimal),
    Check("final_peg", basic.final_peg),
    Check("limits", basic.limits),
    Check("deterministic", basic.deterministic),
    Check("streaming", output.streaming, output.streams),
    Check("solve_from", resumed.solve_from, lambda a: a.solve_from is not None),
    Check("from_to", resumed.from_to, lambda a: a.solve_for is not None),
    Check("drawn", drawn.drawn),
    Check("text_round_trip", output.text_round_trip),
    Check("binary_round_trip", output.binary_round_trip, _binary),
)
"""Every conformance check, in the order they run."""

NAMES = tuple(check.name for check in CHECKS)


def checks_for(algorithm: AlgorithmLike, names: Iterable[str] | None = None) -> list[Check]:
    """Return the checks that apply to *algorithm*: all, or those of *names*.

    >>> [check.name for check in checks_for("bitwise")]  # doctest: +NORMALIZE_WHITESPACE
    ['legal', 'optimal', 'final_peg', 'limits', 'deterministic', 'streaming', 'solve_from', 'drawn',
     'text_round_trip', 'binary_round_trip']
    >>> [check.name for check in checks_for("tree_array", ["streaming", "legal"])]
    ['legal']
    """
    record = record_of(algorithm)
    return [check for check in _chosen(names) if check.applies(record)]


def _chosen(names: Iterable[str] | None) -> tuple[Check, ...]:
    """The checks named by *names* (all when None), in the suite's order."""
    if names is None:
        return CHECKS
    wanted = set(names)
    unknown = sorted(wanted - set(NAMES))
    if unknown:
        raise UsageError(f"unknown check {', '.join(map(repr, unknown))}: the checks are {', '.join(NAMES)}")
    return tuple(check for check in CHECKS if check.name in wanted)


def _once(seen: dict[str, str], check: str, failed: str) -> str:
    """Return *failed* in full the first time its first line is seen.

    Later checks with the same cause get that line and the check that told it.

    >>> seen = {}
    >>> _once(seen, "legal", "n = 3: crashed at step 2\\nTraceback ...")
    'n = 3: crashed at step 2\\nTraceback ...'
    >>> _once(seen, "optimal", "n = 3: crashed at step 2\\nTraceback ...")
    "n = 3: crashed at step 2 (the same failure as the check 'legal', told there in full)"
    """
    head = failed.splitlines()[0] if failed else failed
    first = seen.setdefault(head, check)
    return failed if first == check else f"{head} (the same failure as the check {first!r}, told there in full)"


LOAD = Check("load", lambda algorithm: None)  #: The one test of a name that cannot be loaded: it fails with the reason.


def _cases(algorithm: AlgorithmLike, checks: Iterable[str] | None, timeout: float) -> list[tuple[Any, str, Check]]:
    """Return the (algorithm, name, check) of each test of *algorithm*.

    A name is loaded in its worker only; one that cannot be gets :data:`LOAD`.
    """
    if not isinstance(algorithm, str) or isolated.in_worker():
        record = record_of(algorithm)
        return [(record, record.name, replace(check, timeout=timeout)) for check in checks_for(record, checks)]
    chosen = {check.name for check in _chosen(checks)}
    worker = isolated.worker_for(algorithm, timeout)
    if "failed" in worker.ask({"check": LOAD.name}):
        return [(algorithm, algorithm, replace(LOAD, timeout=timeout))]
    return [
        (algorithm, worker.name, replace(check, timeout=timeout))
        for check in CHECKS
        if check.name in worker.checks and check.name in chosen
    ]


def parametrize_with_checks(
    algorithms: Iterable[AlgorithmLike], *, checks: Iterable[str] | None = None, timeout: float = isolated.TIMEOUT_S
) -> pytest.MarkDecorator:
    """Return a ``pytest.mark.parametrize`` of ``(algorithm, check)`` pairs.

    *algorithms* are generator functions, records or registered names; *checks* names the checks
    (default all). Each test's id is ``NAME-CHECK``.
    """
    import pytest  # here: the module is imported by the plugin, in every pytest run

    chosen = list(algorithms)
    if not chosen:
        raise UsageError("parametrize_with_checks needs at least one algorithm")
    cases = [
        pytest.param(algorithm, check, id=f"{name}-{check.name}")
        for each in chosen
        for algorithm, name, check in _cases(each, checks, timeout)
    ]
    return pytest.mark.parametrize(("algorithm", "check"), cases)
