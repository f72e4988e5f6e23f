"""Is the data separable in the kernel's feature space? (needed for the hard margin, C = ∞)

With w = Σⱼ βⱼφ(xⱼ) (no loss of generality), separability is the feasibility of the
linear program  yᵢ(Σⱼ Kᵢⱼβⱼ + b) ≥ 1  for all i  (b dropped for the augmented bias, whose
K already holds the +1). If it is infeasible, the hard-margin dual is unbounded.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog


def is_separable(K: np.ndarray, y: np.ndarray, free_bias: bool) -> bool:
    n = len(y)
    A = y[:, None] * K
    if free_bias:
        A = np.hstack([A, y[:, None]])
    m = A.shape[1]
    res = linprog(np.zeros(m), A_ub=-A, b_ub=-np.ones(n), bounds=[(None, None)] * m,
                  method="highs")
    return res.status == 0
