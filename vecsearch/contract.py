"""The puzzle contract, declared once: every role a puzzle may supply, and the records grouping them.

A *role* is a per-state function a puzzle gives the engine (``expand``, ``rank``, ...). Each is
declared here, once, with its signature, whether it is required, what the engine does without
it, and the *check* its outputs must pass. Everything else reads these declarations:

- the records ``Rules``, ``Moves`` and ``Rank`` (what ``Puzzle(...)`` takes) are made from them;
- ``vecsearch.kernels.roles`` declares a kernel name per role (``expand_state``, ...) for the
  kernel templates, and ``vecsearch.engine.runtime.codegen`` binds them per family, wrapping a user's
  functions in the checks declared here (``vecsearch.kernels.guards``);
- ``vecsearch.validate`` probes each role given by the check declared for it;
- the role table of the docs (``role_table()``, printed in the README) is made from them.

A *trait* is a plain value of a record (a state's width, the number of moves, the rank's size).
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass

from vecsearch._numba import state_function
from vecsearch.errors import PuzzleDefinitionError

# The checks a role's outputs pass (``vecsearch.kernels.guards`` in compiled code, ``validate``
# in Python):
CHECKS = {
    "children": "an int count within the capacity; children of the state's width; moves in 0..max_moves-1",
    "rank": "an int in 0..rank_size-1",
    "component": "an int",
    "state": "a state (a first word other than -1)",
    "ranks": "an int count within the capacity; ranks in 0..rank_size-1",
    "bound": "an int >= 0",
    "condition": "a bool",
}


@dataclass(frozen=True)
class Role:
    """A per-state function of the contract.

    ``record``: where a user gives it (``rules``, ``rank``, ``goal``: ``Puzzle(goal=function)``,
    ``heuristic``: ``Puzzle(heuristic=function)``; None: the engine derives it, users never give
    it). ``fallback``: the role (or ``vecsearch.puzzle`` placeholder) bound in its place when it
    is not given, None for the templates' own default. ``needs``: roles it requires.
    """

    name: str
    record: str | None
    arguments: tuple[str, ...]
    returns: str
    check: str
    required: bool
    default: str
    summary: str
    fallback: str | None = None
    needs: tuple[str, ...] = ()
    memory: bool = False  # the kernels call it with a ``memory`` too (``RANK_MEMORY``)

    @property
    def kernel_name(self) -> str:
        """What the kernel templates call it (``expand_state``)."""
        return f"{self.name}_state"

    @property
    def signature(self) -> str:
        """The role's call as the README's table writes it: ``name(arguments) -> returns``."""
        return f"{self.name}({', '.join(self.arguments)}) -> {self.returns}"


@dataclass(frozen=True)
class Trait:
    """A value of a record (not a function)."""

    name: str
    record: str
    default: object
    summary: str
    required: bool = False
    positional: bool = False  # may be given by position, after the record's required roles
    kind: str = "int"  # its type, as the documentation names it


# The kernels pass the rank-space roles (``Role.memory``) one more argument than a user's function takes: ``memory``,
# a thread's scratch of RANK_MEMORY int64 words, all -1 when it starts, which a family's function may fill with what
# it unranked of a rank, to redo only what changes for the next (a thread steps ranks in increasing order, so
# consecutive ranks share their first Lehmer digits). A user's function is called by its guard, without it.
RANK_MEMORY = 512
_CHILDREN = ("state", "tables", "children", "moves")
_RANKS = ("rank", "component", "tables", "ranks")

ROLES = (
    Role("expand", "rules", _CHILDREN, "count", "children", True, "",
         "writes the states one move after `state` to `children[:count]` and the move of each to `moves[:count]`"),
    Role("predecessors", "rules", _CHILDREN, "count", "children", False,
         "reversible: the children; directed: forward search only",
         "the states one move *before* `state` (and the move leading from each), at most `max_predecessors`",
         fallback="expand"),
    Role("rank", "rank", ("state", "tables"), "rank", "rank", True, "",
         "a perfect rank of the states of one component, in `0 .. size-1` (a bitset over ranks)",
         fallback="no_rank"),
    Role("component", "rules", ("state", "tables"), "int", "component", False, "0: one component",
         "an invariant no move changes (a parity); states of different components never meet",
         fallback="single_component"),
    Role("unrank", "rank", ("rank", "component", "tables"), "state", "state", False, "no two-bit search",
         "the state of a rank (inverts `rank`): two bits per rank, goal conditions turned into states",
         needs=("rank",)),
    Role("expand_ranked", "rank", _CHILDREN + ("ranks",), "count", "children", False, "expand, then rank each",
         "`expand` that also writes each child's rank", needs=("rank",)),
    Role("predecessors_ranked", None, _CHILDREN + ("ranks",), "count", "children", False,
         "predecessors, then rank each", "`predecessors` that also writes each one's rank",
         fallback="expand_ranked"),
    Role("expand_rank", "rank", _RANKS, "count", "ranks", False, "unrank, then expand_ranked",
         "the ranks of the children of the state of `rank` (a puzzle stepping in rank space)", needs=("unrank",),
         memory=True),
    Role("predecessors_rank", "rank", _RANKS, "count", "ranks", False, "unrank, then predecessors and rank",
         "the ranks of the predecessors of the state of `rank`", fallback="expand_rank", needs=("unrank",),
         memory=True),
    Role("near_rank", "rank", _RANKS, "count", "ranks", False, "none: a pull asks expand_rank",
         "the ranks of *some* children found without unranking (a pull looks there first)",
         needs=("expand_rank",), memory=True),
    Role("near_predecessors_rank", "rank", _RANKS, "count", "ranks", False, "none",
         "`near_rank` for predecessors", fallback="near_rank", needs=("predecessors_rank",), memory=True),
    Role("is_goal", "goal", ("state", "tables"), "bool", "condition", False, "the goal states given",
         "whether `state` is a goal: a goal as a condition (`Puzzle(goal=is_goal)`)"),
    Role("heuristic", "heuristic", ("state", "htables"), "bound", "bound", False, "no A* or IDA*",
         "an admissible lower bound on the moves to the goal (`htables`: the tables, then the goal layer)"),
    Role("heuristic_update", None, ("parent", "info", "child", "htables"), "(bound, info)", "bound", False,
         "the heuristic of each child", "the bound of a child from its parent's evaluation (built-in heuristics)"),
    Role("heuristic_children", None, ("parent", "info", "children", "first", "count", "htables", "limit", "bounds",
                                      "infos"), "None", "bound", False, "heuristic_update of each child",
         "the bounds of a node's children at once, exact up to `limit`, any admissible bound above it beyond"
         " (built-in heuristics: lookups staged over the children, their reads prefetched)"),
)
ROLES_BY_NAME = {role.name: role for role in ROLES}

TRAITS = (
    Trait("width", "rules", 1, "64-bit words per state (1: a narrow state, an int)"),
    Trait("reversible", "rules", True, "every move is undone by a move: the predecessors are the children",
          kind="bool"),
    Trait("max_predecessors", "rules", None, "room `predecessors` may fill (default: the number of moves)"),
    Trait("count", "moves", None, "the number of moves, numbered 0 .. count-1 (`max_moves`)", required=True),
    Trait("names", "moves", None, "what users see of each move (default: their numbers)", positional=True,
          kind="sequence of str"),
    Trait("inverses", "moves", None, "`inverses[m]` undoes move m (-1: none); IDA* never undoes a move",
          positional=True, kind="sequence of int"),
    Trait("size", "rank", None, "the number of ranks (`rank_size`; a family's class attribute may leave it to"
          " each member: `dataclasses.replace(rank, size=n)`)", positional=True),
)


@dataclass(frozen=True)
class Guard:
    """How the compiled kernels of a user's puzzle run its functions (``Puzzle.guard``): behind
    the functions of ``template`` (a module of ``vecsearch/kernels``), one per role the puzzle
    gives, plus the roles in ``defines`` that the template makes itself, with ``constants``
    bound in the generated module, which ``family`` names."""

    template: str
    family: str
    defines: tuple[str, ...] = ()
    constants: tuple[tuple[str, object], ...] = ()  # (name, value) pairs


def _record(class_name: str, record: str, summary: str, examples: str):
    """A frozen dataclass with the roles of ``record`` and its traits as fields: the required ones
    first, then the positional traits, then the rest by keyword only. Its docstring's Parameters
    are the declarations (numpydoc), followed by ``examples``."""
    roles = [r for r in ROLES if r.record == record]
    traits = [t for t in TRAITS if t.record == record]
    order = ([r for r in roles if r.required] + [t for t in traits if t.required] + [t for t in traits if t.positional]
             + [r for r in roles if not r.required] + [t for t in traits if not t.required and not t.positional])
    fields: list[tuple] = []
    for item in order:
        if item.required:
            fields.append((item.name, object))
        else:
            default = None if isinstance(item, Role) else item.default
            fields.append((item.name, object, dataclasses.field(default=default, kw_only=not getattr(item, "positional",
                                                                                                     False))))
    lines = []
    for item in order:
        if isinstance(item, Role):
            lines.append(f"{item.name} : function{'' if item.required else ', optional'}")
            without = f" (without it: {item.default})." if item.default else "."
            lines.append(f"    ``{item.signature}``: {item.summary}" + without)
        else:
            lines.append(f"{item.name} : {item.kind}" + ("" if item.required else f", default {item.default!r}"))
            lines.append(f"    {item.summary[0].upper()}{item.summary[1:]}.")
    made = dataclasses.make_dataclass(class_name, fields, frozen=True)
    parameters = "\n".join("    " + line for line in lines)
    made.__doc__ = (f"{summary}\n\n    The fields are declared once, in ``vecsearch.contract``.\n\n    Parameters\n"
                    f"    ----------\n{parameters}\n\n    Examples\n    --------\n{examples}\n    ")
    made.__module__ = __name__
    return made


Rules = _record("Rules", "rules", "How states change, and what never does: the functions over states of a puzzle.", """\
    >>> def flip(state, tables, children, moves):       # three switches, each toggled by a move
    ...     for m in range(3):
    ...         children[m] = state ^ (1 << m)
    ...         moves[m] = m
    ...     return 3
    >>> puzzle = vs.Puzzle("switches", vs.Rules(flip), vs.Moves(3, "abc"), rank=vs.Rank(lambda s, t: s, 8),
    ...                    start=0, goal=7)
    >>> len(vs.solve(puzzle)), vs.bfs(puzzle).layer_sizes
    (3, [1, 3, 3, 1])""")
Moves = _record("Moves", "moves", "The moves of a puzzle: their number, names and inverses.", """\
    >>> moves = vs.Moves(4, "udlr", [1, 0, 3, 2])
    >>> moves.count, list(moves.names), moves.inverses
    (4, ['u', 'd', 'l', 'r'], [1, 0, 3, 2])""")
Rank = _record("Rank", "rank", "A perfect rank of the states: bitsets, two-bit searches and distance tables need one.",
               """\
    >>> rank = vs.Rank(lambda state, tables: state, 512)
    >>> rank.size, rank.unrank is None
    (512, True)""")


def is_whole(value, least=None) -> bool:
    """Whether ``value`` is a whole number (an int or a numpy integer, not a bool), ``least`` or
    more when given: what every count a user gives (moves, a rank's size, threads, depths) must be."""
    return (isinstance(value, numbers.Integral) and not isinstance(value, bool)
            and (least is None or value >= least))


def as_record(value, record, function_field, name, what):
    """``value`` as a ``record`` (what ``Puzzle(...)`` takes for its ``what``): itself, or
    (``function_field``) a bare function, or (``Moves``) a number of moves."""
    if isinstance(value, record):
        return value
    if function_field is not None and callable(value):
        return record(value)
    if record is Moves and is_whole(value):
        return Moves(int(value))
    if value is None and what != "rank":
        raise PuzzleDefinitionError(f"{name}: give its {what} ({record.__name__}(...))")
    raise PuzzleDefinitionError(f"{name}: {what} must be a {record.__name__}, got {value!r}")


@state_function
def no_rank(state, tables):
    """Placeholder rank for puzzles without one (never called by the engine)."""
    return 0


@state_function
def single_component(state, tables):
    """Component function of puzzles without an invariant."""
    return 0


def role_table() -> str:
    """The roles as a Markdown table (the README prints it; a test keeps the two equal)."""
    rows = ["| role | given in | signature | without it |", "| --- | --- | --- | --- |"]
    for role in ROLES:
        if role.record is None:
            continue
        given = {"goal": "`Puzzle(goal=...)`", "heuristic": "`Puzzle(heuristic=...)`"}.get(role.record,
                                                                                        f"`{role.record.title()}`")
        without = "required" if role.required else role.default
        rows.append(f"| `{role.name}` | {given} | `{role.signature}` | {without} |")
    return "\n".join(rows)
