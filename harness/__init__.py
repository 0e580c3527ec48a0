"""hanoi-harness: verify and benchmark Tower of Hanoi algorithms.

The harness reads algorithms from :mod:`harness.registry`, checks their moves
with the pure :mod:`harness.checker`, and drives both from the ``hanoi``
command (:mod:`harness.cli`).
"""

__version__ = "0.1.0"
