"""Benchmarks: time, memory, instruction counts, reports and the gate.

The modules and their design notes are in ``docs/bench/internals.md``.
"""
