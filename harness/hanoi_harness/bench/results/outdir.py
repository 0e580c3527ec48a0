"""The output directory of a bench run or a report, replaced whole.

A run stages its set beside ``--out`` and swaps it in; it replaces only a set with its marker.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from hanoi_harness.bench.results.resultset import RESULTS_FILE, load
from hanoi_harness.errors import UsageError

MARKER = ".hanoi-bench.json"
MARKER_NOTE = (
    "Written by 'hanoi bench': this directory is a result set, replaced whole by the next 'hanoi bench' or "
    "'hanoi report' into it. A file added here that is not listed below makes them refuse to replace it."
)
MARKER_FORMAT = 1


def seal(directory: Path) -> None:
    """Write *directory*'s marker: its files, and its nested sets."""
    files, sets = [], []
    for entry in sorted(directory.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            if not (entry / MARKER).is_file():
                raise ValueError(f"{entry} is not a sealed result set")
            sets.append(entry.name)
        elif entry.name != MARKER:
            files.append(entry.name)
    text = json.dumps({"generated_by": MARKER_NOTE, "marker": MARKER_FORMAT, "files": files, "sets": sets}, indent=2)
    (directory / MARKER).write_text(text + "\n")


def _read_marker(directory: Path) -> tuple[set[str], set[str]]:
    try:
        data = json.loads((directory / MARKER).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("marker") != MARKER_FORMAT:
        raise ValueError(f"not a marker of format {MARKER_FORMAT}")
    listed = []
    for key in ("files", "sets"):
        names = data.get(key, [])
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError(f"{key}: expected a list of file names")
        if any(name in ("", ".", "..") or "/" in name or "\0" in name for name in names):
            raise ValueError(f"{key}: a name that is not a file name")
        listed.append(set(names))
    return listed[0], listed[1]


def why_not_ours(directory: Path) -> str:
    """Return why *directory* is not a result set that may be replaced."""
    if not (directory / MARKER).is_file():
        if (directory / RESULTS_FILE).exists():
            return (
                f"it holds a {RESULTS_FILE} but no {MARKER} marker, so it is not a result set this version of "
                "hanoi bench wrote (an older version's, or another tool's)"
            )
        return f"it is not empty and is not a result set of hanoi bench (no {MARKER} marker)"
    try:
        files, sets = _read_marker(directory)
    except ValueError as exc:
        return f"its marker does not read ({exc})"
    foreign = sorted(
        entry.name
        for entry in directory.iterdir()
        if entry.name != MARKER and entry.name not in (sets if entry.is_dir() and not entry.is_symlink() else files)
    )
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        return f"it holds files hanoi bench did not write: {shown}"
    for name in sorted(sets):
        nested = why_not_ours(directory / name) if (directory / name).is_dir() else ""
        if nested:
            return f"{name}/: {nested}"
    if (directory / RESULTS_FILE).exists():
        try:
            load(directory)
        except UsageError as exc:
            return f"its {RESULTS_FILE} does not read ({exc})"
    return ""


class OutDir:
    """The output directory *out*, claimed for one run."""

    def __init__(self, out: Path, label: str = "--out") -> None:
        self.out = out.resolve()  # before anything (a plugin, say) changes the working directory
        self.shown = f"{label} {str(out)!r}" if label else repr(str(out))
        self.lock_path = self.out.parent / f".{self.out.name}.lock"
        self.lock_fd: int | None = None
        self.staging: Path | None = None

    def __enter__(self) -> OutDir:
        out = self.out
        if out.exists() and not out.is_dir():
            raise UsageError(f"{self.shown} exists and is not a directory")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{self.shown}: cannot create its parent directory: {exc.strerror}") from None
        try:
            self._lock()
            self._clean_leftovers()
            if out.is_dir() and any(out.iterdir()) and (why := why_not_ours(out)):
                raise self._refuse(why)
            self.staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
            seal(self.staging)  # marked from the start: the next run can tell a killed run's leftover
        except OSError as exc:
            self._release()
            raise UsageError(f"{self.shown}: cannot write beside it ({exc.strerror})") from None
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._release()

    def _refuse(self, why: str) -> UsageError:
        return UsageError(f"{self.shown}: {why}; refusing to replace it (move it away, or give another --out)")

    def _lock(self) -> None:
        """Lock :attr:`lock_path`, or refuse when another run holds it."""
        while True:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode(errors="replace").strip()
                os.close(fd)
                by = f" (process {holder})" if holder.isdigit() else ""
                raise UsageError(
                    f"another hanoi bench or report{by} is writing {self.shown}; wait for it to end, or choose "
                    "another directory"
                ) from None
            # The holder removes the file as it ends: lock the file that is there now, not a removed one.
            with contextlib.suppress(FileNotFoundError):
                if os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino:
                    os.write(fd, f"{os.getpid()}\n".encode())
                    self.lock_fd = fd
                    return
            os.close(fd)

    def _clean_leftovers(self) -> None:
        """Remove a killed run's marked staging directory; put a set back."""
        for entry in self.out.parent.glob(f".{self.out.name}.*-*"):
            if not (entry / MARKER).is_file():
                continue
            if entry.name.startswith(f".{self.out.name}.old-") and not self.out.exists():
                os.rename(entry, self.out)
            elif entry.name.startswith((f".{self.out.name}.new-", f".{self.out.name}.old-")):
                shutil.rmtree(entry, ignore_errors=True)

    def commit(self, fill: Callable[[Path], None]) -> None:
        """Call *fill* on the staging directory, seal it, swap it in."""
        staging = self.staging
        if staging is None:
            raise RuntimeError("commit() outside the claim, or twice")
        try:
            fill(staging)
            seal(staging)
        except OSError as exc:
            raise UsageError(
                f"{self.shown}: writing the new results failed ({_describe(exc)}); the old ones are untouched"
            ) from None
        os.chmod(staging, 0o755)  # mkdtemp makes it 0700; a results directory is for everyone to read
        out = self.out
        if out.is_dir() and any(out.iterdir()) and (why := why_not_ours(out)):
            # Changed during the run: keep the new set beside it, under a name no run cleans up.
            kept = Path(tempfile.mkdtemp(prefix=f"{out.name}.new-", dir=out.parent))
            os.replace(staging, kept)
            self.staging = None
            raise self._refuse(f"it changed during the run ({why}); the new results are in {kept}")
        old = out.parent / f".{out.name}.old-{staging.name.rsplit('-', 1)[-1]}"
        try:
            if out.exists():
                os.rename(out, old)  # a mount point, say, cannot be moved
            try:
                os.rename(staging, out)
            except OSError:
                os.rename(old, out)
                raise
        except OSError as exc:
            raise UsageError(f"{self.shown}: cannot replace it ({_describe(exc)}); the old set is untouched") from None
        self.staging = None
        shutil.rmtree(old, ignore_errors=True)

    def _release(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self.lock_fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.lock_path)  # while it is still held: see _lock
            os.close(self.lock_fd)
            self.lock_fd = None


def _describe(exc: OSError) -> str:
    """Return *exc* in a few words: a full disk said so plainly.

    >>> _describe(OSError(28, "No space left on device"))
    'no space left on the device'
    """
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the device"
    return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
