"""Where a layer's time went: its seconds split over the phases of ``vecsearch.kernels.phases``.

Kernels count cycles per phase into ``PhaseClock.cycles``; work done in Python (gathering a
layer, a pass over a table) is timed directly with ``PhaseClock.timing``. ``split`` gives the
directly timed seconds as they are, and shares the rest of the layer's seconds (kernels on
several threads, and the calls' overheads) in proportion to the kernels' cycles (to the timed
phases when no kernel counted), so the phases add up to the layer's ``seconds``.
"""

from __future__ import annotations

import contextlib

from vecsearch.engine.runtime import jit
from vecsearch.kernels.phases import PHASES, new_clock


class PhaseClock:
    def __init__(self):
        self.cycles = new_clock()
        self.direct = dict.fromkeys(PHASES, 0.0)

    @contextlib.contextmanager
    def timing(self, phase: str):
        """Add the block's seconds to ``phase``, compile time excluded (as from the layer's)."""
        watch = jit.Stopwatch()
        try:
            yield
        finally:
            self.direct[phase] += watch.search_seconds

    def split(self, seconds: float) -> dict[str, float]:
        """The phases' seconds of a layer that took ``seconds``."""
        rest = max(seconds - sum(self.direct.values()), 0.0)
        weights = [int(c) for c in self.cycles]
        if not any(weights):  # no kernel counted: the Python in between goes with the timed phases
            weights = [self.direct[phase] for phase in PHASES]
        total = sum(weights)
        return {phase: self.direct[phase] + (rest * w / total if total else 0.0)
                for phase, w in zip(PHASES, weights, strict=True)}
