"""The command line's input files: read them, name them, and say what is wrong with them."""

from __future__ import annotations

import os
import shlex
import sys


class InputError(Exception):
    """An input file that cannot be read, or an output file that cannot be written."""


def read_input(path: str | None, binary: bool = False) -> str | bytes:
    """The file at ``path`` (standard input for None or ``-``)."""
    if path is None or path == "-":
        return sys.stdin.buffer.read() if binary else sys.stdin.read()
    try:
        if binary:
            with open(path, "rb") as handle:
                return handle.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a UTF-8 text file") from None


def input_name(path: str | None) -> str:
    """What error messages call the input at ``path``."""
    return "standard input" if path in (None, "-") else path


def refuse_typed_instance(path: str | None, command: str) -> None:
    """An instance typed where a file name goes: say where instances go instead."""
    if path is not None and path != "-" and any(c.isspace() for c in path) and not os.path.exists(path):
        typed = shlex.quote(path)
        raise InputError(f"no file {typed}: FILE names a file of instances; give one instance as"
                         f" `{command} --text {typed}`, or on standard input: `echo {typed} | {command}`")
