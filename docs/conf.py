"""Sphinx configuration of the hanoi-harness documentation (``make docs`` builds it)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The two source roots, so that the pages build from a checkout as the tests run from one.
sys.path[:0] = [str(ROOT / "harness"), str(ROOT / "algorithms"), str(Path(__file__).parent / "_ext")]

project = "hanoi-harness"
author = "the hanoi-harness maintainers"
copyright = "the hanoi-harness maintainers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autosummary_generate = True
# Each object is documented once, in the module that defines it: a package that re-exports names
# (hanoi_harness, hanoi_harness.scale) lists its submodules, whose pages document them.
autodoc_default_options = {
    "members": True,
    "ignore-module-all": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
add_module_names = False

# Options are written with two hyphens: "--from" must not become an en dash.
smartquotes = False

html_theme = "furo"
html_title = "hanoi-harness"
