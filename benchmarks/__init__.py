"""The project's own experiments, run from the checkout, not shipped.

``make bench-scale`` runs :mod:`benchmarks.scaling` (segmented
verification's speed-up); :mod:`benchmarks.calibrate` measured the gate's
threshold.  Neither is part of the wheel: a user benchmarks their own
algorithms with ``hanoi bench``.
"""
