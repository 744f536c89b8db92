"""Sphinx configuration of vecsearch's documentation site (``python -m sphinx -W docs docs/_build/html``)."""

import sys
from pathlib import Path

import vecsearch

sys.path.insert(0, str(Path(__file__).parent))   # the CLI reference reads cli_parser below

project = "vecsearch"
author = "the vecsearch authors"
release = vecsearch.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "numpydoc",
    "myst_nb",                  # Markdown pages and the notebooks, executed while the site is built
    "sphinxarg.ext",            # the CLI reference, read from vecsearch.cli_arguments.build_parser
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
templates_path = ["_templates"]
exclude_patterns = ["_build", "_templates", "jupyter_execute", "**.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The notebooks are stored without outputs; the site runs each one (a failing cell fails the build).
default_role = "py:obj"   # `name` in a docstring links to it

nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 600
nb_execution_show_tb = True

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False, "show-inheritance": False}
autodoc_typehints = "none"              # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False     # autosummary lists them
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Every public docstring must pass numpydoc's checks: a summary, Parameters and Returns that match the
# signature, an Examples section (run as a doctest by ``sphinx -b doctest``).
numpydoc_validation_checks = {"all", "GL01", "SA01", "ES01", "RT02", "PR09", "RT05", "SS05", "SS06"}
# Those checks apply in full to the package's public names; their members (methods, properties) are
# held to a docstring with a one-line summary (``_check_member`` below).
numpydoc_validation_exclude = {r"^vecsearch\.\w+\.\w+$"}

doctest_global_setup = "import numpy as np\nimport vecsearch as vs"

html_theme = "pydata_sphinx_theme"
html_title = "vecsearch"
html_theme_options = {"navigation_depth": 3, "show_toc_level": 2}

# A built page has no kernel: the explorer's widget view is left out for its static render (text/html).
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}     # so no page loads the widgets' scripts from a CDN (the site works offline)

# Members that serve the engine, not users: they stay out of the reference. Those only their own module
# uses have private names instead; these are the interface between the engine and a class users see.
ENGINE_MEMBERS = {
    "Puzzle": {"functions", "kernel_label", "move_capacity", "prefers_two_bit", "encode", "make_heuristic"},
    "Explorer": {"answer", "overview", "neighbour_ids", "state_of"},
    "ManySolutions": {"from_chunks"},
    "Profile": {"add", "summed", "side", "columns"},
    "Pattern": {"identity", "label_of", "meet", "definition"},
    "PermutationDefinition": {"check_state", "constrained", "distinct", "moved_slots", "playable", "label_name",
                              "orbit_index", "named_moves"},
    "InvalidPuzzleInput": {"located"},
    "Heuristic": {"nbytes"},
}
ENGINE_MEMBERS["PermutationPuzzle"] = ENGINE_MEMBERS["Puzzle"] | {"reaches"}
ENGINE_MEMBERS["ValuePuzzle"] = ENGINE_MEMBERS["Puzzle"]
ENGINE_MEMBERS["Values"] = {"fields", "ranking", "subset_size", "describe", "problem", "kind"}
for values in ("Vector", "Permutation", "Subset"):
    ENGINE_MEMBERS[values] = ENGINE_MEMBERS["Values"]


def _skip_member(app, what, name, obj, skip, options):
    """Leave the engine's members out of the class pages (and everything private, as autodoc does)."""
    function = getattr(obj, "fget", obj)
    owner = getattr(function, "__qualname__", "").rpartition(".")[0]
    if name in ENGINE_MEMBERS.get(owner, ()) or (not owner and any(name in names for names in ENGINE_MEMBERS.values())):
        return True
    return skip


def _check_member(app, what, name, obj, options, lines):
    """A public member shown in the reference needs a docstring whose first line is its summary."""
    if what in ("method", "property", "attribute") and not name.split(".")[-1].startswith("_"):
        if not any(line.strip() for line in lines):
            from sphinx.util import logging

            logging.getLogger("vecsearch.docs").warning(f"{name} has no docstring", type="vecsearch",
                                                        subtype="docstring")


def _write_cli_examples(app, config):
    """The CLI reference shows ``vecsearch --help``'s examples once (the parser prints them under each command)."""
    from pathlib import Path

    from vecsearch.cli_arguments import EXAMPLES

    Path(app.srcdir, "reference", "cli-examples.txt").write_text(EXAMPLES.strip() + "\n", encoding="utf-8")


def cli_parser():
    """The command line's parser, each command's copy of the examples left out (shown once instead)."""
    import argparse

    from vecsearch.cli_arguments import build_parser

    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.epilog = None
    return parser


def setup(app):
    app.connect("config-inited", _write_cli_examples)
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _check_member)
