"""Permutation puzzles as data: definitions (``definition``), their text formats (``textformat``:
``.tws`` and ksolve's ``.def``, written by ``textwriter``; ``kpuzzle``: cubing.js's JSON), the
puzzle they make (``puzzle``; its representations' rules in ``rules``, ``labels`` and
``group``, tables built by ``tables``, ranks laid out by ``layout``, stabilizer chains in
``chain``, state text in ``statetext``), patterns and the distances between them
(``patterns``), symmetries (``symmetry``; conjugates in bulk: ``conjugates``,
``lookup_conjugates``; the quotient by the rotations: ``quotient``), and the built-ins
(``builtins``: pocket cube, pancakes, TopSpin, LRX)."""

from vecsearch.puzzles.permutation.definition import Move, Orbit, PermutationDefinition
from vecsearch.puzzles.permutation.patterns import Pattern, phases
from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle
from vecsearch.puzzles.permutation.textformat import load_definition, parse_definition
from vecsearch.puzzles.permutation.textwriter import format_definition

__all__ = ["Move", "Orbit", "Pattern", "PermutationDefinition", "PermutationPuzzle", "format_definition",
           "load_definition", "parse_definition", "phases"]
