"""State-shape helpers that let one layer-kernel template serve narrow and wide puzzles.

A *narrow* state is one int64 word: a layer is a 1-D int64 array and a state is a scalar.
A *wide* state is ``width`` int64 words: a layer is a 2-D ``(n, width)`` array and a state is a
row of it. The generated kernel module binds one of the two families below under the neutral
names ``empty_at``, ``hash_at``, ``equal_at``, ``less_at``, ``copy_at`` and ``new_states`` (indexed forms, for
hot loops over layers and tables) and ``first_word``, ``state_hash`` and ``states_equal`` (value
forms, for code that holds one state: a scalar, or a row). The first word of every valid state
is never -1: hash tables use -1 to mark an empty slot.

A template copies a state with ``copy_at``, never by assigning a row (``states[i] = kids[j]``):
for a wide state that is numba's slice assignment, whose shape check compiles a formatted error
message (numba's unicode functions, 2 s once per process) into every kernel that holds one.

``word_of(state, w)``, ``put_word(states, i, w, value)`` and ``or_word(states, i, w, value)``
serve rules written once for both
shapes (the permutation puzzles' labels form): numba picks the narrow or the wide body from the
type of ``state`` (a scalar or a row), and plain Python does the same at run time.
"""

import numpy as np
from numba import types
from numba.extending import overload

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


# Helpers take (array, index) rather than a row view: a view of a 2-D row costs a reference
# count per use, which made wide hash-set inserts 7x slower in the probe loop.

@state_function
def narrow_empty_at(states, i):
    return states[i] == EMPTY


@state_function
def narrow_hash_at(states, i):
    return mix64(states[i])


@state_function
def narrow_equal_at(a, i, b, j):
    return a[i] == b[j]


@state_function
def narrow_less_at(a, i, b, j):
    """Whether state ``a[i]`` comes before ``b[j]`` (words compared as int64, the first first)."""
    return a[i] < b[j]


@state_function
def narrow_copy_at(dst, i, src, j):
    dst[i] = src[j]


@state_function
def narrow_new_states(n, width):
    return np.empty(n, np.int64)


@state_function
def narrow_first_word(state):
    return state


@state_function
def narrow_state_hash(state):
    return mix64(state)


@state_function
def narrow_states_equal(a, b):
    return a == b


@state_function
def wide_empty_at(states, i):
    return states[i, 0] == EMPTY


@state_function
def wide_hash_at(states, i):
    h = np.int64(0)
    for k in range(states.shape[1]):
        h = mix64(h ^ states[i, k])
    return h


@state_function
def wide_equal_at(a, i, b, j):
    for k in range(a.shape[1]):
        if a[i, k] != b[j, k]:
            return False
    return True


@state_function
def wide_less_at(a, i, b, j):
    for k in range(a.shape[1]):
        if a[i, k] != b[j, k]:
            return a[i, k] < b[j, k]
    return False


@state_function
def wide_copy_at(dst, i, src, j):
    for k in range(dst.shape[1]):
        dst[i, k] = src[j, k]


@state_function
def wide_new_states(n, width):
    return np.empty((n, width), np.int64)


@state_function
def wide_first_word(state):
    return state[0]


@state_function
def wide_state_hash(state):
    h = np.int64(0)
    for k in range(state.shape[0]):
        h = mix64(h ^ state[k])
    return h


@state_function
def wide_states_equal(a, b):
    for k in range(a.shape[0]):
        if a[k] != b[k]:
            return False
    return True


def word_of(state, w):
    """Word ``w`` of a state: the state itself when it is narrow (a scalar), else ``state[w]``."""
    return state if np.ndim(state) == 0 else state[w]


def put_word(states, i, w, value):
    """``states[i] = value`` for a narrow layer (``w`` is 0), ``states[i, w] = value`` for a wide one."""
    if states.ndim == 1:
        states[i] = value
    else:
        states[i, w] = value


def or_word(states, i, w, value):
    """``put_word`` with ``|=``."""
    if states.ndim == 1:
        states[i] |= value
    else:
        states[i, w] |= value


@overload(word_of, inline="always")
def _word_of(state, w):
    if isinstance(state, types.Integer):
        return lambda state, w: state
    return lambda state, w: state[w]


@overload(put_word, inline="always")
def _put_word(states, i, w, value):
    if states.ndim == 1:
        def narrow(states, i, w, value):
            states[i] = value
        return narrow

    def wide(states, i, w, value):
        states[i, w] = value
    return wide


@overload(or_word, inline="always")
def _or_word(states, i, w, value):
    if states.ndim == 1:
        def narrow(states, i, w, value):
            states[i] |= value
        return narrow

    def wide(states, i, w, value):
        states[i, w] |= value
    return wide
