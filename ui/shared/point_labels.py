"""Each point's label in every points table (Playground, Worked examples, the browser's table
through its answer): one rule, here (issue 27 item 6).

The engine's categories (svm_engine/finalize.py) are α's: a point with α = 0 is "non-SV". The
chapter's are the geometry's: slide 6 calls every point at the margin's distance a support
vector (slide 16 lists x2 and x14 of D1, where a solver may leave α = 0: α is not unique
there), and slide 17 calls ξ ≥ 1 misclassified, a point on h(x) = 0 included (the Losses page
counts it as a 0-1 mistake). PSVM's α have either sign and every point is its support vector.
"""

from __future__ import annotations

import numpy as np

#: y·h(x) = 1 (or h(x) = 0) "to the printed digits": the three decimals the book prints
PRINTED_TOL = 5e-4
SV_ON_MARGIN = "SV (on the margin, α = 0)"
ON_HYPERPLANE = "misclassified (on the hyperplane)"
PSVM_NEGATIVE = "SV (α < 0: PSVM's α have either sign)"

#: what the labels mean, for a table's caption
LEGEND = ("Labels: margin SV (0 < α < C, y·h(x) = 1), bound SV (α = C), "
          f"{SV_ON_MARGIN} (y·h(x) = 1 where this solver left α = 0: slide 6 counts every "
          "point at the margin's distance; α is not unique then), inside margin (0 < ξ < 1), "
          f"misclassified (ξ > 1) and {ON_HYPERPLANE} (ξ = 1, h(x) = 0: slide 17's ξ ≥ 1), "
          "non-SV (y·h(x) > 1, α = 0).")


def point_labels(model, y=None) -> np.ndarray:
    """The label of each training point of ``model`` (strings, in the points' order); ``y``
    for a model that does not keep its labels (the Step-through's state after a step)."""
    cat = np.asarray(model.category).astype(object).copy()
    alpha = np.asarray(model.alpha, dtype=float)
    y = model.y if y is None else y
    yh = np.where(np.asarray(y) > 0, 1.0, -1.0) * np.asarray(model.h_train, dtype=float)
    if getattr(model, "solver", "") == "psvm":
        cat[(cat == "non-SV") & (alpha < 0)] = PSVM_NEGATIVE
    cat[(cat == "non-SV") & (np.abs(yh - 1.0) <= PRINTED_TOL)] = SV_ON_MARGIN
    cat[(cat == "inside margin") & (np.abs(yh) <= PRINTED_TOL)] = ON_HYPERPLANE
    return cat.astype(str)
