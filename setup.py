"""Package discovery for setuptools, whose pyproject.toml keys cannot rename folders on their own.

The repository keeps the layout its users asked for, ``harness/`` and ``algorithms/`` at the top
level; they install as one import package of the project's own, ``hanoi_harness`` and
``hanoi_harness.algorithms``, so that nothing else on an import path is shadowed.  Every
subfolder is found by :func:`setuptools.find_namespace_packages`, so a new one needs no edit
here: the data folders (``bench/c``, ``bench/templates``) are listed as packages too, which is
how setuptools wants data it ships (it warns about a data folder it was not told of).
"""

from setuptools import find_namespace_packages, setup

FOLDERS = {"hanoi_harness": "harness", "hanoi_harness.algorithms": "algorithms"}
CACHES = ["*__pycache__*"]

setup(
    package_dir=FOLDERS,
    packages=[
        name
        for package, folder in FOLDERS.items()
        for name in [package, *(f"{package}.{sub}" for sub in find_namespace_packages(folder, exclude=CACHES))]
    ],
)
