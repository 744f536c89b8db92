"""Sphinx configuration of vecsearch's documentation site (``python -m sphinx -W docs docs/_build/html``)."""

import vecsearch

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

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "jupyter_execute", "**.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The notebooks are stored without outputs; the site runs each one (a failing cell fails the build).
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

doctest_global_setup = "import numpy as np\nimport vecsearch as vs"

html_theme = "pydata_sphinx_theme"
html_title = "vecsearch"
html_theme_options = {"navigation_depth": 3, "show_toc_level": 2}

# A built page has no kernel: the explorer's widget view is left out for its static render (text/html).
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}     # so no page loads the widgets' scripts from a CDN (the site works offline)
