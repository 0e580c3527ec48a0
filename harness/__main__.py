"""``python -m harness``: the same as the ``hanoi`` command."""

from harness.cli import run

run()
