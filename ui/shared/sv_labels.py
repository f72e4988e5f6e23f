"""The one rule for the per-point label every table shows (pure: model → strings). The
engine's categories (svm_engine/finalize.py) are the solver's: they call a point with α = 0
"non-SV" even where it lies on the margin, and a point exactly on the hyperplane "inside
margin". A student reads the chapter's words instead: a support vector is any point at the
minimum distance (Zaki & Meira, ch. 21, slide 6; slide 16 lists x2 and x14 of D1, whose α
some optimal solutions set to 0), and ξ ≥ 1 is a mistake (slide 17). The tables, the
Playground's browser table (through fit_api's payload) and PSVM all use ``point_labels``."""

from __future__ import annotations

import numpy as np

#: y·h(x) within this of 1 prints as 1.000 (the tables print three decimals): on the margin
MARGIN_DIGITS = 5e-4
#: ξ within this of 1 is h(x) = 0 to the engine's tolerance (svm_engine/certify.py's TOL)
ON_HYPERPLANE = 1e-6

ON_MARGIN_ZERO = "SV (on the margin, α = 0)"
ON_HYPERPLANE_LABEL = "misclassified (on the hyperplane)"
PSVM_POSITIVE = "SV (PSVM, α > 0)"
PSVM_NEGATIVE = "SV (PSVM, α < 0)"

#: what each label means, shown beside every table that uses them
LABEL_LEGEND = (
    "Labels: margin SV = α > 0 on the margin (y·h(x) = 1); bound SV = α = C; "
    f"{ON_MARGIN_ZERO} = on the margin with α = 0 — still a support vector in the chapter's "
    "sense (a point at the minimum distance, slide 6); another optimal α may use it; "
    "non-SV = beyond the margin (y·h(x) > 1); inside margin = 0 < y·h(x) < 1; "
    f"misclassified = y·h(x) < 0, and {ON_HYPERPLANE_LABEL} = h(x) = 0 (ξ = 1, counted as a "
    "mistake, slide 17). PSVM: every point is a support vector and its α may be negative.")


def point_labels(model) -> list[str]:
    """One label per training point of ``model`` (its ``category``, ``alpha``, ``y``,
    ``h_train``, ``xi``, ``solver``), by the rule LABEL_LEGEND states."""
    cat = np.asarray(model.category).astype(str)
    alpha = np.asarray(model.alpha, dtype=float)
    yh = np.where(np.asarray(model.y) > 0, 1.0, -1.0) * np.asarray(model.h_train, dtype=float)
    xi = np.asarray(model.xi, dtype=float)
    psvm = getattr(model, "solver", None) == "psvm"
    out = []
    for c, a, m, s in zip(cat, alpha, yh, xi, strict=True):
        if abs(s - 1.0) <= ON_HYPERPLANE and c != "misclassified":
            out.append(ON_HYPERPLANE_LABEL)
        elif psvm and c not in ("misclassified", "inside margin"):
            out.append(PSVM_NEGATIVE if a < 0 else PSVM_POSITIVE)
        elif c == "non-SV" and abs(m - 1.0) <= MARGIN_DIGITS:
            out.append(ON_MARGIN_ZERO)
        else:
            out.append(str(c))
    return out
