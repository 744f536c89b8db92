"""The engine's public names, each imported from the module that defines it: what ``vecsearch``
exports and what puzzles use (a puzzle imports nothing else of the engine).

IDEs and type checkers read this stub; ``vecsearch/engine/__init__.py`` reads its imports to load
each name on first use (``vecsearch.lazy``).
"""

from vecsearch.engine.batch.instances import Instances as Instances
from vecsearch.engine.batch.many import solve_many as solve_many
from vecsearch.engine.batch.methods import METHODS as METHODS
from vecsearch.engine.batch.solve import distance_table as distance_table
from vecsearch.engine.batch.solve import solve as solve
from vecsearch.engine.batch.warmup import warm_up as warm_up
from vecsearch.engine.heuristic.evaluation import resolve_heuristic as resolve_heuristic
from vecsearch.engine.heuristic.pdb import UNREACHED as UNREACHED
from vecsearch.engine.heuristic.pdb import Abstraction as Abstraction
from vecsearch.engine.heuristic.pdb import enumerate_distances as enumerate_distances
from vecsearch.engine.heuristic.sequences import canonical_automaton as canonical_automaton
from vecsearch.engine.heuristic.sequences import undo_automaton as undo_automaton
from vecsearch.engine.layered.search import bfs as bfs
from vecsearch.engine.layered.search import bidirectional as bidirectional
from vecsearch.engine.results.answers import ManySolutions as ManySolutions
from vecsearch.engine.results.classes import ClassEnumeration as ClassEnumeration
from vecsearch.engine.results.profile import BoundRecord as BoundRecord
from vecsearch.engine.results.profile import LayerRecord as LayerRecord
from vecsearch.engine.results.profile import Profile as Profile
from vecsearch.engine.results.result import SearchResult as SearchResult
from vecsearch.engine.results.solution import Solution as Solution
from vecsearch.engine.runtime.blocks import map_blocks as map_blocks
from vecsearch.engine.runtime.caches import clear_caches as clear_caches
from vecsearch.engine.runtime.codegen import layer_kernels as layer_kernels
from vecsearch.engine.runtime.endpoints import components as components
from vecsearch.engine.runtime.progress import layer_progress as layer_progress
from vecsearch.engine.runtime.saved_arrays import cached_array as cached_array
from vecsearch.engine.runtime.saved_arrays import database_path as database_path
from vecsearch.engine.tables.between import distances_between as distances_between
from vecsearch.engine.tables.between import distances_in as distances_in
from vecsearch.engine.tables.distance import DistanceTable as DistanceTable
from vecsearch.engine.tables.pairs import solve_pairs as solve_pairs
