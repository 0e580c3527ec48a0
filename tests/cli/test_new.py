"""Test ``hanoi new NAME``: the project it writes and what it refuses.

Every file of the project is filled in, and the record is a correct one.  What it refuses is one line.
The docs pages show its gate and workflow as it writes them.

The new project's own pytest run and its gate are in tests/testing/test_project.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import hanoi_harness
from hanoi_harness.cli import new as _new
from hanoi_harness.core.checker import check_algorithm
from hanoi_harness.registry.sources import load_plugin
from tests.helpers import ROOT, assert_one_line_error, run_cli

NAME = "clockwise_mine"


def written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    project = tmp_path / "project"
    code, out, err = run_cli(capsys, "new", NAME, "--dir", str(project))
    assert code == 0 and err == "", err
    return project, out


@pytest.fixture
def from_an_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness as if installed from a package index (no direct_url.json)."""
    monkeypatch.setattr(_new, "_harness_source", lambda: ("", None))


@pytest.mark.usefixtures("from_an_index")
def test_every_file_is_written_and_filled_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = written(tmp_path, capsys)
    files = sorted(str(path.relative_to(project)) for path in project.rglob("*") if path.is_file())
    assert files == sorted(path.format(name=NAME) for path in _new.FILES)
    assert out.splitlines() == [
        f"wrote {project}/: {', '.join(path.format(name=NAME) for path in _new.FILES)}",
        f"next: cd {project} && pip install -r ci/requirements.txt -e . && pytest -k {NAME} && ci/gate baseline",
    ]
    for path in project.rglob("*"):
        if path.is_file():
            assert re.search(r"@[A-Z]+@", path.read_text()) is None, path  # every value filled in
    assert (project / "ci" / "gate").stat().st_mode & 0o111
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    assert pyproject["project"]["entry-points"]["hanoi.algorithms"] == {NAME: f"{NAME}:{NAME}"}
    assert pyproject["project"]["dependencies"] == [f"hanoi-harness[testing]=={hanoi_harness.__version__}"]
    pins = (project / "ci" / "requirements.txt").read_text().splitlines()
    assert f"hanoi-harness[testing]=={hanoi_harness.__version__}" in pins
    assert any(pin.startswith("numpy==") for pin in pins) and any(pin.startswith("hypothesis==") for pin in pins)
    workflow = (project / ".github" / "workflows" / "hanoi-gate.yml").read_text()
    assert f'python-version: "{sys.version.split()[0]}"' in workflow and "runs-on: ubuntu-24.04" in workflow


def test_the_module_s_record_is_a_correct_streaming_algorithm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, _ = written(tmp_path, capsys)
    record = load_plugin(f"{project / NAME}.py:{NAME}")
    assert record.name == NAME and record.space == "n" and record.final_peg.pegs(5) == {2}
    assert all(check_algorithm(record, n).ok for n in range(12))
    test = (project / "tests" / f"test_{NAME}.py").read_text()
    assert f"@parametrize_with_checks([{NAME}])\ndef test_conformance(algorithm, check):\n" in test


@pytest.mark.usefixtures("from_an_index")
def test_the_versions_left_unknown_are_left_unpinned(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    def unknown(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(hanoi_harness, "__version__", "0+unknown")
    monkeypatch.setattr(metadata, "version", unknown)
    values = _new._values(NAME)
    assert values["HARNESS"] == "hanoi-harness[testing]"
    assert values["PINS"].splitlines() == ["hanoi-harness[testing]", "numpy", "pytest", "hypothesis"]


class Installed:
    """A distribution whose direct_url.json says *url*."""

    version = "1.0"

    def __init__(self, url: str | None) -> None:
        self.url = url

    def read_text(self, name: str) -> str | None:
        return None if self.url is None else f'{{"url": "{self.url}"}}'


def test_the_harness_comes_from_where_it_was_installed_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib import metadata

    wheel = tmp_path / "hanoi_harness-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    for url, wanted in [
        (None, ""),
        ("https://example.org/x.whl", ""),
        (tmp_path.as_uri(), f"hanoi-harness[testing] @ {tmp_path.as_uri()}"),
    ]:
        monkeypatch.setattr(metadata, "distribution", lambda name, url=url: Installed(url))
        assert _new._harness_source() == (wanted, None)
    monkeypatch.setattr(metadata, "distribution", lambda name: Installed(wheel.as_uri()))
    assert _new._harness_source() == (f"./ci/wheels/{wheel.name}[testing]", wheel)
    project, out = written(tmp_path, capsys)
    assert (project / "ci" / "wheels" / wheel.name).read_bytes() == b"a wheel"
    assert f"./ci/wheels/{wheel.name}[testing]" in (project / "ci" / "requirements.txt").read_text().splitlines()
    assert "pip install -r ci/requirements.txt -e ." in out


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("not-a-name", "'not-a-name' is not an ASCII Python identifier"),
        ("class", "'class' is not an ASCII Python identifier"),
        ("café", "'café' is not an ASCII Python identifier"),
        ("\uff4a\uff53\uff4f\uff4e", "is not an ASCII Python identifier"),  # fullwidth 'json'
        ("winreg" if sys.platform != "win32" else "termios", "is a module of the standard library"),
        ("bitwise", "'bitwise' is already an algorithm (in-tree hanoi_algorithms.bitwise): choose another name"),
        ("json", "a module named 'json' can already be imported here: choose another name"),
    ],
)
def test_a_name_that_is_taken_or_no_identifier_is_refused(
    name: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "new", name, "--dir", str(tmp_path / "x"))
    assert_one_line_error(code, err, said)
    assert not (tmp_path / "x").exists()


def test_a_module_that_breaks_when_looked_up_is_taken_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    def broken(name: str) -> None:
        raise ValueError(f"{name}.__spec__ is None")

    monkeypatch.setattr(importlib.util, "find_spec", broken)
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path / "x"))
    assert_one_line_error(code, err, f"a module named {NAME!r} can already be imported here")


def test_a_directory_with_anything_in_it_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path))
    assert_one_line_error(code, err, f"{tmp_path} is not a new or empty directory")
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path / "notes.txt"))
    assert_one_line_error(code, err, "is not a new or empty directory")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


def test_every_filesystem_error_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path / ("x" * 300)))
    assert_one_line_error(code, err, "cannot write the project into")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path / "dangling"))
    assert_one_line_error(code, err, "cannot write the project into")
    (tmp_path / "a_file").write_text("")  # a folder that cannot be made (read-only ones too, unless root)
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(tmp_path / "a_file" / NAME))
    assert_one_line_error(code, err, "Not a directory")


def test_the_command_s_module_imports_nothing_but_the_standard_library() -> None:
    script = (
        "import sys; import hanoi_harness.cli.new; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('hanoi_harness', 'numpy', 'tabulate')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['hanoi_harness', 'hanoi_harness.cli', 'hanoi_harness.cli.new']"


def test_help_says_what_it_writes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "new", "--help")
    assert code == 0 and "tests/test_NAME.py" in out and "ci/gate baseline" in " ".join(out.split())


# --- the docs pages show what the command writes ----------------------------------------------------------------

DOCS = ROOT / "docs"
EXAMPLE_PYTHON = "3.12.8"
"""The Python the docs' workflow shows (the command writes the one it runs on)."""


def rendered(template: str) -> str:
    return (_new.TEMPLATES / template).read_text().replace("@NAME@", NAME).replace("@PYTHON@", EXAMPLE_PYTHON)


@pytest.mark.parametrize("template", ["gate.tmpl", "workflow.yml.tmpl", "test.py.tmpl"])
def test_the_ci_docs_show_the_gate_and_the_workflow_as_they_are_written(template: str) -> None:
    page = "guide/variant-project.md" if template == "test.py.tmpl" else "bench/variant-gate.md"
    assert rendered(template) in (DOCS / page).read_text()
