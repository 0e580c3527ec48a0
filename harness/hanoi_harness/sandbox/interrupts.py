"""Ctrl-C, wherever it lands: it ends a command as one, with status 130.

Every interruption of a command ends it so.

Python raises KeyboardInterrupt wherever the main thread is. Code on the way can drop it (a
finalizer), disguise it (an interrupted import's RuntimeError) or swallow it (a library that
catches it and returns). It can also leave a mark that makes the process die by SIGINT after it
was handled.  Each has its counter here: :func:`redelivered_interrupts`,
:func:`interrupted`, :func:`interruption_wins` and :func:`forget_unhandled_interrupt`.
:func:`hanoi_harness.cli.main.main` uses all four; the benchmark also wraps its
phases that run libraries (pytest-benchmark, matplotlib) in the third.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

TYPE_CHECKING = False  # mypy reads it as True; typing itself is left out of a command's start-up
if TYPE_CHECKING:
    from typing import Any


@contextmanager
def redelivered_interrupts() -> Iterator[None]:
    """While a command runs, deliver again a Ctrl-C that Python would drop.

    Python drops it when it hits a finalizer.

    A KeyboardInterrupt raised inside a weakref callback or a ``__del__``
    (the garbage collector runs them at any allocation) cannot propagate:
    Python prints "Exception ignored in ..." and goes on, so the command
    would finish as if never interrupted.  This hook catches that case and interrupts the main
    thread again from a helper thread, once the hook has returned. An interrupt that came while
    the hook still ran would land in the hook and be dropped the same way (and it would, as soon
    as the thread starts).  The hook holds a lock until it returns; the thread waits for it.
    """
    previous = sys.unraisablehook
    hooked = threading.Lock()

    def redeliver() -> None:
        with hooked:  # taken once the hook has let it go; nothing it runs after that can be interrupted
            pass
        _thread.interrupt_main()

    def hook(unraisable: Any) -> None:
        with hooked:
            if isinstance(unraisable.exc_value, KeyboardInterrupt):
                threading.Thread(target=redeliver, daemon=True).start()
                return
        previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def interrupted(exc: BaseException) -> bool:
    """Tell whether *exc* is a KeyboardInterrupt or came while one was handled.

    It may have been raised directly or not while the interrupt was handled.

    Ctrl-C in the middle of an import can surface as a RuntimeError or an
    ImportError about a half-initialised module, raised while the
    KeyboardInterrupt is handled: its ``__context__`` holds the interrupt.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt:
    ...         raise RuntimeError("partially initialized module")
    ... except RuntimeError as exc:
    ...     interrupted(exc)
    True
    >>> interrupted(ValueError())
    False
    """
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        todo += [current.__cause__, current.__context__]
    return False


@contextmanager
def interruption_wins() -> Iterator[None]:
    """Within, Ctrl-C ends the block as :class:`KeyboardInterrupt`.

    It does so whatever code on the way made of it.

    Ctrl-C raises KeyboardInterrupt wherever the interpreter is, and code on the way may turn it
    into something else. An interrupted import inside matplotlib surfaces as a RuntimeError.
    Pytest (which :mod:`pytest-benchmark <hanoi_harness.bench.timing.measure>` times in) catches
    it and returns a status. When it lands in a finalizer during the run, pytest files it as a
    warning nobody sees, and the block ends as if nothing happened.  The SIGINT handler
    here notes that the signal came (and raises as Python's own does): an
    exception that ends the block after that is raised as the interruption it
    is, and so is a block that ends normally.  Outside the main thread, where
    no handler can be set, or when Ctrl-C is ignored, the block runs as it is.

    Without Ctrl-C, what the block raises goes through as it is (with one,
    doctest itself would stop: see tests/sandbox/test_interrupts.py):

    >>> with interruption_wins():
    ...     raise RuntimeError("a real failure")
    Traceback (most recent call last):
    RuntimeError: a real failure
    """
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield  # no handler can be set here, or Ctrl-C is ignored (a background job): nothing to tell apart
        return
    came = False

    def noted(signum: int, frame: FrameType | None) -> None:
        nonlocal came
        came = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, noted)
    try:
        yield
    except Exception as exc:
        if came:
            raise KeyboardInterrupt from exc
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    if came:
        raise KeyboardInterrupt


def forget_unhandled_interrupt() -> None:
    """Clear CPython's note of an unhandled Ctrl-C.

    Then a process that handled one exits with its own status.  CPython (3.8
    to 3.13 at least) notes a KeyboardInterrupt that leaves code run by
    ``exec`` or ``eval`` of a string as unhandled.  At exit it kills the
    process with SIGINT instead of returning its status, even though the
    interrupt was caught further up.

    :func:`collections.namedtuple` builds its class that way, and scipy.stats
    defines dozens.  So Ctrl-C during such an import made ``python -m
    hanoi_harness`` end by SIGINT (-2 to its parent) after printing
    "interrupted".  It happened often when Ctrl-C came as ``hanoi bench
    --quick`` went from timing to its statistics.  (The ``hanoi`` script
    exits with its status anyway.)  Running an empty string resets the note:
    CPython clears it each time it starts running a string.
    """
    exec("")  # run for its side effect on the interpreter's state alone
