"""Progress on stderr for long runs: a tqdm bar when stderr is a terminal, nothing otherwise.

One :class:`Bar` serves every command: ``hanoi verify`` (algorithms done, or moves verified
with ``--workers``) and the phases of ``hanoi bench`` (its ``phase``, ``step`` and ``close``
are the hooks a bench run reports to).  Messages that must be seen whatever stderr is (a
worker that died, say) go through :meth:`Bar.say`, above the bar when there is one.
"""

from __future__ import annotations

import sys
from typing import IO, Any


class Bar:
    """Progress bars on *file* (default stderr), one per phase, when it is a terminal; silent otherwise.

    *unit* names what is counted (``"run"``, ``"move"``); *unit_scale* shows large counts as
    1.2M.  *enabled* forces the bars on or off (default: whether *file* is a terminal).
    ``prefix`` is put before each phase's description.

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
    ) -> None:
        self.file = file
        self.unit = unit
        self.unit_scale = unit_scale
        self.prefix = prefix
        self.enabled = self._stream().isatty() if enabled is None else enabled
        self.bar: Any = None

    def _stream(self) -> IO[str]:
        return self.file if self.file is not None else sys.stderr  # looked up late: tests replace sys.stderr

    def phase(self, description: str, total: int | None) -> None:
        """Start a new bar for a phase called *description* of *total* units (None when unknown)."""
        self.close()
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
        """Count one unit of the current phase done, labelled *label* (an algorithm's name, a case)."""
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(1)

    def advance(self, count: int) -> None:
        """Count *count* units of the current phase done."""
        if self.bar is not None:
            self.bar.update(count)

    def say(self, message: str) -> None:
        """Print *message* as a line on the stream, above the bar when there is one, whatever the stream is."""
        if self.bar is not None:
            self.bar.write(message, file=self._stream())
        else:
            print(message, file=self._stream())

    def close(self) -> None:
        """End the current bar, if any."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
