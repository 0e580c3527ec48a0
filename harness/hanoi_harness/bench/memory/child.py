"""The fresh child of a peak-RSS measurement.

Run as ``python -P -m hanoi_harness.bench.memory.child NAME N INTERVAL [PLUGIN]``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence


def main(argv: Sequence[str]) -> int:
    """Measure for *argv* and print the JSON line; return the exit status."""
    import psutil
    from memory_profiler import memory_usage

    from hanoi_harness import process
    from hanoi_harness.bench.consume import consume
    from hanoi_harness.errors import UsageError
    from hanoi_harness.registry.sources import build_registry
    from hanoi_harness.sandbox.output import own_stdout

    process.child_start()
    answer = own_stdout()  # what the algorithm prints goes to stderr, never into the JSON line
    name, n_text, interval_text, *plugins = argv
    try:
        algorithm = build_registry(plugins, guard=False).get(name)  # the parent has imported them first
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    baseline = psutil.Process().memory_info().rss / 2**20
    with process.safe_path_environment():  # memory-profiler's monitor is a multiprocessing child
        peak = memory_usage((consume, (algorithm, int(n_text)), {}), interval=float(interval_text), max_usage=True)
    if isinstance(peak, list):  # memory-profiler before 0.58 returned a one-element list
        peak = peak[0]
    print(json.dumps({"peak_mib": float(peak), "baseline_mib": baseline, "numpy": "numpy" in sys.modules}), file=answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
