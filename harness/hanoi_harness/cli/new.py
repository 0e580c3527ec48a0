"""``hanoi new NAME``: write a variant's own project from ``cli/variant/``."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "variant"
"""The project's files, with @NAME@ (and the versions) to fill in."""

FILES = {
    "pyproject.toml": "pyproject.toml.tmpl",
    "README.md": "README.md.tmpl",
    ".gitignore": "gitignore.tmpl",
    "{name}.py": "module.py.tmpl",
    "tests/test_{name}.py": "test.py.tmpl",
    "ci/gate": "gate.tmpl",
    "ci/requirements.txt": "requirements.txt.tmpl",
    ".github/workflows/hanoi-gate.yml": "workflow.yml.tmpl",
}
"""Each file of the project (its path, NAME filled in) and its template."""

EXECUTABLE = ("ci/gate",)

WHEELS = "ci/wheels"  #: Where the project keeps the harness's wheel, if installed from one.

PINNED = ("numpy", "pytest", "hypothesis")  #: What ``ci/requirements.txt`` pins at this environment's versions.


def add_new(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi new`` to *p*."""
    p.description = (
        "Write a project for a new algorithm NAME into DIR (default ./NAME): pyproject.toml (the "
        "entry point NAME in the group hanoi.algorithms), NAME.py (a correct solution to replace, and its "
        "record), tests/test_NAME.py (hanoi-harness's conformance checks: pytest -k NAME), ci/gate (the "
        "regression gate: 'ci/gate baseline' once, then 'ci/gate' on each push), ci/requirements.txt (the "
        "versions of this environment, pinned) and a GitHub Actions workflow running both. Once installed "
        "(pip install -e DIR) it passes its checks and its gate as it is. Exit status 0, or 2 for a NAME that "
        "is no identifier, is taken by a registered algorithm or an importable module, or a DIR that is not "
        "empty."
    )
    p.add_argument("name", metavar="NAME", help="the algorithm's name: a Python identifier, also its module's")
    p.add_argument("--dir", type=Path, metavar="DIR", help="where to write the project (default: ./NAME); new or empty")
    p.set_defaults(func=cmd_new)


PARSERS = {"new": add_new}


def cmd_new(args: argparse.Namespace) -> int:
    from hanoi_harness.errors import UsageError

    name: str = args.name
    where: Path = args.dir if args.dir is not None else Path(name)
    _check_name(name)
    values = _values(name)
    wheel = _harness_source()[1]
    written = []
    try:
        if where.exists() and (not where.is_dir() or any(where.iterdir())):
            raise UsageError(f"{where} is not a new or empty directory: the project's files would mix with its own")
        for path, template in FILES.items():
            target = where / path.format(name=name)
            text = (TEMPLATES / template).read_text()
            for key, value in values.items():
                text = text.replace(f"@{key}@", value)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            if path in EXECUTABLE:
                target.chmod(0o755)
            written.append(path.format(name=name))
        if wheel is not None:
            (where / WHEELS).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(wheel, where / WHEELS / wheel.name)
            written.append(f"{WHEELS}/{wheel.name}")
    except OSError as exc:  # too long a name, a dangling link, a read-only folder: one line
        raise UsageError(f"cannot write the project into {where}: {exc.strerror or exc}") from None
    print(f"wrote {where}/: {', '.join(written)}")
    print(f"next: cd {where} && pip install -r ci/requirements.txt -e . && pytest -k {name} && ci/gate baseline")
    return 0


def _check_name(name: str) -> None:
    """Refuse in one line a NAME that is no identifier, or is already taken."""
    import importlib.util
    import keyword
    import sys
    import unicodedata

    from hanoi_harness.errors import UsageError
    from hanoi_harness.registry.sources import build_registry

    if not name.isascii() or not name.isidentifier() or keyword.iskeyword(name):
        raise UsageError(f"{name!r} is not an ASCII Python identifier: the algorithm's name is its module's too")
    registry = build_registry()
    if name in registry:
        raise UsageError(f"{name!r} is already an algorithm ({registry.get(name).origin}): choose another name")
    try:
        taken = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a broken package of that name is a clash all the same
        taken = True
    if taken:
        raise UsageError(f"a module named {name!r} can already be imported here: choose another name")
    # a module of the standard library on another system ('winreg' on Linux); NFKC is how Python reads a name
    if unicodedata.normalize("NFKC", name) in sys.stdlib_module_names:
        raise UsageError(f"{name!r} is a module of the standard library: choose another name")


def _values(name: str) -> dict[str, str]:
    """Return what each @KEY@ of the templates becomes."""
    import platform
    from importlib import metadata

    from hanoi_harness import __version__

    harness = "hanoi-harness[testing]" + (f"=={__version__}" if "unknown" not in __version__ else "")
    pins = [_harness_source()[0] or harness]
    for distribution in PINNED:
        try:
            pins.append(f"{distribution}=={metadata.version(distribution)}")
        except metadata.PackageNotFoundError:
            pins.append(distribution)
    return {
        "NAME": name,
        "HARNESS": harness,
        "VERSION": __version__,
        "PYTHON": platform.python_version(),
        "PINS": "\n".join(pins),
    }


def _harness_source() -> tuple[str, Path | None]:
    """Return the requirement of the harness as it was installed here."""
    import json
    import urllib.parse
    import urllib.request
    from importlib import metadata

    try:
        found = json.loads(metadata.distribution("hanoi-harness").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        return "", None
    url = urllib.parse.urlparse(str(found.get("url", "")))
    if url.scheme != "file":
        return "", None
    path = Path(urllib.request.url2pathname(url.path))
    if path.is_file():
        return f"./{WHEELS}/{path.name}[testing]", path
    return f"hanoi-harness[testing] @ {path.as_uri()}", None
