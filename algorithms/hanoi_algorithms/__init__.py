"""The in-tree algorithms: one module each, registered on import.

Importing this package imports every module here, in name order, so that its ``@register`` decorator adds it to
:data:`hanoi_harness.registry.sources.REGISTRY`.  Each one's notes and quirks: docs/guide/algorithms.md.
"""

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_module.name}")
