"""Progress on stderr for long runs: a bar, plain lines or nothing."""

from __future__ import annotations

import sys
import time
from typing import IO, Any

PLAIN_EVERY_S = 30.0  #: The least time, in seconds, between two plain progress lines.


class Progress:
    """The hooks a long run reports to; these do nothing, :class:`Bar` shows."""

    def phase(self, description: str, total: int | None) -> None:
        """Start a phase named *description* of *total* steps (None: unknown)."""

    def step(self, label: str) -> None:
        """One unit, named *label*, is done."""

    def close(self) -> None:
        """The run is over."""


class Bar(Progress):
    """Progress bars on *file* (stderr), one per phase, when it is a terminal.

    *enabled* forces them on or off; *plain* prints lines every :data:`PLAIN_EVERY_S` instead.

    >>> import io
    >>> out = io.StringIO()
    >>> bar = Bar(file=out, enabled=True)
    >>> bar.phase("timing", 2)
    >>> bar.step("recursive-3")
    >>> bar.say("hanoi: a line above the bar")
    >>> bar.close()
    >>> "timing" in out.getvalue() and "a line above the bar" in out.getvalue()
    True
    """

    def __init__(
        self,
        *,
        unit: str = "run",
        unit_scale: bool = False,
        prefix: str = "",
        file: IO[str] | None = None,
        enabled: bool | None = None,
        plain: bool = False,
    ) -> None:
        self.file = file
        self.unit = unit
        self.unit_scale = unit_scale
        self.prefix = prefix
        self.enabled = self._stream().isatty() if enabled is None else enabled
        self.plain = plain and not self.enabled
        self.bar: Any = None
        self.lines = _Lines()

    def _stream(self) -> IO[str]:
        return self.file if self.file is not None else sys.stderr  # looked up late: tests replace sys.stderr

    def phase(self, description: str, total: int | None) -> None:
        """Start a new bar for a phase *description* of *total* units (or None)."""
        self.close()
        if self.plain:
            self.lines = _Lines(self.prefix + description, total)
            print(self.lines.start(), file=self._stream(), flush=True)
        if self.enabled:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                desc=self.prefix + description,
                unit=self.unit,
                unit_scale=self.unit_scale,
                file=self._stream(),
                leave=False,
            )

    def step(self, label: str) -> None:
        """Count one unit of the current phase done, labelled *label*."""
        if self.plain and (line := self.lines.step(label)):
            print(line, file=self._stream(), flush=True)
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(1)

    def advance(self, count: int) -> None:
        """Count *count* units of the current phase done."""
        if self.bar is not None:
            self.bar.update(count)

    def say(self, message: str) -> None:
        """Print *message* as a line on the stream, above the bar if any."""
        if self.bar is not None:
            self.bar.write(message, file=self._stream())
        else:
            print(message, file=self._stream())

    def close(self) -> None:
        """End the current bar, if any."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class _Lines:
    """The plain progress lines of a phase *description* of *total* units."""

    def __init__(self, description: str = "", total: int | None = None) -> None:
        self.description = description
        self.total = total
        self.done = 0
        self.last = time.monotonic()

    def start(self) -> str:
        """Return the line that opens the phase."""
        of = f" ({self.total} to do)" if self.total is not None else ""
        return f"{self.description}{of}"

    def step(self, label: str) -> str | None:
        """Count one unit done; return a line if one is due, else None."""
        self.done += 1
        now = time.monotonic()
        if now - self.last < PLAIN_EVERY_S and self.done != self.total:
            return None
        self.last = now
        of = f"/{self.total}" if self.total is not None else ""
        return f"{self.description}: {self.done}{of} ({label})"
