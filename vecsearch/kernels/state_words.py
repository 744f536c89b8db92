"""State-shape helpers that let one layer-kernel template serve narrow and wide puzzles.

A *narrow* state is one int64 word: a layer is a 1-D int64 array and a state is a scalar.
A *wide* state is ``width`` int64 words: a layer is a 2-D ``(n, width)`` array and a state is a
row of it. The generated kernel module binds one of the two families below under the neutral
names ``first_word``, ``state_hash``, ``states_equal`` and ``new_states``. The first word of
every valid state is never -1: hash tables use -1 to mark an empty slot.
"""

import numpy as np

from vecsearch._numba import state_function

EMPTY = -1


@state_function
def mix64(x):
    """splitmix64 finaliser: a cheap, well-spread 64-bit hash (as int64)."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z)


@state_function
def narrow_first_word(state):
    return state


@state_function
def narrow_hash(state):
    return mix64(state)


@state_function
def narrow_equal(a, b):
    return a == b


@state_function
def narrow_new_states(n, width):
    return np.empty(n, np.int64)


@state_function
def wide_first_word(state):
    return state[0]


@state_function
def wide_hash(state):
    h = np.int64(0)
    for k in range(state.shape[0]):
        h = mix64(h ^ state[k])
    return h


@state_function
def wide_equal(a, b):
    for k in range(a.shape[0]):
        if a[k] != b[k]:
            return False
    return True


@state_function
def wide_new_states(n, width):
    return np.empty((n, width), np.int64)
