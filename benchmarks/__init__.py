"""The project's own experiments, run from the checkout, not shipped.

``make bench`` runs :mod:`benchmarks.peers` (other packages' solvers against
ours), :mod:`benchmarks.startup` (the ``hanoi`` command's start-up) and
:mod:`benchmarks.cref` (blocks against a C loop) after ``hanoi bench``, each
writing its page into ``results/``.  ``make bench-scale`` runs
:mod:`benchmarks.scaling`; :mod:`benchmarks.calibrate` measured the gate's
threshold.  None is part of the wheel: a user benchmarks their own
algorithms with ``hanoi bench``.
"""

from __future__ import annotations

from pathlib import Path

from hanoi_harness.bench.results.outdir import MARKER, seal

HEADING = "## The project's own experiments"
"""The section of a result set's README.md that links each experiment's page."""


def publish(out: Path, name: str, title: str, text: str) -> Path:
    """Write *text* as *out*/*name*, linked from *out*/README.md; return it.

    The link, under :data:`HEADING`, is added once, when README.md exists
    (``hanoi bench`` wrote it first).  A result set's marker then lists the
    new files, so that the next ``hanoi bench`` replaces them too.

    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> _ = (out / "README.md").write_text("# Benchmark results\\n")
    >>> _ = publish(out, "x.md", "X", "# X\\n"), publish(out, "x.md", "X", "# X\\n")
    >>> (out / "README.md").read_text().count("[X](x.md)")
    1
    """
    out.mkdir(parents=True, exist_ok=True)
    written = out / name
    written.write_text(text)
    readme = out / "README.md"
    if readme.is_file():
        known = readme.read_text()
        link = f"- [{title}]({name})\n"
        if link not in known:
            section = "" if HEADING in known else f"\n{HEADING}\n\n"
            readme.write_text(known.rstrip("\n") + "\n" + section + link)
    if (out / MARKER).is_file():
        seal(out)
    return written
