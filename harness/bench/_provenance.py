"""Where the figures of a bench run came from: the machine, and the code that measured.

:func:`machine` describes the computer and the interpreter; :func:`source`
the code: the installed version of hanoi-harness, and the git commit of its
source when it runs from a checkout.  The commit is that of the package's own
files, never of the directory ``hanoi`` was started in (pytest-benchmark's
``commit_info`` is the latter: a user's own repository, or ``unversioned``).
"""

from __future__ import annotations

import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

DISTRIBUTION = "hanoi-harness"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The folder of the ``hanoi_harness`` package: ``harness/`` in a checkout, or site-packages' copy."""

GIT_TIMEOUT_S = 10.0


def machine(report: dict[str, Any]) -> dict[str, Any]:
    """Return the CPU, cores, Python and OS, the CPU from pytest-benchmark's *report* where it names it."""
    info = report.get("machine_info") or {}
    cpu = info.get("cpu") or {}
    return {
        "cpu": cpu.get("brand_raw") or platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": f"{platform.system()} {platform.release()}",
        "arch": platform.machine(),
    }


def source() -> dict[str, Any]:
    """Return the code's provenance: ``version``, and ``id``, ``branch`` and ``dirty`` from git.

    ``id`` is None when the package does not run from a git checkout (an
    installed wheel), or when git is missing; a checkout with uncommitted
    changes to tracked files is ``dirty``.

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
    """Return the installed version of hanoi-harness, or "unknown" when it is not installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def _git(*args: str) -> str | None:
    """Return what ``git ARGS`` prints in the package's folder, stripped; None when git fails or is missing."""
    try:
        done = subprocess.run(
            ["git", "-C", str(PACKAGE_DIR), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None
