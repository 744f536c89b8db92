"""The documentation site builds with no warning, its examples run, and its links resolve.

The site (``docs/``, Sphinx) is built as a user builds it (README: ``python -m sphinx -W docs
docs/_build/html``): every warning is an error, numpydoc checks every public docstring (a summary,
parameters and returns matching the signature, an Examples section), and the notebooks in
``notebooks/`` are executed into it (this is the notebooks' test: a failing cell fails the build).
The Examples sections run as doctests (in the test's process), and every link inside the site must
resolve.
"""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.notebook, pytest.mark.docs]

ROOT = Path(__file__).resolve().parent.parent


def _sphinx_html(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(out.parent / "doctrees"), str(ROOT / "docs"), str(out)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "html"
    built = _sphinx_html(out)
    assert built.returncode == 0, f"the site does not build cleanly:\n{built.stderr[-6000:]}"
    return out


def test_every_public_name_has_a_page(site):
    import vecsearch

    pages = {path.stem for path in (site / "reference" / "generated").glob("*.html")}
    api = (site / "reference" / "api.html").read_text(encoding="utf-8")
    missing = {f"vecsearch.{name}" for name in vecsearch.__all__} - pages
    assert all(f'id="{name}"' in api for name in missing), f"no page and no entry: {missing}"


def test_the_notebooks_are_rendered_with_their_outputs(site):
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        page = (site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert "cell_output" in page, f"{notebook.name} has no output on the site"


def test_the_cli_reference_lists_every_command(site):
    from vecsearch.cli import COMMANDS

    page = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"vecsearch {command.removeprefix('run_').replace('_', '-')}" in page


def test_every_link_inside_the_site_resolves(site):
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        from check_links import broken_links
    finally:
        sys.path.pop(0)
    broken, _ = broken_links(site)
    assert broken == []


def test_the_examples_run_as_doctests():
    """The Examples sections of the public API (the pages' doctests, ``sphinx -b doctest``), run
    here with Sphinx's default flags and its ``doctest_global_setup`` names, each docstring on its
    own: the kernels already loaded in this process, no second Sphinx build."""
    import doctest

    import numpy as np

    import vecsearch

    finder = doctest.DocTestFinder(recurse=True)
    flags = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1
    runner = doctest.DocTestRunner(optionflags=flags)
    report, seen = [], set()
    for name in vecsearch.__all__:
        for test in finder.find(getattr(vecsearch, name), f"vecsearch.{name}", globs={"vs": vecsearch, "np": np}):
            if test.examples and test.name not in seen:  # a method reached from two public names runs once
                seen.add(test.name)
                runner.run(test, out=report.append)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, "".join(report)[-6000:]
    assert attempted >= 2 * len(vecsearch.__all__), attempted  # two or more per public name, on average
