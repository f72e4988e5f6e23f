"""The primal and dual objectives of the SVM (Zaki & Meira ch. 21), written once: `finalize`
(compiled, inside its one pass over α) and the Step-through page's objectives after every
recorded step (`objectives`) both use `primal_value` and `dual_value`.

* primal ½‖w‖² + C Σ ξᵢᵏ (‖w‖² includes b² for the augmented bias; k = 1 hinge, 2 quadratic);
  for the hard margin (C = ∞) ½‖w‖², and ∞ while a margin is violated by more than
  certify.TOL (the engine's one tolerance: what is shown as 0).
* dual Σα − ½αᵀQα, Q = yyᵀ∘K_eff (K_eff = K, + 1 for the augmented bias, + δ/(2C) for the
  quadratic loss).
"""

from __future__ import annotations

import math

import numpy as np

from .certify import TOL
from .jit import njit


@njit(cache=True, nogil=True, inline="always")
def primal_value(reg, loss, C, slack):
    """½·reg + C·loss (reg = ‖w‖² with b² for the augmented bias, loss = Σ ξᵢᵏ); for C = ∞
    ½·reg, or ∞ when ``slack`` (some ξᵢ > TOL)."""
    if C == math.inf:
        return 0.5 * reg if not slack else math.inf
    return 0.5 * reg + C * loss


@njit(cache=True, nogil=True, inline="always")
def dual_value(asum, aQa):
    """Σα − ½αᵀQα from Σα and αᵀQα."""
    return asum - 0.5 * aQa


def objectives(alpha, y, u, b, C, loss, bias) -> tuple[float, float, np.ndarray]:
    """(primal, dual, G = Qα − 1) at α with u = K(α∘y) (the kernel alone: no +1, no δ/(2C))
    and the bias b."""
    alpha, y, u = (np.asarray(v, dtype=float) for v in (alpha, y, u))
    ay = alpha * y
    s = u.copy()                          # K_eff(α∘y)
    if bias == "augmented":
        s += ay.sum()
    if loss == "quadratic":
        s += ay / (2.0 * C)
    G = y * s - 1.0
    xi = np.maximum(0.0, 1.0 - y * (u + b))
    reg = float(ay @ u) + (b * b if bias == "augmented" else 0.0)
    k = 2 if loss == "quadratic" else 1
    primal = primal_value(reg, float(np.sum(xi**k)), float(C), bool((xi > TOL).any()))
    return float(primal), float(dual_value(float(alpha.sum()), float(ay @ s))), G
