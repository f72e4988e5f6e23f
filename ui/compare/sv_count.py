"""Why solvers that agree on w and b report different numbers of support vectors (pure text,
beside the Compare table): on D1 SMO keeps 3, the book 5, cvxopt 4 — the same hyperplane."""

from __future__ import annotations

import numpy as np

#: y·h(x) within this of 1: on the margin (the tables print three decimals)
ON_MARGIN = 5e-4


def sv_count_note(models) -> str:
    """One sentence when the converged fits disagree on the number of support vectors: how
    many points lie on the margin and why α may use any of them; "" when they agree."""
    fits = [m for m in models if m is not None and m.converged and m.solver != "psvm"]
    counts = sorted({int(m.n_support) for m in fits})
    if len(counts) < 2:
        return ""
    m = fits[0]
    yh = np.where(np.asarray(m.y) > 0, 1.0, -1.0) * np.asarray(m.h_train, dtype=float)
    on = int(np.sum(np.abs(yh - 1.0) <= ON_MARGIN))
    listed = " / ".join(str(c) for c in counts)
    return (f"The solvers report {listed} support vectors for the same w and b: {on} points lie "
            "on the margin, and an optimal α may give any of them α > 0 or α = 0 (only w, b "
            "and the objective are unique; D1's optimal α are several, Worked example 1). A "
            "point on the margin with α = 0 is still at the minimum distance, a support vector "
            "in the chapter's sense (slide 6).")
