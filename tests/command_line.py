"""The command line as the tests run it: in the test's own process, or as a separate one.

``run(*args, stdin=...)`` calls ``vecsearch.cli.main`` here, on standard streams of its own (the
bytes a process would write, decoded as ``subprocess`` decodes them), and returns what a process
returns: ``(exit code, stdout, stderr)``. A new process pays Python's, numpy's and numba's
start-up and loads every kernel again (about a second each time, over a hundred times in the
suite), so the tests of what the command prints, reads and exits with run it here.

``run_process`` runs ``python -m vecsearch`` as a user does. The tests of what only a process
shows use it: the entry point itself, signals (Ctrl-C, a kill), a new process's start-up and
caches, an interpreter that lives on after a user's bug.

A run here puts back what ``main`` changes in a process (``warnings.showwarning``, set to print a
definition's notes; a search restores the thread count it sets itself), and the working
directory and the environment variables it was given. A definition's notes show as a new
process shows a warning; every other warning is an error, as the test configuration says.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import warnings

HANG = 1800  # seconds: a guard against a hung process, not a speed check (a cold compile on a busy machine is slow)


def run(*args: str, stdin: str = "", cwd=None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``vecsearch ARGS`` in this process: ``(exit code, stdout, stderr)``."""
    from vecsearch.cli import main
    from vecsearch.errors import DefinitionNote

    streams = {name: io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for name in ("stdout", "stderr")}
    given = io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr, warnings.showwarning
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(_environment(env or {}))
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("default", DefinitionNote)  # shown, as in a new process
        sys.stdin, sys.stdout, sys.stderr = given, streams["stdout"], streams["stderr"]
        try:
            code = main(list(args))
        except SystemExit as end:  # argparse's usage errors, --help, --version
            code = end.code if isinstance(end.code, int) else 0 if end.code is None else 1
            if isinstance(end.code, str):
                print(end.code, file=sys.stderr)
        finally:
            sys.stdin, sys.stdout, sys.stderr, warnings.showwarning = saved
    return code, *(_text(stream) for stream in streams.values())


def run_process(*args: str, stdin: str = "", cwd=None, env: dict[str, str] | None = None,
                timeout: float = HANG) -> tuple[int, str, str]:
    """``python -m vecsearch ARGS`` as a process of its own: ``(exit code, stdout, stderr)``."""
    done = subprocess.run([sys.executable, "-m", "vecsearch", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})
    return done.returncode, done.stdout, done.stderr


@contextlib.contextmanager
def _environment(values: dict[str, str]):
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _text(stream: io.TextIOWrapper) -> str:
    """What ``stream`` was given, read back as ``subprocess.run(text=True)`` reads a pipe."""
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
