"""The child process that runs conformance checks on one algorithm.

Requests and answers are JSON lines (``load``, ``check``); see ``docs/project/conformance.md``.
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import sys
import traceback
from typing import Any

WORKER_VARIABLE = "HANOI_HARNESS_CHECK_WORKER"
"""Set in a worker: checks collected there run in it, with no worker of their own."""


def load(spec: Any) -> Any:
    """Return the record *spec* names, loading no other entry point."""
    from dataclasses import replace

    from hanoi_harness.errors import UsageError
    from hanoi_harness.registry.sources import (
        _from_object,
        build_registry,
        entry_point_origin,
        installed_entry_points,
        load_plugin,
    )
    from hanoi_harness.testing.records import record_of

    if isinstance(spec, dict):
        return record_of(pickle.loads(base64.b64decode(spec["pickle"])))
    if ":" in spec:
        return load_plugin(spec)
    registry = build_registry(entry_points=False)
    if spec in registry:
        return registry.get(spec)
    for entry in installed_entry_points():
        if entry.name == spec:
            origin = entry_point_origin(entry)
            try:
                obj = entry.load()
            except BaseException as exc:
                raise UsageError(f"{origin} failed to import: {type(exc).__name__}: {exc}") from None
            return replace(_from_object(obj, entry.name, origin), origin=origin)
    raise UsageError(f"no algorithm is named {spec!r}")


def answer(request: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """Return the answer to *request*; *state* keeps the loaded record."""
    from hanoi_harness.errors import UsageError
    from hanoi_harness.testing.failures import CheckFailed
    from hanoi_harness.testing.suite import CHECKS, checks_for

    try:
        if "load" in request:
            record = state["record"] = load(request["load"])
            return {"name": record.name, "checks": [check.name for check in checks_for(record)]}
        if request["check"] == "load":
            return {"ok": True}  # loaded above: that was the check
        check = next(check for check in CHECKS if check.name == request["check"])
        check.run(state["record"])
    except (CheckFailed, UsageError) as exc:
        return {"failed": str(exc)}
    except BaseException as exc:
        head = f"crashed: {type(exc).__name__}: {exc}"
        return {"failed": f"{head}\n{''.join(traceback.format_exception(exc)).rstrip()}"}
    return {"ok": True}


def main() -> int:  # pragma: no cover - in the child (tests/testing/test_isolated.py)
    """Answer requests until standard input ends; the exit status."""
    from hanoi_harness import process
    from hanoi_harness.sandbox.output import ToStderr

    process.child_start()
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the algorithm's prints go to standard error, even os.write(1, ...)
    sys.stdout = ToStderr()
    state: dict[str, Any] = {}
    for line in sys.stdin:
        reply.write(json.dumps(answer(json.loads(line), state)) + "\n")
        reply.flush()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
