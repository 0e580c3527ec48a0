"""Where the figures come from: the machine, the interpreter and the code."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

import msgspec

from hanoi_harness.bench.counts.measure import Valgrind, find_valgrind

DISTRIBUTION = "hanoi-harness"
PACKAGE_DIR = Path(__file__).resolve().parent.parent  #: The ``hanoi_harness`` folder: in a checkout, or installed.

GIT_TIMEOUT_S = 10.0


class Environment(msgspec.Struct, frozen=True):
    """What one run's figures depend on, as JSON-ready fields."""

    python: str = ""
    implementation: str = ""
    python_build: str = ""
    numpy: str = ""
    libc: str = ""
    arch: str = ""
    os: str = ""
    cpu: str = ""
    cores: Annotated[int, msgspec.Meta(ge=1, le=2**20)] | None = None
    valgrind: str = ""
    valgrind_missing: str = ""
    load: Annotated[tuple[Annotated[float, msgspec.Meta(ge=0.0, le=1e6)], ...], msgspec.Meta(max_length=3)] = ()
    commit: str = ""
    dirty: bool = False
    version: str = ""
    branch: str = ""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Environment:
        """The environment in *data*; a field it lacks is empty.

        >>> e = Environment("3.11.7", "CPython", "3.11.7 (main) [GCC]", "2.1.0", "glibc 2.36", "x86_64", "Linux",
        ...                 "AMD EPYC", 2, load=(0.5, 0.4, 0.3))
        >>> Environment.from_dict(msgspec.to_builtins(e)) == e
        True
        """
        return msgspec.convert(data, cls)

    def describe(self) -> str:
        """One line for a report: interpreter, numpy, valgrind, CPU, load, commit.

        >>> print(Environment("3.11.7", "CPython", "b", "2.1.0", "glibc 2.36", "x86_64", "Linux 6.1", "AMD EPYC", 2,
        ...             valgrind="valgrind-3.19.0", load=(1.5, 1.0, 0.5), commit="0123456789abcdef").describe())
        CPython 3.11.7, numpy 2.1.0, valgrind-3.19.0, glibc 2.36, AMD EPYC (2 cores, x86_64), Linux 6.1,
        load 1.5 / 1 / 0.5, commit 0123456789ab
        """
        parts = [
            f"{self.implementation} {self.python}",
            f"numpy {self.numpy}",
            self.valgrind or "no valgrind",
            self.libc,
            f"{self.cpu} ({self.cores} cores, {self.arch})",
            self.os,
        ]
        if self.load:
            parts.append("load " + " / ".join(f"{value:g}" for value in self.load))
        if self.commit:
            parts.append(f"commit {self.commit[:12]}{' (dirty)' if self.dirty else ''}")
        elif self.version:
            parts.append(f"version {self.version}")
        return ", ".join(part for part in parts if part)


def capture(valgrind: Valgrind | str | None = None, cpu: str = "") -> Environment:
    """The environment of this process now."""
    import numpy

    found = find_valgrind() if valgrind is None else valgrind
    code = source()
    libc = " ".join(part for part in platform.libc_ver() if part)
    return Environment(
        python=platform.python_version(),
        implementation=platform.python_implementation(),
        python_build=sys.version.replace("\n", " "),
        numpy=numpy.__version__,
        libc=libc,
        arch=platform.machine(),
        os=f"{platform.system()} {platform.release()}",
        cpu=cpu or cpu_model(),
        cores=os.cpu_count(),
        valgrind=found.version if isinstance(found, Valgrind) else "",
        valgrind_missing=found if isinstance(found, str) else "",
        load=tuple(round(value, 2) for value in os.getloadavg()) if hasattr(os, "getloadavg") else (),
        commit=code["id"] or "",
        dirty=code["dirty"],
        version=code["version"],
        branch=code["branch"],
    )


CPU_KEYS = ("model name", "hardware", "processor", "cpu model", "model", "cpu")
"""The lines of ``/proc/cpuinfo`` that name the CPU's model, by preference: x86, then ARM, MIPS, POWER."""

SYSCTL = "/usr/sbin/sysctl"  #: Where macOS keeps ``sysctl``, which knows the CPU's model name.


@functools.cache
def cpu_model() -> str:
    """The CPU's model name, as the operating system gives it."""
    mac = _sysctl() if sys.platform == "darwin" else ""
    return _proc_cpuinfo(Path("/proc/cpuinfo")) or mac or platform.processor() or platform.machine()


def _proc_cpuinfo(path: Path) -> str:
    """The CPU's model named in the ``/proc/cpuinfo`` at *path*, or "".

    >>> _proc_cpuinfo(Path("/no/such/cpuinfo"))
    ''
    """
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        key, value = key.strip().lower(), " ".join(value.split())
        if sep and value and key not in found:
            found[key] = value
    # A bare number is no model's name: x86's "processor : 0" and "model : 1" are an index and a model number.
    named = (found[key] for key in CPU_KEYS if key in found and not found[key].isdigit())
    return next(named, "")


def _sysctl() -> str:  # pragma: no cover - macOS only
    """The CPU's model name as macOS's ``sysctl`` gives it, or ""."""
    try:
        done = subprocess.run([SYSCTL, "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def machine_info() -> dict[str, Any]:
    """What pytest-benchmark records of the machine, read our own way."""
    return {
        "node": platform.node(),
        "processor": platform.processor(),
        "machine": platform.machine(),
        "python_compiler": platform.python_compiler(),
        "python_implementation": platform.python_implementation(),
        "python_implementation_version": platform.python_version(),
        "python_version": platform.python_version(),
        "python_build": list(platform.python_build()),
        "release": platform.release(),
        "system": platform.system(),
        "cpu": {"brand_raw": cpu_model(), "arch_string_raw": platform.machine(), "count": os.cpu_count()},
    }


def commit_info() -> dict[str, Any]:
    """What pytest-benchmark records of the code: the package's commit."""
    code = source()
    return {
        "id": code["id"] or "unversioned",
        "time": None,
        "author_time": None,
        "dirty": code["dirty"],
        "project": DISTRIBUTION,
        "branch": code["branch"] or "(unknown)",
    }


def source() -> dict[str, Any]:
    """Return the code's provenance.

    >>> sorted(source())
    ['branch', 'dirty', 'id', 'version']
    """
    found: dict[str, Any] = {"version": version(), "id": None, "branch": "", "dirty": False}
    # A wheel installed in a venv inside someone's repository is inside a work tree too: the package's own
    # files must be tracked there for the commit to be theirs.
    if _git("ls-files", "--error-unmatch", "__init__.py") is None:
        return found
    found["id"] = _git("rev-parse", "HEAD")
    found["branch"] = _git("rev-parse", "--abbrev-ref", "HEAD") or ""
    found["dirty"] = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return found


def version() -> str:
    """Return the installed version of hanoi-harness."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def _git(*args: str) -> str | None:
    """Return what ``git ARGS`` prints in the package's folder, stripped."""
    try:
        done = subprocess.run(
            ["git", "--no-optional-locks", "-C", str(PACKAGE_DIR), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None
