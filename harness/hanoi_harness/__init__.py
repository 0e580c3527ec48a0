"""hanoi-harness: verify and benchmark Tower of Hanoi algorithms.

The public API for plugin authors and scripts is what this package exports::

    from hanoi_harness import Algorithm, Citation, FinalPeg, check

The harness reads algorithms from :mod:`hanoi_harness.registry`, checks their
moves with the pure :mod:`hanoi_harness.core.checker`, and drives both from the
``hanoi`` command (:mod:`hanoi_harness.cli.main`).  The in-tree algorithms are the
modules of :mod:`hanoi_algorithms`.
"""

from importlib.metadata import PackageNotFoundError, version

from hanoi_harness.core.checker import check, check_algorithm
from hanoi_harness.core.digest import digest
from hanoi_harness.core.verdict import Failure, Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import Algorithm, Citation, FinalPeg, Move, build_registry, load_plugin

try:
    __version__ = version("hanoi-harness")  # pyproject.toml's, the one place the version is written
except PackageNotFoundError:  # the folders imported without an install
    __version__ = "0+unknown"

__all__ = [
    "Algorithm",
    "Citation",
    "Failure",
    "FinalPeg",
    "Move",
    "UsageError",
    "Verdict",
    "__version__",
    "build_registry",
    "check",
    "check_algorithm",
    "digest",
    "load_plugin",
]
