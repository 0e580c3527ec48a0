"""How a conformance check fails: one message naming n, step, move, reason."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from hanoi_harness.core.puzzle import Config, format_config
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.record import Algorithm

HARNESS = Path(__file__).resolve().parent.parent
"""The folder of ``hanoi_harness``: its frames are never the algorithm's."""


class CheckFailed(AssertionError):
    """A conformance check found an algorithm break what its record declares."""


class Interrupted(Exception):
    """The algorithm raised KeyboardInterrupt or SystemExit: a crash too."""


class Recorder:
    """The moves (or chunks) *start()* yields; what it raises is kept.

    *start* is called on the first ``next``, so what the call raises is kept too.

    >>> def broken(n):
    ...     yield (1, 0, 2)
    ...     raise IndexError("no such peg")
    >>> recorder = Recorder(lambda: broken(1))
    >>> moves = iter(recorder)
    >>> next(moves)
    (1, 0, 2)
    >>> next(moves)
    Traceback (most recent call last):
    ...
    IndexError: no such peg
    >>> recorder.error
    IndexError('no such peg')
    """

    def __init__(self, start: Callable[[], Iterable[Any]]) -> None:
        self._start = start
        self.error: Exception | None = None

    def __iter__(self) -> Iterator[Any]:
        try:
            yield from self._start()
        except Exception as exc:  # the algorithm's: kept for the report, then on to the checker
            self.error = exc
            raise
        except (KeyboardInterrupt, SystemExit) as exc:  # the algorithm's too: it must not end the session
            self.error = Interrupted(f"{type(exc).__name__}: {exc}")
            self.error.__traceback__ = exc.__traceback__
            raise self.error from exc


def where(n: int, ends: tuple[Config, Config] | None = None) -> str:
    """Name a run: its n, and its start and goal unless they are the default.

    >>> where(3), where(2, ((0, 0), (1, 1)))
    ('n = 3', 'n = 2, from 0,0 to 1,1')
    """
    if ends is None:
        return f"n = {n}"
    return f"n = {n}, from {format_config(ends[0])} to {format_config(ends[1])}"


def described(verdict: Verdict) -> str:
    """Return the verdict in one line, even if its objects' repr raises."""
    try:
        return verdict.describe()
    except Exception:  # a move whose repr or str raises
        return f"{verdict.status.replace('_', ' ')} at step {verdict.step}"


def verdict_failure(
    algorithm: Algorithm, verdict: Verdict, recorder: Recorder | None, run: str, also: str = ""
) -> CheckFailed:
    """Return the failure of *run* whose verdict is *verdict*, then *also*.

    A crash names where it was raised, from what *recorder* kept.
    """
    text = f"{run}: {described(verdict)}{also}"
    if verdict.status == "crashed" and recorder is not None and recorder.error is not None:
        text += "\n" + located(recorder.error, algorithm)
    return CheckFailed(text)


def crash_failure(algorithm: Algorithm, exc: Exception, run: str, doing: str) -> CheckFailed:
    """Return the failure of *run*, crashed *doing* (at step 3, say) by *exc*."""
    return CheckFailed(f"{run}: crashed {doing}: {type(exc).__name__}: {exc}\n{located(exc, algorithm)}")


def located(exc: BaseException, algorithm: Algorithm) -> str:
    """Say where in *algorithm*'s own code *exc* was raised, and its traceback.

    The traceback starts at the algorithm's first frame, else the first outside the harness.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    roots = own_code(algorithm)
    own = [i for i, frame in enumerate(frames) if _under(frame.filename, roots)]
    if not own:
        own = [i for i, frame in enumerate(frames) if not _under(frame.filename, (HARNESS,))]
    shown = frames[own[0] :] if own else frames
    lines = ["Traceback of the algorithm (most recent call last):\n", *traceback.format_list(shown)]
    lines += traceback.format_exception_only(type(exc), exc)
    head = f"  raised at {frames[own[-1]].filename}:{frames[own[-1]].lineno}, in {frames[own[-1]].name}" if own else ""
    return "\n".join(part for part in [head, "".join(lines).rstrip("\n")] if part)


def own_code(algorithm: Algorithm) -> tuple[Path, ...]:
    """Return the top-level packages (or files) of *algorithm*'s functions."""
    roots: list[Path] = []
    for function in (algorithm.solve, algorithm.solve_from, algorithm.solve_for):
        module = sys.modules.get(getattr(function, "__module__", None) or "")
        if module is None:
            continue
        top = sys.modules.get(module.__name__.partition(".")[0], module)
        paths = list(getattr(top, "__path__", None) or [getattr(top, "__file__", None) or ""])
        roots += [Path(path).resolve() for path in paths if path]
    return tuple(root for root in roots if root != HARNESS)


def _under(filename: str, roots: Iterable[Path]) -> bool:
    """Whether *filename* is one of *roots* or inside one of them."""
    path = Path(filename).resolve()
    return any(path == root or root in path.parents for root in roots)
