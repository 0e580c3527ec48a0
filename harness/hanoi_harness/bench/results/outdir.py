"""The output directory of a bench run or a report.

Recognised, checked up front, locked, replaced in one step.

A run replaces its ``--out`` directory whole, so it takes only a directory that
is a result set it wrote.  Every set carries a marker, :data:`MARKER`, that
lists the files the run wrote and the result sets nested in it (a full run's
``quick/``).  A directory is replaced only when it is new, empty, or carries a
readable marker, holds nothing the marker does not list (a file added beside
the results is the user's), and its ``results.json`` reads.  Anything else is
refused in one line before any measuring.

Claiming the directory (:class:`OutDir`, before the run) also:

* takes an exclusive lock (``fcntl.flock`` on ``.NAME.lock`` beside it), so a
  second run into the same directory is refused at once rather than racing
  the first to the swap;
* refuses a mount point (a rename cannot move one) and a directory it could
  not empty afterwards;
* creates the staging directory beside it, which proves the parent writable
  and on the same file system (the swap is a rename), and checks the free
  space for the run's files, so a full disk is found before the run, not after.

:meth:`OutDir.commit` fills the staging directory, writes its marker, checks
the old directory again (a run takes minutes) and exchanges the two in one
step with ``renameat2(RENAME_EXCHANGE)`` where Linux offers it; elsewhere it
takes two renames, with a window of microseconds without the directory.  The
old set is deleted last.  Until then an exception, Ctrl-C or SIGKILL leaves
the old directory byte for byte as it was; what a killed run leaves beside it
(its staging directory) carries a marker and is removed by the next run.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import psutil

from hanoi_harness.bench.results.resultset import RESULTS_FILE
from hanoi_harness.bench.results.schema import load
from hanoi_harness.bench.results.validate import Fields, read_json
from hanoi_harness.errors import UsageError

MARKER = ".hanoi-bench.json"
MARKER_NOTE = (
    "Written by 'hanoi bench': this directory is a result set, replaced whole by the next 'hanoi bench' or "
    "'hanoi report' into it. A file added here that is not listed below makes them refuse to replace it."
)
MARKER_FORMAT = 1

SPACE_MARGIN = 2
"""Free space asked for: twice the estimate of the run's files, which is itself generous (see the callers)."""


def seal(directory: Path) -> None:
    """Write *directory*'s marker.

    The files in it, and its subdirectories, each a sealed result set itself.

    Raises :class:`ValueError` for a subdirectory without a marker: only a
    result set may nest in another.
    """
    files, sets = [], []
    for entry in sorted(directory.iterdir()):
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            if not (entry / MARKER).is_file():
                raise ValueError(f"{entry} is not a sealed result set")
            sets.append(entry.name)
        else:
            files.append(entry.name)
    text = json.dumps({"generated_by": MARKER_NOTE, "marker": MARKER_FORMAT, "files": files, "sets": sets}, indent=2)
    (directory / MARKER).write_text(text + "\n")


def why_not_ours(directory: Path) -> str:
    """Return why *directory* is not a result set that may be replaced.

    Or "" when it is one.

    It is one when its marker reads, every entry in it is listed there (a
    listed file may be missing), each nested set is one too, and its
    ``results.json``, when it has one, reads.
    """
    marker = directory / MARKER
    if not marker.is_file():
        if (directory / RESULTS_FILE).exists():
            return (
                f"it holds a {RESULTS_FILE} but no {MARKER} marker, so it is not a result set this version of "
                "hanoi bench wrote (an older version's, or another tool's)"
            )
        return f"it is not empty and is not a result set of hanoi bench (no {MARKER} marker)"
    try:
        fields = Fields(read_json(marker), "")
        fields.integer("marker", MARKER_FORMAT, MARKER_FORMAT)
        files, sets = set(_names(fields, "files")), set(_names(fields, "sets"))
    except UsageError as exc:
        return f"its marker does not read ({exc})"
    foreign = sorted(entry.name for entry in directory.iterdir() if not _listed(entry, files, sets))
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


def _marked(directory: Path) -> bool:
    """Whether *directory* carries a marker that reads.

    What it lists aside: a killed run's directory may hold more.
    """
    try:
        Fields(read_json(directory / MARKER), "").integer("marker", MARKER_FORMAT, MARKER_FORMAT)
    except UsageError:
        return False
    return True


def _listed(entry: Path, files: set[str], sets: set[str]) -> bool:
    """Whether a marker lists *entry*.

    The marker itself, a listed file as a file, a listed set as a directory.
    """
    if entry.is_dir() and not entry.is_symlink():
        return entry.name in sets
    return entry.name in files or entry.name == MARKER


def _names(fields: Fields, key: str) -> list[str]:
    """Return the entry names listed under *key* in a marker.

    Plain names, none of them a path.
    """
    names = fields.data.get(key, [])
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise UsageError(f"{key}: expected a list of file names")
    if any(name in ("", ".", "..") or "/" in name or "\0" in name for name in names):
        raise UsageError(f"{key}: a name that is not a file name")
    return names


class OutDir:
    """The output directory *out*.

    Claimed for one run that writes about *needed_bytes* into it.

    Use as a context manager: entering checks and locks it and creates the
    staging directory (one-line :class:`UsageError` for anything that would
    fail later), :meth:`commit` puts the new set in place, and leaving
    releases the lock and removes whatever was not committed.  *label* names
    the directory in messages (``"--out"`` for ``hanoi bench``).
    """

    def __init__(self, out: Path, needed_bytes: int, label: str = "--out") -> None:
        self.out = out.resolve()  # before anything (a plugin, say) changes the working directory
        self.needed_bytes = needed_bytes
        self.shown = f"{label} {str(out)!r}" if label else repr(str(out))
        self.lock_path = self.out.parent / f".{self.out.name}.lock"
        self.lock_fd: int | None = None
        self.staging: Path | None = None

    def __enter__(self) -> OutDir:
        try:
            self._check_kind()
            self._make_parent()
            self._lock()
            self._remove_leftovers()
            self._check_replaceable()
            self._make_staging()
            self._check_space()
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._release()

    # --- before the run -------------------------------------------------------------------------------------

    def _refuse(self, why: str) -> UsageError:
        return UsageError(f"{self.shown}: {why}; refusing to replace it (move it away, or give another --out)")

    def _check_kind(self) -> None:
        out = self.out
        if out.exists() and not out.is_dir():
            raise UsageError(f"{self.shown} exists and is not a directory")
        if out.is_dir() and _is_mount_point(out):
            raise UsageError(
                f"{self.shown} is a mount point: a result set is replaced by a rename, which cannot move a mount "
                "point; give a directory inside it"
            )

    def _make_parent(self) -> None:
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{self.shown}: cannot create its parent directory: {exc.strerror}") from None

    def _lock(self) -> None:
        """Take the lock on :attr:`lock_path`.

        Or refuse at once when another run holds it.
        """
        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                raise UsageError(f"{self.shown}: cannot write beside it ({exc.strerror})") from None
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
            # The run that held it removes the file as it ends: lock the file that is there now, not a removed one.
            try:
                current = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                current = False
            if current:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self.lock_fd = fd
                return
            os.close(fd)

    def _leftovers(self) -> list[Path]:
        prefix = f".{self.out.name}."
        parent = self.out.parent
        return [
            entry
            for entry in parent.iterdir()
            if entry.name.startswith(prefix) and entry.name[len(prefix) :].startswith(("new-", "old-"))
        ]

    def _remove_leftovers(self) -> None:
        """Remove what a killed run left beside the directory.

        When it is a result set's (it carries a marker).

        An old set moved aside by the two-rename swap, killed before the new
        one took its place, is put back instead.
        """
        for entry in self._leftovers():
            if not entry.is_dir() or entry.is_symlink() or not _marked(entry):
                continue
            if entry.name.startswith(f".{self.out.name}.old-") and not self.out.exists():
                os.rename(entry, self.out)
            else:
                shutil.rmtree(entry, ignore_errors=True)

    def _check_replaceable(self) -> None:
        out = self.out
        if not out.is_dir() or not any(out.iterdir()):
            return
        why = why_not_ours(out)
        if why:
            raise self._refuse(why)
        for directory in [out, *(path for path in out.rglob("*") if path.is_dir() and not path.is_symlink())]:
            if not os.access(directory, os.W_OK | os.X_OK):
                raise UsageError(f"{self.shown}: {directory} is not writable, so the old set could not be deleted")

    def _make_staging(self) -> None:
        try:
            staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.new-", dir=self.out.parent))
        except OSError as exc:
            raise UsageError(f"{self.shown}: cannot write beside it ({exc.strerror})") from None
        self.staging = staging
        seal(staging)  # marked from the start, so that the next run can tell a killed run's leftover

    def _check_space(self) -> None:
        free = shutil.disk_usage(self.out.parent).free
        wanted = SPACE_MARGIN * self.needed_bytes
        if free < wanted:
            raise UsageError(
                f"{self.shown}: {free / 2**20:.1f} MiB free on its file system, and this run writes up to "
                f"{self.needed_bytes / 2**20:.1f} MiB (twice that is asked for); free some space, or choose "
                "another directory"
            )

    # --- after the run --------------------------------------------------------------------------------------

    def commit(self, fill: Callable[[Path], None]) -> None:
        """Call *fill* on the staging directory.

        Seal it and put it in place of the directory, in one step.

        An :class:`OSError` while writing (a full disk, say) is one line; the
        old directory is then as it was.
        """
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
        self._swap(staging)

    def _swap(self, staging: Path) -> None:
        out = self.out
        if out.is_dir() and any(out.iterdir()):
            why = why_not_ours(out)
            if why:  # changed during the run: keep the new set beside it, under a name no run cleans up
                kept = out.parent / f"{out.name}.new-{secrets.token_hex(3)}"
                os.rename(staging, kept)
                self.staging = None
                raise self._refuse(f"it changed during the run ({why}); the new results are in {kept}")
        if not out.exists():
            os.rename(staging, out)
            old = None
        elif _exchange(staging, out):
            old = staging
        else:
            old = _swap_by_renames(staging, out)
        self.staging = None
        if old is not None:
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
    """Return *exc* in a few words: a full disk said so plainly."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the device"
    return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")


def _is_mount_point(path: Path) -> bool:
    """Whether *path* is a mount point, bind mounts included.

    Which :func:`os.path.ismount` does not see.
    """
    if os.path.ismount(path):
        return True
    try:
        mounted = {partition.mountpoint for partition in psutil.disk_partitions(all=True)}
    except OSError:
        return False
    return str(path) in mounted


RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _renameat2() -> Callable[..., int] | None:
    """Return libc's ``renameat2``, or None where there is none.

    Not Linux, or a C library without it.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]  # type: ignore[attr-defined]
    function.restype = ctypes.c_int  # type: ignore[attr-defined]
    return function


def _exchange(a: Path, b: Path) -> bool:
    """Exchange the directories *a* and *b* in one step.

    False when the system or file system cannot.
    """
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):  # an old kernel, or a file system without it
        return False
    raise OSError(code, os.strerror(code), str(a), None, str(b))


def _swap_by_renames(new: Path, out: Path) -> Path:
    """Put *new* in place of *out* by two renames.

    Return where the old *out* went (it is put back on failure).
    """
    old = out.parent / f".{out.name}.old-{os.getpid()}-{secrets.token_hex(4)}"
    os.rename(out, old)
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(old, out)
        raise
    return old
