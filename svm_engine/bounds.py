"""When an αᵢ counts as 0, as C, or as free (0 < αᵢ < C): one rule for every solver, every
page and the browser (which receives `browser_rules()` in its payload, never its own copy).

* αᵢ is a rounding residue (counts as 0) when αᵢ ≤ SUPPORT_REL · max α (`support_threshold`);
  relative to the largest α, never absolute (see `support_threshold`).
* αᵢ is at C when C is finite and αᵢ ≥ C · (1 − AT_C_REL). A solver that clips to the box
  puts αᵢ exactly on C; the band only absorbs the last bit of a rounding.
* αᵢ is free when it is neither.
* αᵢ is outside the box when αᵢ < −OUTSIDE_REL · C or αᵢ > C · (1 + OUTSIDE_REL): beyond
  what a rounding of a bound can be (the certificate fails such an α; a polish that solves
  for α puts it back on the bound it crossed).
"""

from __future__ import annotations

import math

import numpy as np

from .jit import njit

#: αᵢ ≤ SUPPORT_REL · max α is a rounding residue (counted as 0).
SUPPORT_REL = 1e-12
#: αᵢ ≥ C · (1 − AT_C_REL) is at the upper bound C.
AT_C_REL = 1e-12
#: αᵢ beyond the box [0, C] by more than OUTSIDE_REL · C is outside it.
OUTSIDE_REL = 1e-12


def support_threshold(alpha: np.ndarray) -> float:
    """αᵢ above this count as non-zero: it removes rounding residues (SMO's pair update can
    leave an αᵢ of 1e-17 beside αs of 1) and nothing a solver means. Relative to the largest
    α, never absolute: with polynomial degree 10 (kernel values ~1e17) or coordinates near 1e6
    every real αᵢ is below 1e-12, and an absolute floor zeroed them all (0 support vectors,
    50 % accuracy). A pair update's residue is a rounding of the αs it moved, ≤ ε·max α.
    (cvxopt's interior-point residues, up to ~1e-7, are qp's to remove: solvers/qp.py
    polishes them onto the bounds.) A larger threshold, e.g. 1e-8·max α, would zero a real
    αᵢ = 3e-7 at C = 50 and report a KKT violation above the tol that SMO met."""
    return float(threshold(np.asarray(alpha, dtype=float)))


@njit(cache=True, nogil=True)
def threshold(alpha):
    """`support_threshold`, compiled (for the engine's own compiled loops)."""
    top = 0.0
    for a in alpha:
        top = max(top, a)
    return threshold_of(top)


@njit(cache=True, nogil=True, inline="always")
def threshold_of(top):
    """The support threshold when the largest αᵢ is top (a caller that has it already)."""
    return SUPPORT_REL * top


@njit(cache=True, nogil=True, inline="always")
def is_at_C(a, C_box):
    """αᵢ = a is at the upper bound C_box (never for C = ∞)."""
    return C_box < math.inf and a >= C_box * (1.0 - AT_C_REL)


@njit(cache=True, nogil=True, inline="always")
def is_free(a, C_box, eps):
    """αᵢ = a is a support vector not at C (eps: `support_threshold` of the α it is in)."""
    return a > eps and not is_at_C(a, C_box)


@njit(cache=True, nogil=True, inline="always")
def is_above_C(a, C_box):
    """αᵢ = a is above the box, beyond a rounding of C (never for C = ∞)."""
    return C_box < math.inf and a > C_box * (1.0 + OUTSIDE_REL)


def outside_masks(alpha: np.ndarray, C_box: float) -> tuple[np.ndarray, np.ndarray]:
    """(below 0, above C) beyond rounding, C finite: the αᵢ that left the box [0, C]."""
    alpha = np.asarray(alpha, dtype=float)
    return alpha < -OUTSIDE_REL * C_box, alpha > C_box * (1.0 + OUTSIDE_REL)


def support_mask(alpha: np.ndarray) -> np.ndarray:
    """The support vectors: αᵢ above `support_threshold`."""
    alpha = np.asarray(alpha, dtype=float)
    return alpha > support_threshold(alpha)


def at_C_mask(alpha: np.ndarray, C_box: float) -> np.ndarray:
    """αᵢ at C (all False for C = ∞)."""
    alpha = np.asarray(alpha, dtype=float)
    if not math.isfinite(C_box):
        return np.zeros(alpha.shape, dtype=bool)
    return alpha >= C_box * (1.0 - AT_C_REL)


def free_mask(alpha: np.ndarray, C_box: float) -> np.ndarray:
    """0 < αᵢ < C beyond rounding: a support vector not at C."""
    return support_mask(alpha) & ~at_C_mask(alpha, C_box)


def on_bounds(alpha: np.ndarray, C_box: float) -> np.ndarray:
    """α clipped to the box [0, C], its residues (`support_threshold`) put on 0 and its αᵢ
    at C (`is_at_C`) on C: a solver that solves for α (a polish) rounds it so."""
    alpha = np.clip(np.asarray(alpha, dtype=float), 0.0, C_box)
    alpha[alpha <= support_threshold(alpha)] = 0.0
    alpha[at_C_mask(alpha, C_box)] = C_box
    return alpha


def without_residues(alpha: np.ndarray) -> np.ndarray:
    """α with every αᵢ ≤ support_threshold(α) set to 0 (what `finalize` reports)."""
    return without_residues_jit(np.ascontiguousarray(alpha, dtype=float))[0]


@njit(cache=True, nogil=True)
def without_residues_jit(alpha_raw):
    """(α with every αᵢ ≤ support_threshold set to 0, the threshold, how many were ≠ 0)."""
    eps = threshold(alpha_raw)
    alpha = np.empty(len(alpha_raw))
    zeroed = 0
    for t in range(len(alpha)):
        a = alpha_raw[t]
        small = a <= eps
        zeroed += small and a != 0.0
        alpha[t] = 0.0 if small else a
    return alpha, eps, zeroed


def browser_rules() -> dict:
    """The rules above for the browser's payload (the step player and its words read them)."""
    return {"supportRel": SUPPORT_REL, "atCRel": AT_C_REL}
