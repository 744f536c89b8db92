"""``python -m vecsearch``: the command line."""

from vecsearch.cli import command_line

command_line()
