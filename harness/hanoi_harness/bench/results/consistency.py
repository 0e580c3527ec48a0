"""Figures of a result file that contradict each other, refused."""

from __future__ import annotations

import math
from contextvars import ContextVar

READING: ContextVar[bool] = ContextVar("reading", default=False)  #: True while :func:`.resultset.load` reads.

ROUNDED = 1e-5  #: How far a kept round, written to 6 significant digits, may lie from the figures it meets.

DERIVED = 1e-9  #: How far a figure kept for readers may lie from the one computed again: a float's last bits.


def check(holds: bool, key: str, why: str) -> None:
    """Refuse the figure at *key*, saying *why*, unless it *holds*."""
    if READING.get() and not holds:
        raise ValueError(f".{key}: {why}")


def kept(written: float | None, computed: float | None, key: str, source: str) -> float | None:
    """Return *computed*, refusing a *written* figure at *key* that is not it."""
    same = written is None or (computed is not None and close(written, computed, 1e-12))
    shown = "none" if computed is None else f"{computed:g}"
    check(same, key, f"{written:g} is not what {source} give ({shown})" if written is not None else "")
    return computed


def close(a: float, b: float, absolute: float) -> bool:
    """Whether *a* and *b* are equal but for rounding.

    >>> close(1.0, 1.0 + 1e-12, 0.0), close(1.0, 1.001, 0.0)
    (True, False)
    """
    return math.isclose(a, b, rel_tol=DERIVED, abs_tol=absolute)
