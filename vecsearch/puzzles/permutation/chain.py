"""Stabilizer chains (Schreier-Sims): a perfect rank over a permutation group.

Conventions: a permutation of ``degree`` points is a tuple ``g`` with ``g[x]`` the image of
point ``x``; ``compose(g, h)`` is ``x -> g[h[x]]`` (``h`` first). A chain has a *base*
``b_0, b_1, ...``: level ``l`` holds the group ``G_l`` of elements fixing ``b_0 .. b_{l-1}``
(``G_0 = G``), its *basic orbit* ``orbits[l]``, the images of ``b_l`` under ``G_l`` in the order
found, and for each image ``y`` a coset representative ``u_l(y) in G_l`` with ``u_l(y)[b_l] = y``.
Every element is ``g = u_0(y_0) u_1(y_1) ... u_{L-1}(y_{L-1})`` for exactly one choice of
images, read off by *sifting*: ``y_0 = g[b_0]``, then ``u_0(y_0)^-1 g`` fixes ``b_0``, and so on.
The **rank** of ``g`` is the mixed-radix number of the images' positions in their orbits, level 0
most significant: a perfect rank over the group, ``0 .. order-1``.

The chain is built by the randomised Schreier-Sims algorithm (random products of the
generators are sifted and what is left over is added) and then verified deterministically
(every Schreier generator of every level sifts through), so it is exact. ``limit`` stops the
work once the group is known to be larger (its order is at least the product of the orbit
lengths so far): ``GroupTooLarge``.
"""

from __future__ import annotations

import math
import random


class GroupTooLarge(Exception):
    """The group has more elements than the limit asked for."""


def compose(g, h):
    return tuple(g[x] for x in h)


def invert(g):
    out = [0] * len(g)
    for x, y in enumerate(g):
        out[y] = x
    return tuple(out)


class StabilizerChain:
    """The stabilizer chain of the group the ``generators`` (permutations of ``degree`` points)
    generate; ``GroupTooLarge`` if its order exceeds ``limit``."""

    def __init__(self, generators, degree: int, limit: int | None = None, seed: int = 1):
        self.degree = degree
        self.identity = tuple(range(degree))
        self.generators = [tuple(g) for g in generators if tuple(g) != self.identity]
        self.limit = limit
        self.base: list[int] = []
        self.strong: list[list[tuple]] = []  # the generators of each level's group
        self.transversals: list[dict] = []  # level: {image: (u, u inverse)}
        self.orbits: list[list[int]] = []
        for g in self.generators:
            self._add(g, 0)
        self._random_phase(random.Random(seed))
        self._verify()

    # --- building -------------------------------------------------------------------------------
    def _new_level(self, g) -> None:
        point = next(x for x in range(self.degree) if g[x] != x)
        self.base.append(point)
        self.strong.append([])
        self.transversals.append({point: (self.identity, self.identity)})
        self.orbits.append([point])

    def _add(self, g, level: int) -> None:
        """Add ``g`` (which fixes the base points before ``level``) as a strong generator of
        ``level`` and the levels below it that it fixes, extending their orbits."""
        h, where = self.sift(g, level)
        if h == self.identity:
            return
        if where == len(self.base):
            self._new_level(h)
        for lv in range(level, where + 1):
            self.strong[lv].append(h)
            self._extend_orbit(lv)

    def _extend_orbit(self, level: int) -> None:
        beta, table, orbit = self.base[level], self.transversals[level], self.orbits[level]
        at = 0
        while at < len(orbit):
            x = orbit[at]
            u = table[x][0]
            for s in self.strong[level]:
                y = s[x]
                if y not in table:
                    v = compose(s, u)
                    table[y] = (v, invert(v))
                    orbit.append(y)
            at += 1
        assert table[orbit[0]][0][beta] == beta
        if self.limit is not None and math.prod(len(o) for o in self.orbits) > self.limit:
            raise GroupTooLarge(f"more than {self.limit:,} elements")

    def sift(self, g, level: int = 0):
        """``(residue, level reached)``: ``g`` divided by the coset representatives of its images
        from ``level`` on, until an image leaves its orbit (the residue is then not the identity)."""
        for lv in range(level, len(self.base)):
            y = g[self.base[lv]]
            if y not in self.transversals[lv]:
                return g, lv
            g = compose(self.transversals[lv][y][1], g)
        return g, len(self.base)

    def _random_phase(self, rng: random.Random, quiet: int = 24) -> None:
        """Sift random products of the generators until ``quiet`` in a row sift to the identity."""
        if not self.generators:
            return
        element, streak = self.identity, 0
        while streak < quiet:
            for _ in range(3):
                element = compose(rng.choice(self.generators), element)
            h, where = self.sift(element)
            if h == self.identity:
                streak += 1
            else:
                streak = 0
                self._add(h, where if where < len(self.base) else where)

    def _verify(self) -> None:
        """Add every Schreier generator that does not sift through, until none is left: the chain
        is then exact (Schreier's lemma)."""
        level = len(self.base) - 1
        while level >= 0:
            residue = self._failing_schreier_generator(level)
            if residue is None:
                level -= 1
                continue
            h, where = residue
            self._add(h, where)
            level = len(self.base) - 1

    def _failing_schreier_generator(self, level: int):
        table = self.transversals[level]
        for x in self.orbits[level]:
            u = table[x][0]
            for s in self.strong[level]:
                schreier = compose(table[s[x]][1], compose(s, u))
                h, where = self.sift(schreier, level + 1)
                if h != self.identity:
                    return h, where
        return None

    # --- using ----------------------------------------------------------------------------------
    @property
    def order(self) -> int:
        return math.prod(len(orbit) for orbit in self.orbits)

    @property
    def weights(self) -> list[int]:
        """The place value of each level's digit in the rank (level 0 most significant)."""
        out, weight = [], 1
        for orbit in reversed(self.orbits):
            out.append(weight)
            weight *= len(orbit)
        return out[::-1]

    def rank(self, g) -> int | None:
        """The rank of ``g``, or None if ``g`` is not in the group."""
        rank = 0
        for lv, weight in enumerate(self.weights):
            y = g[self.base[lv]]
            if y not in self.transversals[lv]:
                return None
            rank += self.orbits[lv].index(y) * weight
            g = compose(self.transversals[lv][y][1], g)
        return rank if g == self.identity else None

    def unrank(self, rank: int):
        g = self.identity
        for lv, weight in enumerate(self.weights):
            digit, rank = divmod(rank, weight)
            g = compose(g, self.transversals[lv][self.orbits[lv][digit]][0])
        return g
