"""The gate's verdict as data: an exit status, JSON, JUnit XML, Markdown."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any
from xml.etree import ElementTree

from hanoi_harness.bench.gate.compare import Comparison
from hanoi_harness.bench.report.formatting import escaped

EXIT = {"pass": 0, "regressed": 1, "bad input": 2, "not comparable": 3}  #: The exit status of each overall status.

FAILED = ("REGRESSION", "unavailable", "missing")  #: The check statuses that fail a JUnit test case.


@dataclass(frozen=True)
class Outcome:
    """The gate's overall status, and what made it."""

    status: str
    regressions: tuple[str, ...]
    unchecked: tuple[str, ...]
    skipped: tuple[str, ...]

    @property
    def exit_status(self) -> int:
        return EXIT[self.status]


def verdict(comparison: Comparison, allow_incomplete: bool = False, strict_environment: bool = False) -> Outcome:
    """Return the overall status of *comparison* under the gate's options."""
    unchecked = [f"no baseline: {', '.join(comparison.no_baseline)}"] if comparison.no_baseline else []
    if comparison.not_measured:
        unchecked.append(f"not measured: {', '.join(comparison.not_measured)}")
    incomplete = grouped((c.metric, c.reason.strip() or "no figure on one side", c.name) for c in comparison.incomplete)
    skipped = grouped(_skips(comparison))
    if comparison.regressions:
        status = "regressed"
    elif unchecked or (incomplete and not allow_incomplete) or (skipped and strict_environment):
        status = "not comparable"
    else:
        status = "pass"
    return Outcome(status, tuple(comparison.regressions), tuple(unchecked + incomplete), tuple(skipped))


def grouped(items: Iterable[tuple[str, str, str]]) -> list[str]:
    """Each (metric, reason, name) said once per metric and reason.

    >>> grouped([("peak", "no valgrind", "a"), ("peak", "no valgrind", "b"), ("time", "", "c")])
    ['peak of a, b (no valgrind)', 'time of c']
    """
    names: dict[tuple[str, str], list[str]] = {}
    for metric, reason, name in items:
        names.setdefault((metric, reason), []).append(name)
    return [f"{metric} of {', '.join(found)}" + (f" ({why})" if why else "") for (metric, why), found in names.items()]


def _skips(comparison: Comparison) -> list[tuple[str, str, str]]:
    """The (metric, reason, name) of every figure the environments forbid."""
    found = [(c.metric, c.reason, c.name) for c in comparison.checks if c.status == "skipped"]
    metric = f"time relative to {comparison.reference}"
    return found + [(metric, row.status.removeprefix("skipped: "), row.name) for row in comparison.times if row.skipped]


def entries(comparison: Comparison) -> list[dict[str, Any]]:
    """One mapping per algorithm and metric: figures, change, status."""
    found = [{**asdict(c), "change": c.change, "threshold_pct": comparison.threshold_pct} for c in comparison.checks]
    metric = f"time relative to {comparison.reference}"
    for row in comparison.times:
        status = "REGRESSION" if row.regression else "skipped" if row.skipped else row.verdict or "not compared"
        found.append(
            {
                "name": row.name,
                "metric": metric,
                "old": row.old_rel,
                "new": row.new_rel,
                "change": None if row.change is None else row.change - 1,
                "status": status,
                "reason": row.status,
                "threshold_pct": comparison.time_threshold_pct,
                "ns": list(row.ns),
            }
        )
    return found


def to_json(comparison: Comparison, found: Outcome) -> str:
    """The comparison and its verdict as one JSON object."""
    document = {
        "status": found.status,
        "exit_status": found.exit_status,
        "regressions": list(found.regressions),
        "not_compared": list(found.unchecked),
        "skipped": list(found.skipped),
        "comparisons": entries(comparison),
    }
    return json.dumps(document, indent=2, allow_nan=False)


def to_junit(comparison: Comparison) -> str:
    """One JUnit test case per algorithm and metric, as XML text."""
    root = ElementTree.Element("testsuites", name="hanoi compare")
    suite = ElementTree.SubElement(root, "testsuite", name="hanoi compare")
    failures = skips = 0
    for entry in entries(comparison):
        case = ElementTree.SubElement(suite, "testcase", classname=entry["name"], name=entry["metric"])
        said = escaped(f"{entry['status']}: {entry['reason']}" if entry["reason"] else entry["status"])
        if entry["status"] in FAILED:
            failures += 1
            ElementTree.SubElement(case, "failure", message=said)
        elif entry["status"] in ("skipped", "not compared") or entry["old"] is None:
            skips += 1
            ElementTree.SubElement(case, "skipped", message=said)
        else:
            case.set("status", said)
    for element in (root, suite):
        element.set("tests", str(len(suite)))
        element.set("failures", str(failures))
        element.set("skipped", str(skips))
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def to_markdown(comparison: Comparison, found: Outcome) -> str:
    """A summary fit for ``$GITHUB_STEP_SUMMARY``: the verdict, then a table."""
    head = {"pass": "passed", "regressed": "regressed", "not comparable": "could not compare everything"}
    lines = [f"### hanoi compare: {head[found.status]} (exit {found.exit_status})", ""]
    lines += [f"- regression: {escaped(item)}" for item in found.regressions]
    lines += [f"- not compared: {escaped(item)}" for item in found.unchecked]
    lines += [f"- skipped, the environments differ: {escaped(item)}" for item in found.skipped]
    lines += ["", "| algorithm | metric | old | new | change | status |", "|---|---|---:|---:|---:|---|"]
    for entry in entries(comparison):
        figures = ["" if entry[key] is None else f"{entry[key]:,.4g}" for key in ("old", "new")]
        change = "" if entry["change"] is None else f"{entry['change'] * 100:+.2f}%"
        cells = [entry["name"], entry["metric"], *figures, change, entry["status"]]
        lines.append("| " + " | ".join(escaped(cell).replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"
