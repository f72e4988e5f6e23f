"""The clock a compiled loop can read: `now()` is time.perf_counter, also inside numba's
nopython code (through an object-mode block, a few microseconds: the loops read it once every
CLOCK_EVERY iterations). A loop stops at its deadline (issue 33 item 11: the engine's own time
budget, so that `se.fit` never runs for minutes)."""

from __future__ import annotations

import time

from ..jit import njit, numba

#: iterations between two readings of the clock (a power of two: `it & (CLOCK_EVERY − 1)`)
CLOCK_EVERY = 1024

if numba is not None:
    @njit(cache=True)   # object mode holds the GIL for the reading only
    def now():
        with numba.objmode(t="float64"):
            t = time.perf_counter()
        return t
else:   # without numba everything is Python
    now = time.perf_counter


@njit(cache=True, nogil=True)
def past(it, deadline):
    """True when iteration `it` is one that reads the clock and the deadline has passed."""
    return (it & (CLOCK_EVERY - 1)) == 0 and it > 0 and now() > deadline
