"""The whole ``.tws`` / ksolve ``.def`` format and cubing.js's KPuzzle JSON: every command, what
each means, and bad files refused with the file and the line."""

import json
import re
import warnings
from pathlib import Path

import pytest
from command_line import run, run_process

import vecsearch as vs
from vecsearch.errors import DefinitionNote
from vecsearch.puzzles.permutation import PermutationPuzzle, format_definition, parse_definition
from vecsearch.puzzles.permutation.definition import is_rotation

SEQUENCES = """
Name turn and flip   # a name with spaces
Set A 4 1
Move R
A
2 3 1 4
End
Move x
A
4 3 2 1
End
MoveSequence S x R x
MoveAlias T R'
"""


def test_rotations_are_named_as_twsearch_names_them():
    assert all(map(is_rotation, ["x", "y2", "z'", "Fv", "DFLv", "BR_v"]))
    assert not any(map(is_rotation, ["R", "xx", "Fv2", "fv", "2F", "x3", "FDvv"]))


def test_sequences_aliases_and_rotations():
    with pytest.warns(DefinitionNote, match=r"turn and flip: x: whole-puzzle rotations \(twsearch's reading\), not"
                                            r" search moves: left out"):
        d = parse_definition(SEQUENCES)
    assert d.name == "turn and flip"
    assert [m.name for m in d.moves] == ["R", "S"] and [m.name for m in d.rotations] == ["x"]
    assert [m.name for m in d.aliases] == ["T"]
    x, r = d.rotations[0], d.moves[0]
    assert d.moves[1].changes == d.then(d.then(x, r), x).changes  # S = x R x, applied left to right
    puzzle = PermutationPuzzle(d)
    assert puzzle.move_names == ("R", "R'", "S", "S'")  # no x, no T: not search moves
    assert puzzle.parse_state("T") == puzzle.parse_state("R'") == puzzle.parse_state("R R")
    assert puzzle.parse_state("x x") == puzzle.goal_states()[0]  # rotations may be played in move text
    assert "x" in puzzle.notes[0] and "rotations" in repr(d)


def test_identical_pieces_ignored_orientations_and_zero_based_blocks():
    d = parse_definition("""
Set A 4 3
StartState
A
0 0 2 2
? ? 0 1
End
MoveTransformation M
A
1 2 3 0
1 0 0 2
End
Move N
A
2 3 4 1
2 1 0 0
End
""")
    assert d.solved == (((0, 0, 1, 1), (0, 0, 0, 1)),) and d.wild == (frozenset({0}),)
    assert d.label_names == ((1, 3),)  # numbers as written (0-based in StartState: 0 and 2)
    m, n = d.moves
    assert m.changes == n.changes  # MoveTransformation's twist is the arriving piece's: [o[p[i]]] of Move's
    state = d.apply(d.solved, m)
    assert state == (((0, 1, 1, 0), (0, 0, 1, 0)),)  # the ignored pieces keep twist 0, whatever a move adds


def test_illegal_blocks_ignore_and_ksolve_leftovers():
    text = """
Name ksolve file
Set A 4 2
Set C 1 1
Solved
A
1 2 3 4
End
Move P
A
2 1 3 4
1 1 0 0
C
1
1
End
Move Q
A
1 2 4 3
End
Illegal A 3 1 2
Block
A
1
C
1
End
Ignore
A
0 0 1 1
0 0 1 1
End
Multiplicators
P 2
End
"""
    with pytest.warns(DefinitionNote) as notes:
        d = parse_definition(text)
    assert [str(n.message) for n in notes] == [
        "ksolve file: line 28: Ignore (what a ksolve scramble may leave unsolved) does not change the puzzle: read and"
        " left out",
        "ksolve file: line 33: Multiplicators (deprecated in ksolve, which ignores it): left out"]
    assert d.illegal == {"A": {2: frozenset({0, 1})}}
    assert d.blocks == ({"A": frozenset({0}), "C": frozenset({0})},)
    assert d.moves[0].marked == {"C": frozenset({0})}  # a twist of a piece without orientations: it moves
    assert d.moved_slots(d.moves[0]) == {"C": {0}, "A": {0, 1}}
    puzzle = PermutationPuzzle(d)
    assert vs.bfs(puzzle).total_states == 4  # P moves pieces 1 and C together; Q never puts 1 or 2 in slot 3
    assert "Block" in format_definition(d) and parse_definition(format_definition(d)).blocks == d.blocks


def test_any_byte_in_a_comment_and_names_with_spaces(tmp_path):
    path = tmp_path / "latin.def"
    path.write_bytes(b"Name K\xe5re's cube\n# def-file by K\xe5re Krig\nSet A 2 1\nMove X\nA\n2 1\nEnd\n")
    d = vs.load_definition(path)
    assert d.name == "K\u00e5re's cube" and vs.bfs(PermutationPuzzle(d)).total_states == 2


def test_a_last_block_cut_off_by_the_end_of_the_file_is_read_with_a_note():
    with pytest.warns(DefinitionNote, match="line 4: the text ends without the block's End: read as if it followed"):
        d = parse_definition("Set A 3 1\nMove X\nA\n2 3 1\n")
    assert [m.name for m in d.moves] == ["X"]


@pytest.mark.parametrize("text,message", [
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nMoveSequence Y X Z\n",
     "line 6: Y: 'Z' names no move, rotation or earlier sequence"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nMoveAlias Y X X\n", "line 6: expected `MoveAlias NAME MOVE`"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nMoveSequence X X X\n", "line 6: move 'X' is defined twice"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nIllegal A 4 1\n", "line 6: slot 4 is out of range 1..3"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nIllegal B 1 1\n",
     "line 6: expected `Illegal ORBIT SLOT PIECE...` with an orbit"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nIllegal A 1 5\n", "line 6: piece 5 is not a piece of orbit A"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nIllegal A 1 1\n", "the solved state is itself illegal"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nBlock\nA\n4\nEnd\n", "line 8: piece '4' is out of range 1..3"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nBlock\nEnd\n", "line 7: an empty Block"),
    ("Set A 3 2\nMove X\nA\n2 3 1\n? 0 0\nEnd\n", "line 5: token '?' is not a whole number >= 0"),
    ("Set A 3 2\nSolved\nA\n1 1 2\n? 0 0\nEnd\nMove X\nA\n2 3 1\nEnd\n",
     "identical pieces must all have their orientation ignored (?) or none"),
    ("Set A 3 2\nSolved\nA\n1 2 3\n0 0 2\nEnd\n", "line 5: orientation '2' is out of range 0..1"),
    ("Set A 3 1\nMove X\nA\n2 3 1\nEnd\nForbiddenPairs\nX X\nEnd\n", "line 6: ForbiddenPairs (ksolve's ban on some"
                                                                      " consecutive moves) is not supported"),
])
def test_bad_files_are_refused_with_the_line(text, message, tmp_path):
    path = tmp_path / "bad.tws"
    path.write_text(text)
    with pytest.raises(vs.InvalidPuzzleInput) as error:
        vs.load_definition(path)
    assert str(error.value).startswith(f"{path}") and message in str(error.value)


KPUZZLE = {
    "name": "tiny",
    "orbits": [{"orbitName": "C", "numPieces": 4, "numOrientations": 3}],
    "defaultPattern": {"C": {"pieces": [0, 0, 2, 3], "orientation": [0, 0, 0, 0], "orientationMod": [1, 1, 0, 0]}},
    "moves": {"U": {"C": {"permutation": [1, 2, 3, 0], "orientationDelta": [0, 0, 0, 0]}},
              "x": {"C": {"permutation": [1, 0, 2, 3], "orientationDelta": [1, 2, 0, 0]}}},
    "derivedMoves": {"F": "[x: U]", "G": "(U F)2'", "H": "[U, F2]", "Fv": "x U'"},
}


def test_kpuzzle_json(tmp_path):
    path = tmp_path / "tiny.kpuzzle.json"
    path.write_text(json.dumps(KPUZZLE))
    with pytest.warns(DefinitionNote, match="x, Fv: whole-puzzle rotations"):
        d = vs.load_definition(path)
    assert [m.name for m in d.moves] == ["U", "F", "G", "H"] and [m.name for m in d.rotations] == ["x", "Fv"]
    u, x, f = d.moves[0], d.rotations[0], d.moves[1]
    then, back = d.then, d.inverse
    assert f.changes == then(then(x, u), back(x)).changes
    assert d.moves[2].changes == back(then(then(u, f), then(u, f))).changes
    assert d.moves[3].changes == then(then(then(u, then(f, f)), back(u)), back(then(f, f))).changes
    assert d.wild == (frozenset({0}),) and d.solved[0][0] == (0, 0, 1, 2)
    puzzle = PermutationPuzzle(d)
    assert puzzle.format_state(puzzle.goal_states()[0]) == "1 1 3 4 / ? ? 0 0"
    for change, message in [({"derivedMoves": {"F": "[x: V]"}}, "derivedMoves F: 'V' names no move"),
                            ({"orbits": [{"orbitName": "C", "numPieces": 4, "numOrientations": 4}],
                              "defaultPattern": {"C": {"pieces": [0, 1, 2, 3], "orientation": [0] * 4,
                                                       "orientationMod": [2, 0, 0, 0]}}},
                             "orientationMod 2 is not supported"),
                            ({"moves": {"U": {"C": {"permutation": [0]}}}},
                             "move U, orbit C: \"permutation\" must be a list of 4 whole numbers")]:
        path.write_text(json.dumps({**KPUZZLE, **change}))
        with pytest.raises(vs.InvalidPuzzleInput, match=message):
            vs.load_definition(path)


def test_kpuzzle_orbits_not_declared_are_ignored_with_a_note_as_cubing_js_ignores_them(tmp_path):
    # twsearch's kilominx.kpuzzle.json: its moves keep the megaminx's EDGES and CENTERS, its orbits only CORNERS
    path = tmp_path / "tiny.kpuzzle.json"
    path.write_text(json.dumps(KPUZZLE))
    with pytest.warns(DefinitionNote):
        declared = vs.load_definition(path)
    extra = {"E": {"permutation": [1, 0], "orientationDelta": [0, 0]}, "W": {"permutation": "not read"}}
    moves = {name: {**changes, **extra} for name, changes in KPUZZLE["moves"].items()}
    path.write_text(json.dumps({**KPUZZLE, "moves": moves,
                                "defaultPattern": {**KPUZZLE["defaultPattern"], "E": {"pieces": [0, 1]}}}))
    with pytest.warns(DefinitionNote) as notes:
        extended = vs.load_definition(path)
    assert [str(n.message) for n in notes][-1] == \
        "tiny: E, W: not in \"orbits\" (C): ignored in moves U, x and defaultPattern, as cubing.js ignores them"
    assert [(m.name, m.changes) for m in extended.moves + extended.rotations] == \
        [(m.name, m.changes) for m in declared.moves + declared.rotations]
    assert (extended.orbits, extended.solved, extended.wild) == (declared.orbits, declared.solved, declared.wild)


def test_the_command_line_reads_def_and_json_files_and_prints_the_notes(tmp_path):
    path = tmp_path / "sequences.def"
    path.write_text(SEQUENCES)
    code, out, err = run_process("bfs", str(path), "--csv")  # a process: the note as Python shows a warning there
    assert code == 0 and sum(int(row.split(",")[2]) for row in out.splitlines()[1:]) == 12  # A4
    assert err == ("vecsearch: note: turn and flip: x: whole-puzzle rotations (twsearch's reading), not search"
                   " moves: left out (definition.rotations keeps them)\n")
    json_path = tmp_path / "tiny.kpuzzle.json"
    json_path.write_text(json.dumps(KPUZZLE))
    code, _, err = run("bfs", str(json_path))
    assert code == 0 and "vecsearch: note: tiny: x, Fv" in err


def test_written_definitions_read_back_the_same():

    here = Path(__file__).parent / "data" / "definitions"
    with pytest.warns(DefinitionNote):
        originals = [parse_definition(SEQUENCES), vs.load_definition(here / "bandaged.def")]
    originals += [vs.load_definition(here / name) for name in ("wildcards.tws", "illegal.tws")]
    for d in originals:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DefinitionNote)
            again = parse_definition(format_definition(d))
        assert (again.solved, again.label_names, again.wild, again.illegal, again.blocks) == \
            (d.solved, d.label_names, d.wild, d.illegal, d.blocks)
        assert [(m.name, m.changes) for m in again.moves + again.rotations + again.aliases] == \
            [(m.name, m.changes) for m in d.moves + d.rotations + d.aliases]


@pytest.mark.parametrize("name", ["twsearch-main-3x3x3.tws", "wildcards.tws", "twsearch-symm-skewb_diamond.tws"])
def test_a_scramble_read_by_gathers_is_the_moves_applied_one_by_one(name):
    # distinct pieces; identical pieces with ignored orientations; rotations and their powers named in move text
    import random

    from vecsearch.puzzles.permutation.statetext import MoveText

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DefinitionNote)
        definition = vs.load_definition(Path(__file__).parent / "data" / "definitions" / name)
    names = {m.name: m for m in definition.move_set("htm")} | definition.named_moves()
    reader, rng = MoveText(definition, names), random.Random(11)
    for _ in range(200):
        tokens = [rng.choice(list(names)) for _ in range(rng.randrange(30))]
        state = definition.solved
        for token in tokens:
            state = definition.apply(state, names[token])
        assert reader.play(tokens) == state, tokens


def _cube_neighbours(definition):
    """The half-turn metric's moves of ``definition`` applied to tuples (the plain-Python reference)."""
    from reference import permutation_neighbours

    index = {o.name: j for j, o in enumerate(definition.orbits)}
    return permutation_neighbours([(m.name, {index[o]: c for o, c in m.changes.items()})
                                   for m in definition.move_set("htm")], [o.orientations for o in definition.orbits])


def test_a_twsearch_scramble_file_names_each_start(tmp_path):
    from reference import replay

    cube = vs.get_puzzle("2x2x2.tws")
    turn = _cube_neighbours(cube.definition)
    r_u = replay(cube.definition.solved, ["R", "U"], turn)
    (pieces, twists), = r_u
    text = (f"# scrambles (twsearch's .scr)\nScramble first\nCORNERS\n{' '.join(str(p + 1) for p in pieces)}\n"
            f"{' '.join(map(str, twists))}\nEnd\nScrambleState first\nCORNERS\n{' '.join(map(str, pieces))}\n"
            f"{' '.join(map(str, twists))}\nEnd\nStartState noname\nEnd\nScrambleAlg over_lines\nR\nU  # a comment\n"
            "F2\nEnd\nScrambleAlg noname\nEnd\n")
    scrambles = cube.scrambles(text.encode())
    assert [name for name, _ in scrambles] == ["first", "first (2)", "noname", "over_lines", "noname (2)"]
    expected = [r_u, r_u, cube.definition.solved, replay(cube.definition.solved, ["R", "U", "F2"], turn),
                cube.definition.solved]
    assert [cube.pieces(cube.states(start)[0]) for _, start in scrambles] == expected
    for bad, message in [("Scramble\nEnd\n", "line 1: expected `Scramble NAME`, got 'Scramble'"),
                         ("CPOS 0123\n", "line 1: expected one of Scramble, ScrambleState, StartState, ScrambleAlg and"
                                         " a name, got 'CPOS 0123' (twsearch's compact positions are not read)"),
                         ("Scramble x\nEDGES\n", "line 2: expected an orbit name (CORNERS) or End, got 'EDGES'"),
                         ("Scramble x\nCORNERS\n1 2 3\nEnd\n", "line 3: expected 8 piece numbers, got 3 tokens"),
                         ("ScrambleAlg x\nR U\n", "line 2: expected moves or End, got the end of the text")]:
        with pytest.raises(vs.InvalidPuzzleInput, match=re.escape(message)):
            cube.scrambles(bad)


def test_batch_solves_a_scramble_file_with_its_names_as_ids(tmp_path):
    import random

    from reference import bfs_layers, replay

    cube = vs.get_puzzle("2x2x2.tws")
    turn = _cube_neighbours(cube.definition)
    depth = {state: d for d, layer in enumerate(bfs_layers([cube.definition.solved], turn, max_depth=4))
             for state in layer}
    rng, names, lines, starts = random.Random(5), [m.name for m in cube.definition.move_set("htm")], [], {}
    for k in range(12):
        moves = [rng.choice(names) for _ in range(rng.randrange(5))]
        lines += [f"ScrambleAlg s{k}", " ".join(moves), "End"]
        starts[f"s{k}"] = replay(cube.definition.solved, moves, turn)
    path = tmp_path / "twelve.scr"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run("batch", "2x2x2.tws", str(path))
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["id"] for r in records] == list(starts)
    for r in records:
        assert r["length"] == depth[starts[r["id"]]]
        assert replay(starts[r["id"]], r["moves"].split(), turn) == cube.definition.solved
    path.write_text("Scramble fine\nEnd\nScramble odd\nCORNERS\n2 1 3 4 5 6 7 8\nEnd\n")  # one unreachable state
    code, out, err = run("batch", "2x2x2.tws", str(path))
    assert code == 0 and [json.loads(line)["id"] for line in out.splitlines()] == ["fine", "odd"]
    path.write_text("Scramble twice\nCORNERS\n1 1 3 4 5 6 7 8\nEnd\nScramble fine\nEnd\n")  # a position, no pattern
    code, out, err = run("batch", "2x2x2.tws", str(path))
    records = {r["id"]: r for r in map(json.loads, out.splitlines())}
    assert code == 2 and records["fine"]["length"] == 0 and "not those of the solved state" in records["twice"]["error"]
    path.write_text("Scramble x\nCORNERS\n1 2\nEnd\n")
    code, out, err = run("batch", "2x2x2.tws", str(path))
    assert (code, out, err) == (2, "", f"vecsearch: error: {path}, line 3: expected 8 piece numbers, got 2 tokens\n")
    jugs = str(Path(__file__).parent.parent / "examples" / "jugs.py")  # a puzzle of one's own: JSON lines only
    code, _, err = run("batch", jugs, str(path))
    assert (code, err) == (2, 'vecsearch: error: jugs-8-5-3 has no judge format: give JSON lines {"id", "start",'
                              ' "goal"}\n')


def test_move_text_reads_any_amount_of_a_move_as_cubing_js_algorithms_write_it():
    import random

    cube = vs.get_puzzle("2x2x2.tws")
    d, rng = cube.definition, random.Random(3)
    for _ in range(60):
        tokens, state = [], d.solved
        for _ in range(rng.randrange(1, 6)):
            move, amount, prime = rng.choice(d.moves), rng.randrange(1, 9), rng.random() < 0.5
            tokens.append(f"{move.name}{amount if amount > 1 else ''}{chr(39) if prime else ''}")
            for _ in range((-amount if prime else amount) % 4):  # a face turn's order: 4
                state = d.apply(state, move)
        assert cube.pieces(cube.states(" ".join(tokens))[0]) == state, tokens
    two = cube.with_moves("U R2")  # a move named R2: R2' is it again
    assert two.pieces(two.states("R2' U3")[0]) == cube.pieces(cube.states("R2 U'")[0])
    for text, message in [("R U Q2", "token 3 is 'Q2'; expected a move name"), ("R2''", "token 1 is \"R2''\"")]:
        with pytest.raises(vs.InvalidPuzzleInput, match=re.escape(message)):
            cube.states(text)
