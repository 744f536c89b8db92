"""The public names of ``vecsearch``, each imported from the module that defines it.

IDEs and type checkers read this stub for the package; ``vecsearch/__init__.py`` reads its imports
to load each name from its module on first use (``vecsearch.lazy``). A new public name is one
import line here.
"""

from vecsearch.contract import Moves as Moves
from vecsearch.contract import Rank as Rank
from vecsearch.contract import Rules as Rules
from vecsearch.engine import METHODS as METHODS
from vecsearch.engine import BoundRecord as BoundRecord
from vecsearch.engine import ClassEnumeration as ClassEnumeration
from vecsearch.engine import DistanceTable as DistanceTable
from vecsearch.engine import LayerRecord as LayerRecord
from vecsearch.engine import ManySolutions as ManySolutions
from vecsearch.engine import Profile as Profile
from vecsearch.engine import SearchResult as SearchResult
from vecsearch.engine import Solution as Solution
from vecsearch.engine import bfs as bfs
from vecsearch.engine import bidirectional as bidirectional
from vecsearch.engine import clear_caches as clear_caches
from vecsearch.engine import distance_table as distance_table
from vecsearch.engine import distances_between as distances_between
from vecsearch.engine import solve as solve
from vecsearch.engine import solve_many as solve_many
from vecsearch.engine import solve_pairs as solve_pairs
from vecsearch.engine import warm_up as warm_up
from vecsearch.errors import InvalidPuzzleInput as InvalidPuzzleInput
from vecsearch.errors import MemoryLimitError as MemoryLimitError
from vecsearch.errors import NoSolution as NoSolution
from vecsearch.errors import PuzzleDefinitionError as PuzzleDefinitionError
from vecsearch.errors import SearchInterrupted as SearchInterrupted
from vecsearch.errors import UnknownPuzzle as UnknownPuzzle
from vecsearch.errors import VecsearchError as VecsearchError
from vecsearch.explorer import Explorer as Explorer
from vecsearch.explorer import explore as explore
from vecsearch.explorer.graph import to_networkx as to_networkx
from vecsearch.heuristics import Heuristic as Heuristic
from vecsearch.plots import plot_profiles as plot_profiles
from vecsearch.puzzle import Puzzle as Puzzle
from vecsearch.puzzles.permutation import Orbit as Orbit
from vecsearch.puzzles.permutation import Pattern as Pattern
from vecsearch.puzzles.permutation import PermutationDefinition as PermutationDefinition
from vecsearch.puzzles.permutation import PermutationPuzzle as PermutationPuzzle
from vecsearch.puzzles.permutation import load_definition as load_definition
from vecsearch.puzzles.permutation import phases as phases
from vecsearch.puzzles.permutation.symmetry import SymmetryGroup as SymmetryGroup
from vecsearch.registry import get_problem as get_problem
from vecsearch.registry import get_puzzle as get_puzzle
from vecsearch.validation import validate as validate
from vecsearch.values import Permutation as Permutation
from vecsearch.values import Subset as Subset
from vecsearch.values import ValuePuzzle as ValuePuzzle
from vecsearch.values import Vector as Vector

__version__: str
