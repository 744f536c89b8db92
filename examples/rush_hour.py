"""Rush Hour: slide the cars along their lines until the red car X reaches the exit, on its right."""

import numpy as np

import vecsearch as vs


def slides(at, tables, after, moves):  # at[i]: how far car i is from the left (top) edge; after[k]: a copy of at
    line, across, length = tables
    taken = np.zeros((6, 6), np.bool_)
    for i in range(len(at)):
        for step in range(length[i]):
            if across[i]:
                taken[line[i], at[i] + step] = True
            else:
                taken[at[i] + step, line[i]] = True
    k = 0
    for i in range(len(at)):
        for way in range(-1, 2, 2):
            for distance in range(1, 5):
                cell = at[i] - distance if way < 0 else at[i] + length[i] + distance - 1
                if not 0 <= cell < 6 or (taken[line[i], cell] if across[i] else taken[cell, line[i]]):
                    break
                after[k, i] += way * distance
                moves[k] = 8 * i + 4 * (way > 0) + distance - 1
                k += 1
    return k


def out(at, tables):
    return at[-1] == 4  # X, the last car, against the exit


def card(rows):
    cars = sorted(set("".join(rows)) - {".", "X"}) + ["X"]
    cells = [[(r, c) for r in range(6) for c in range(6) if rows[r][c] == car] for car in cars]
    across = [car[0][0] == car[-1][0] for car in cells]
    line, start = zip(*[car[0] if a else car[0][::-1] for car, a in zip(cells, across, strict=True)], strict=True)
    length = np.array([len(car) for car in cells])
    return vs.ValuePuzzle("rush-hour", vs.Vector(7 - length), slides,
                          vs.Moves(8 * len(cars), [f"{n}{s}{d}" for n in cars for s in "-+" for d in range(1, 5)]),
                          tables=(np.array(line), np.array(across), length), start=list(start), goal=out)


puzzle = card(["AA...O", "P..Q.O", "PXXQ.O", "P..Q..", "B...CC", "B.RRR."])  # card 1
