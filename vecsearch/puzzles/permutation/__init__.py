"""Permutation puzzles as data: definitions (``definition``), their text format
(``textformat``), the puzzle they make (``puzzle``, rules in ``rules``), and the built-ins
(``builtins``: pocket cube, pancakes, TopSpin, LRX)."""

from vecsearch.puzzles.permutation.definition import Move, Orbit, PermutationDefinition
from vecsearch.puzzles.permutation.puzzle import PermutationPuzzle
from vecsearch.puzzles.permutation.textformat import load_definition, parse_definition
from vecsearch.puzzles.permutation.textwriter import format_definition

__all__ = ["Move", "Orbit", "PermutationDefinition", "PermutationPuzzle", "format_definition", "load_definition",
           "parse_definition"]
