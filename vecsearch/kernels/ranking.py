"""Perfect ranks for the usual building blocks of puzzle states.

Conventions (tests/test_ranking.py asserts them):

- A *packed permutation* of ``n`` values holds value ``p[i]`` in bits ``[b*i, b*i+b)``.
- ``permutation_rank`` is the Lehmer-code rank: digit ``d_i`` = number of later values smaller than
  ``p[i]``, rank = sum of ``d_i * (n-1-i)!``; the identity has rank 0, ranks are lexicographic.
- ``even_half_rank`` is a perfect rank of the permutations of one parity in ``[0, n!/2)``: the
  Lehmer digit ``d_{n-2}`` (weight 1!) is fixed by the parity, so it is dropped and the rest is
  halved. ``half_unrank`` inverts it given the parity.
- A *k-subset* of ``{0..63}`` is a bit mask; ``subset_rank`` is its colex rank
  ``sum_j C(c_j, j+1)`` over its elements ``c_0 < c_1 < ...``, a perfect rank in ``[0, C(n, k))``
  for subsets of ``{0..n-1}``; ``subset_rank_among`` the same among the elements not taken.

Tables (factorials, binomials) are built once in Python and passed to kernels. A hot loop over
the values of a packed permutation may run ``MAX_PACKED`` times and stop early (``break``): a
constant trip count lets the compiler unroll it, which a count read from a table does not (the
sliding puzzles' Lehmer digits: the 3x4's enumeration ran 20% faster on one thread; measure, as
unrolling bloats a function and slowed the one-orbit rank steps). Digits are divided out with
``//``: this machine's 64-bit division (AMD EPYC) beat a multiply by a float reciprocal with its
corrections, which once replaced it (pancake-12's two-bit enumeration: 12.7 s against 13.6 s).
"""

import math

import numpy as np

from vecsearch._numba import state_function
from vecsearch.kernels.intrinsics import popcount

MAX_PACKED = 16  # values of a permutation packed 4 bits each into one int64


def factorial_table(n: int) -> np.ndarray:
    """``[0!, 1!, ..., n!]`` as int64 (n <= 20)."""
    return np.array([math.factorial(i) for i in range(n + 1)], dtype=np.int64)


def binomial_table(n: int) -> np.ndarray:
    """``table[a, b] = C(a, b)`` for ``0 <= a, b <= n`` as int64."""
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        for b in range(a + 1):
            table[a, b] = math.comb(a, b)
    return table


@state_function
def lehmer_digit(value, seen):
    """Number of values below ``value`` not yet in the ``seen`` mask."""
    return value - popcount(seen & ((np.int64(1) << value) - 1))


@state_function
def permutation_rank(packed, n, bits, factorials):
    """Lehmer rank of the packed permutation of ``0..n-1`` (``bits`` bits per value)."""
    mask = (np.int64(1) << bits) - 1
    seen = np.int64(0)
    rank = np.int64(0)
    for i in range(n - 1):
        value = (packed >> (bits * i)) & mask
        rank += lehmer_digit(value, seen) * factorials[n - 1 - i]
        seen |= np.int64(1) << value
    return rank


@state_function
def even_half_rank(packed, n, bits, factorials):
    """Rank in ``[0, n!/2)`` among permutations of the same parity (n >= 2)."""
    mask = (np.int64(1) << bits) - 1
    seen = np.int64(0)
    rank = np.int64(0)
    for i in range(n - 2):
        value = (packed >> (bits * i)) & mask
        rank += lehmer_digit(value, seen) * (factorials[n - 1 - i] // 2)
        seen |= np.int64(1) << value
    return rank


FIRST_SIXTEEN = np.int64(-81985529216486896)  # 0xFEDCBA9876543210: the values 0..15, 4 bits each
NIBBLE_LOW_BITS = 0x1111111111111111
REMEMBERED_TAKE = 3 + MAX_PACKED  # words of a memory ``remembered_take`` keeps


@state_function
def take_unused(unused, d):
    """The ``d``-th value of a list packed 4 bits per value, and the list without it."""
    value = (unused >> (4 * d)) & 15
    return value, (unused & ((np.int64(1) << (4 * d)) - 1)) | (((unused >> (4 * d)) >> 4) << (4 * d))


@state_function
def nth_unused(d, seen, n):
    """The ``d``-th smallest value of ``0..n-1`` not in the ``seen`` mask."""
    for value in range(n):
        if (seen >> value) & 1 == 0:
            if d == 0:
                return value
            d -= 1
    return -1


def digit_chunks(radices, limit: int = 1 << 16) -> tuple[np.ndarray, np.ndarray]:
    """Tables to read the digits of a mixed-radix number a few at a time (``chunked_digits``).

    ``radices[i]`` is the radix of digit ``i``, the most significant first (a Lehmer rank of
    ``n`` values: ``n, n-1, ..., 2``). Digits are cut into chunks from the least significant end,
    each as long as the product of its radices stays within ``limit`` (a Lehmer rank of 12
    values: 2 chunks). Returns ``size[c]``, the number of values of chunk ``c`` (the product of
    its radices), and ``digits[c, v]``, chunk ``c``'s digits for the value ``v``, packed 4 bits
    per digit at their places."""
    chunks, product = [], limit + 1
    for i in reversed(range(len(radices))):
        if product * radices[i] > limit:
            chunks.append([])
            product = 1
        chunks[-1].insert(0, i)
        product *= radices[i]
    size = np.array([math.prod(radices[i] for i in chunk) for chunk in chunks], np.int64)
    digits = np.zeros((len(chunks), max(size, default=1)), np.int64)
    for c, chunk in enumerate(chunks):
        rest = np.arange(size[c], dtype=np.int64)
        for i in reversed(chunk):
            digits[c, :size[c]] |= (rest % radices[i]) << (4 * i)
            rest //= radices[i]
    return size, digits


@state_function
def chunked_digits(number, size, digits, first=0):
    """The digits of ``number`` packed 4 bits each (tables from ``digit_chunks``; ``number``
    counts from chunk ``first`` on): one division and one lookup per chunk, where digit by digit
    would chain a division per digit."""
    packed = np.int64(0)
    for c in range(first, size.shape[0]):
        q = number // size[c]
        packed |= digits[c, number - q * size[c]]
        number = q
    return packed


@state_function
def remembered_digits(number, size, digits, memory, at):
    """``chunked_digits(number, size, digits)``, the chunks above the first divided only when
    they differ from those of the number before (``memory[at:at + 2]``: the first number of their
    chunk, their digits; -1: none). A number within the chunk of the one before is not divided at
    all (a thread's ranks mostly are)."""
    low = number - memory[at]
    if memory[at] < 0 or low < 0 or low >= size[0]:
        high = number // size[0]
        memory[at] = high * size[0]
        memory[at + 1] = chunked_digits(high, size, digits, 1)
        low = number - memory[at]
    return memory[at + 1] | digits[0, low]


@state_function
def half_unrank_digits(digits, parity, n, bits):
    """The packed permutation of ``n <= 16`` values of the given parity whose Lehmer digits
    ``0 .. n-3`` are ``digits`` (4 bits each), and its digits with the one of place ``n - 2``,
    which restores the parity: values from a list packed 4 bits each."""
    unused = FIRST_SIXTEEN
    packed = np.int64(0)
    for i in range(n - 2):
        value, unused = take_unused(unused, (digits >> (4 * i)) & 15)
        packed |= value << (bits * i)
    return parity_tail(packed, unused, digits, parity, n, bits)


@state_function
def parity_tail(packed, unused, digits, parity, n, bits):
    """``half_unrank_digits`` given the values of the places before ``n - 2`` (``packed``) and
    the list of those left (``unused``): the digit of place ``n - 2`` restores the parity."""
    d = (parity - popcount(digits & NIBBLE_LOW_BITS)) & 1  # the digits' sum is odd as their low bits are
    digits |= d << (4 * (n - 2))
    value, unused = take_unused(unused, d)
    packed |= value << (bits * (n - 2))
    return packed | ((unused & 15) << (bits * (n - 1))), digits


@state_function
def remembered_take(digits, n, memory, at):
    """The values of the places ``0 .. n-1`` whose Lehmer digits are ``digits`` (both 4 bits
    each), and the list of the values left (``take_unused``), ``memory[at:at + REMEMBERED_TAKE]``
    keeping those of the digits taken last: only the places from the first whose digit differs
    from theirs are taken again (a thread's consecutive ranks differ in their last digits)."""
    changed = digits ^ memory[at]
    if changed == 0:
        return memory[at + 1], memory[at + 2]
    start = 0 if memory[at] < 0 else min(n, popcount((changed & -changed) - 1) >> 2)
    unused = FIRST_SIXTEEN if start == 0 else memory[at + 3 + start]
    packed = memory[at + 1] & ((np.int64(1) << (4 * start)) - 1)
    for i in range(start, n):
        memory[at + 3 + i] = unused
        value, unused = take_unused(unused, (digits >> (4 * i)) & 15)
        packed |= value << (4 * i)
    memory[at] = digits
    memory[at + 1] = packed
    memory[at + 2] = unused
    return packed, unused


@state_function
def half_unrank(rank, parity, n, bits, factorials):
    """Packed permutation of the given parity whose ``even_half_rank`` is ``rank``."""
    if n <= 16:  # values from a packed list
        digits = np.int64(0)
        for i in range(n - 2):
            weight = factorials[n - 1 - i] >> 1
            d = rank // weight
            rank -= d * weight
            digits |= d << (4 * i)
        packed, _ = half_unrank_digits(digits, parity, n, bits)
        return packed
    seen = np.int64(0)
    packed = np.int64(0)
    digit_sum = np.int64(0)
    for i in range(n - 2):
        weight = factorials[n - 1 - i] // 2
        d = rank // weight
        rank -= d * weight
        digit_sum += d
        value = nth_unused(d, seen, n)
        packed |= np.int64(value) << (bits * i)
        seen |= np.int64(1) << value
    d = (parity - digit_sum) & 1  # the dropped digit d_{n-2} restores the parity
    value = nth_unused(d, seen, n)
    packed |= np.int64(value) << (bits * (n - 2))
    seen |= np.int64(1) << value
    packed |= np.int64(nth_unused(0, seen, n)) << (bits * (n - 1))
    return packed


@state_function
def permutation_unrank(rank, n, bits, factorials):
    """Packed permutation whose ``permutation_rank`` is ``rank``."""
    if n <= 16:
        unused = FIRST_SIXTEEN
        packed = np.int64(0)
        for i in range(n):
            d = rank // factorials[n - 1 - i]
            rank -= d * factorials[n - 1 - i]
            value, unused = take_unused(unused, d)
            packed |= value << (bits * i)
        return packed
    seen = np.int64(0)
    packed = np.int64(0)
    for i in range(n):
        weight = factorials[n - 1 - i]
        d = rank // weight
        rank -= d * weight
        value = nth_unused(d, seen, n)
        packed |= np.int64(value) << (bits * i)
        seen |= np.int64(1) << value
    return packed


@state_function
def subset_rank(mask, binomials):
    """Colex rank of the subset ``mask`` (elements are its set bits)."""
    return subset_rank_among(mask, np.int64(0), binomials)


@state_function
def subset_rank_among(mask, taken, binomials):
    """Colex rank of the subset ``mask`` among the elements not ``taken`` (disjoint from it):
    each element counts as its position among those."""
    rank = np.int64(0)
    j = 1
    while mask != 0:
        low = mask & -mask
        rank += binomials[np.uint64(popcount((low - 1) & ~taken)), np.uint64(j)]
        mask ^= low
        j += 1
    return rank


@state_function
def subset_unrank(rank, k, n, binomials):
    """The k-subset of ``{0..n-1}`` (as a mask) whose colex rank is ``rank``."""
    mask = np.int64(0)
    top = n - 1
    for j in range(k, 0, -1):
        while binomials[top, j] > rank:
            top -= 1
        rank -= binomials[top, j]
        mask |= np.int64(1) << top
        top -= 1
    return mask
