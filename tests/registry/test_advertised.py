"""Entry points ruled out without importlib.metadata, only when certain."""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import sys
import zipfile
from pathlib import Path

import pytest

from hanoi_harness.registry.sources import installed_entry_points, none_advertised


@pytest.fixture(autouse=True)
def plain_finders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the standard finder of distributions, whatever another test imported.

    Importing the ``importlib_metadata`` backport, as some packages do, puts a
    finder of its own on ``sys.meta_path`` and takes ``find_distributions``
    off the standard one, which :func:`none_advertised` rightly declines.
    """
    finder = importlib.machinery.PathFinder
    if not hasattr(finder, "find_distributions"):
        standard = importlib.metadata.MetadataPathFinder.find_distributions
        monkeypatch.setattr(finder, "find_distributions", staticmethod(standard), raising=False)
    kept = [f for f in sys.meta_path if f is finder or not hasattr(f, "find_distributions")]
    monkeypatch.setattr(sys, "meta_path", kept)


def distribution(root: Path, name: str, entry_points: str | None, kind: str = "dist-info") -> Path:
    """Write a distribution's metadata folder under *root*, with *entry_points*."""
    folder = root / f"{name}-1.0.{kind}"
    folder.mkdir(parents=True)
    (folder / ("METADATA" if kind == "dist-info" else "PKG-INFO")).write_text(f"Name: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (folder / "entry_points.txt").write_text(entry_points)
    return folder


def found(path: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names importlib.metadata finds in our group on *path*."""
    monkeypatch.setattr(sys, "path", path)
    return [entry.name for entry in importlib.metadata.entry_points(group="hanoi.algorithms")]


def test_folders_without_the_group_advertise_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distribution(tmp_path, "other", "[console_scripts]\nother = other:main\n")
    distribution(tmp_path, "bare", None)
    distribution(tmp_path, "old", "[console_scripts]\nold = old:main\n", kind="egg-info")
    (tmp_path / "flat-1.0.egg-info").write_text("Name: flat\n")  # an egg-info file, not a folder
    path = [str(tmp_path), str(tmp_path / "missing")]
    assert none_advertised(path) and found(path, monkeypatch) == []


@pytest.mark.parametrize("kind", ["dist-info", "egg-info"])
def test_a_folder_naming_the_group_may_advertise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    distribution(tmp_path, "mine", "[hanoi.algorithms]\nmine = mine:solve\n", kind=kind)
    assert not none_advertised([str(tmp_path)]) and found([str(tmp_path)], monkeypatch) == ["mine"]


def test_a_zip_or_an_egg_on_the_path_is_left_to_importlib(tmp_path: Path) -> None:
    archive = tmp_path / "packed.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("mine-1.0.dist-info/entry_points.txt", "[hanoi.algorithms]\nmine = mine:solve\n")
    (tmp_path / "old.egg").mkdir()
    assert not none_advertised([str(archive)]) and not none_advertised([str(tmp_path / "old.egg")])


def test_another_finder_of_distributions_is_left_to_importlib(monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_distributions(*args: object, **kwargs: object) -> list[object]:
            return []

    assert none_advertised([])
    monkeypatch.setattr(sys, "meta_path", [Finder, *sys.meta_path])
    assert not none_advertised([])
    assert importlib.machinery.PathFinder in sys.meta_path


def test_installed_entry_points_skip_importlib_when_none(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(group: str) -> list[object]:
        raise AssertionError("importlib.metadata was asked")

    monkeypatch.setattr(importlib.metadata, "entry_points", refuse)
    monkeypatch.setattr(sys, "path", [])
    assert installed_entry_points() == []
