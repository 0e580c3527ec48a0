"""Ctrl-C, wherever it lands: it ends a command as one, with status 130."""

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
    """While a command runs, deliver again a Ctrl-C a finalizer would drop."""
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
    """Clear CPython's note of an unhandled Ctrl-C: the exit status is ours."""
    exec("")  # run for its side effect on the interpreter's state alone
