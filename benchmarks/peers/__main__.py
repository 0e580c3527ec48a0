"""Run :func:`benchmarks.peers.compare.main`: ``python -m benchmarks.peers``."""

import sys

from benchmarks.peers.compare import main

if __name__ == "__main__":
    sys.exit(main())
