"""The rank conventions of vecsearch.kernels.ranking, against itertools enumerations."""

import itertools
import math

import numpy as np
import pytest
from numba import njit

from vecsearch.kernels import ranking


def inversions(p):
    return sum(1 for i in range(len(p)) for j in range(i + 1, len(p)) if p[i] > p[j])


def pack(values, bits=4):
    return sum(v << (bits * i) for i, v in enumerate(values))


@njit
def _ranks(packed, n, bits, factorials):
    out = np.empty(len(packed), np.int64)
    for i in range(len(packed)):
        out[i] = ranking.permutation_rank(packed[i], n, bits, factorials)
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7])
def test_permutation_rank_is_lexicographic_position(n):
    perms = list(itertools.permutations(range(n)))  # lexicographic order
    packed = np.array([pack(p) for p in perms], np.int64)
    ranks = _ranks(packed, n, 4, ranking.factorial_table(n))
    assert ranks.tolist() == list(range(math.factorial(n)))
    for r in (0, len(perms) // 3, len(perms) - 1):
        assert ranking.permutation_unrank(r, n, 4, ranking.factorial_table(n)) == packed[r]


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_even_half_rank_is_perfect_within_each_parity(n):
    factorials = ranking.factorial_table(n)
    for parity in (0, 1):
        perms = [p for p in itertools.permutations(range(n)) if inversions(p) % 2 == parity]
        ranks = sorted(ranking.even_half_rank(pack(p), n, 4, factorials) for p in perms)
        assert ranks == list(range(math.factorial(n) // 2))
        for p in perms:
            r = ranking.even_half_rank(pack(p), n, 4, factorials)
            assert ranking.half_unrank(r, parity, n, 4, factorials) == pack(p)


@pytest.mark.parametrize("n,k", [(5, 2), (8, 4), (16, 8), (64, 4)])
def test_subset_rank_is_colex_and_perfect(n, k):
    binomials = ranking.binomial_table(n)
    subsets = list(itertools.combinations(range(n), k)) if math.comb(n, k) < 20000 else \
        [tuple(sorted(np.random.default_rng(1).choice(n, k, replace=False))) for _ in range(2000)]
    for subset in subsets:
        mask = sum(1 << c for c in subset)
        mask = mask - (1 << 64) if mask >= 1 << 63 else mask
        expected = sum(math.comb(c, j + 1) for j, c in enumerate(subset))  # colex by definition
        assert ranking.subset_rank(mask, binomials) == expected
        assert ranking.subset_unrank(expected, k, n, binomials) == mask


@pytest.mark.parametrize("radices", [[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2], [5, 4, 3], [2],
                                     [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3]])
def test_chunked_digits_are_the_mixed_radix_digits(radices):
    size, digits = ranking.digit_chunks(radices)
    rng = np.random.default_rng(len(radices))
    total = math.prod(radices)
    for number in [0, total - 1, *rng.integers(0, total, 500).tolist()]:
        expected, rest = 0, number
        for i in reversed(range(len(radices))):  # the least significant digit is the last
            expected |= (rest % radices[i]) << (4 * i)
            rest //= radices[i]
        assert _chunked(np.int64(number), size, digits) == expected


@njit
def _chunked(number, size, digits):
    return ranking.chunked_digits(number, size, digits)
