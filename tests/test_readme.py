"""What the README and the user guide (``docs/``) promise a new user is what the library and the command line do."""

import re
import subprocess
import sys
from pathlib import Path

import vecsearch as vs

ROOT = Path(__file__).parent.parent
# the README and the guide's pages: the promises, wherever a page keeps them
README = "\n".join(path.read_text() for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])


def test_the_readme_solution_string_is_the_one_python_and_the_cli_give():
    claimed = re.search(r'vs\.solve\("eight", "2 3 4 1 5 x 7 6 8"\) +# <Solution of 19 moves \.\.\.>,'
                        r' str\(\) -> \'(\w+)\'', README)
    assert claimed, "the README's first solve example moved: update this test"
    assert str(vs.solve("eight", "2 3 4 1 5 x 7 6 8")) == claimed[1]
    cli = subprocess.run([sys.executable, "-m", "vecsearch", "solve", "eight", "--text", "2 3 4 1 5 x 7 6 8"],
                         capture_output=True, text=True, timeout=600)
    assert cli.stdout == claimed[1] + "\n"


def test_the_readme_names_the_other_methods_paths_truly():
    named = re.search(r"`table` gives the same above, `bfs`\s+`(\w+)`, `idastar`, [^`]*`(\w+)`", README)
    assert named
    same = str(vs.solve("eight", "2 3 4 1 5 x 7 6 8"))
    for method, path in (("table", same), ("bfs", named[1]), ("idastar", named[2])):
        assert str(vs.solve("eight", "2 3 4 1 5 x 7 6 8", method=method)) == path



def test_the_readme_declares_the_roles_as_the_contract_does():
    from vecsearch.contract import role_table

    assert role_table() in README  # the README's table is the one the declarations make


def test_the_readme_puzzle_of_ones_own_is_solved_as_it_says():
    section = (ROOT / "docs" / "guide" / "own-puzzle.md").read_text()
    block = section[section.index("```python") + len("```python"):]
    code = block[:block.index("```")]
    claimed = re.search(r"vs\.solve\(puzzle\) +# (\d+) pours: ([A-C>\s]+)\n", code)
    assert claimed, "the guide's first puzzle of one's own moved: update this test"
    scope = {}
    exec(code.replace("vs.solve(puzzle)", "solution = vs.solve(puzzle)"), scope)
    assert len(scope["solution"]) == int(claimed[1]) and str(scope["solution"]) == claimed[2].strip()


def test_the_guide_goal_condition_is_solved_as_it_says():
    section = (ROOT / "docs" / "guide" / "own-puzzle.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    first, condition = blocks[0], next(block for block in blocks if "goal=holds_four" in block)
    claimed = re.search(r"vs\.solve\(four\) +# (\d+) pours: ([A-C> ]+), ending at ([\d ]+)\n", condition)
    assert claimed, "the guide's goal condition moved: update this test"
    scope = {}
    program = first.replace("vs.solve(puzzle)", "") + condition.replace("vs.solve(four)", "solution = vs.solve(four)")
    exec(program, scope)
    solution = scope["solution"]
    assert len(solution) == int(claimed[1]) and str(solution) == claimed[2].strip()
    assert scope["four"].format_state(solution.end) == claimed[3].strip()
