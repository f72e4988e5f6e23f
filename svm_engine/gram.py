"""The Gram (kernel) matrix of a set of points, its eigenvalues, and Mercer's condition.

Seed 004 §4.2 and seed 002: K is a (Mercer) kernel if and only if, for every finite set of
points, the matrix Kᵢⱼ = K(xᵢ, xⱼ) is symmetric positive semi-definite. One set of points can
therefore prove that a function is *not* a kernel (a negative eigenvalue), never that it is.

Also here: functions that are not kernels, to show what a negative eigenvalue does —
tanh(κ·xᵀz + c) (the "sigmoid kernel", indefinite for most κ, c) — and, through the engine's
own `Polynomial`, (xᵀz + c)^q with c < 0 (points x = 0 and z with ‖z‖² < −2c already give a
2 × 2 Gram matrix of negative determinant for q = 2).

The free-bias dual only sees K on vectors with Σαᵢyᵢ = 0, that is β = α∘y with Σβᵢ = 0: it is
concave exactly when K is *conditionally* positive semi-definite (`conditional_eigenvalues`:
K restricted to 1⊥). K + const·11ᵀ has the same restriction, which is why xᵀz + c is harmless
there for any c while (xᵀz + c)² with c < 0 is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import check_number

EPS = float(np.finfo(float).eps)
#: The rounding allowance on eigenvalues, in units of n·ε·‖K‖₂ (`mercer_check`).
ROUNDING_FACTOR = 100.0


@dataclass(frozen=True)
class Sigmoid:
    """tanh(κ·xᵀz + c): a similarity that is not a Mercer kernel in general."""

    kappa: float = 1.0
    coef0: float = -1.0
    name = "sigmoid"

    def __post_init__(self):
        for field, v in (("kappa", self.kappa), ("coef0", self.coef0)):
            object.__setattr__(self, field, check_number(field, v))

    def __call__(self, X, Z) -> np.ndarray:
        X, Z = np.atleast_2d(np.asarray(X, float)), np.atleast_2d(np.asarray(Z, float))
        return np.tanh(self.kappa * (X @ Z.T) + self.coef0)

    @property
    def params(self) -> dict:
        return {"kappa": self.kappa, "coef0": self.coef0}

    @property
    def label(self) -> str:
        sign = "−" if self.coef0 < 0 else "+"
        return f"sigmoid  K(x,z) = tanh({self.kappa:g}·xᵀz {sign} {abs(self.coef0):g})"


def gram_matrix(kernel, X) -> np.ndarray:
    """Kᵢⱼ = K(xᵢ, xⱼ) for the rows of X (any callable K(X, Z) → (len X, len Z))."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) == 0:
        raise ValueError(f"X must be a non-empty (n, d) array of points, got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X holds a value that is not a finite number")
    K = np.asarray(kernel(X, X), dtype=float)
    if not np.isfinite(K).all():
        raise ValueError(f"the kernel values overflow on these points ({kernel.label}); "
                         "rescale X")
    return K


def _check_square(K) -> np.ndarray:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] == 0:
        raise ValueError(f"K must be a square, non-empty matrix, got shape {K.shape}")
    if not np.isfinite(K).all():
        raise ValueError("K holds a value that is not a finite number")
    return K


def eigenvalues(K) -> np.ndarray:
    """The eigenvalues of the symmetric matrix K, ascending (numpy.linalg.eigvalsh, LAPACK's
    syevd; it reads the lower triangle)."""
    return np.linalg.eigvalsh(_check_square(K))


def conditional_eigenvalues(K) -> np.ndarray:
    """The eigenvalues of K restricted to the vectors with Σβᵢ = 0 (n − 1 of them, ascending):
    the curvature of the free-bias dual along its constraint (module docstring)."""
    K = _check_square(K)
    n = len(K)
    if n == 1:
        return np.empty(0)
    Qb, _ = np.linalg.qr(np.ones((n, 1)), mode="complete")
    B = Qb[:, 1:]                       # an orthonormal basis of 1⊥
    S = 0.5 * (K + K.T)
    return np.linalg.eigvalsh(B.T @ S @ B)


@dataclass(frozen=True)
class MercerCheck:
    """Is this Gram matrix symmetric positive semi-definite, up to rounding? (The numbers; the
    Kernels page words the verdict: ui/kernels/text.py `mercer_verdict`.)"""

    n: int
    asymmetry: float            # max |Kᵢⱼ − Kⱼᵢ|
    eigenvalues: np.ndarray     # ascending
    tolerance: float            # eigenvalues ≥ −tolerance count as ≥ 0

    @property
    def min_eigenvalue(self) -> float:
        return float(self.eigenvalues[0])

    @property
    def symmetric(self) -> bool:
        return self.asymmetry <= self.tolerance

    @property
    def psd(self) -> bool:
        return self.symmetric and self.min_eigenvalue >= -self.tolerance

    @property
    def n_negative(self) -> int:
        """Eigenvalues below −tolerance: directions along which the dual Σα − ½αᵀQα, to be
        maximised, curves upwards."""
        return int(np.sum(self.eigenvalues < -self.tolerance))


def mercer_check(K) -> MercerCheck:
    """Symmetry and the smallest eigenvalue of K, against a rounding tolerance.

    Why a tolerance: a computed Gram matrix is K + E, each entry off by a few ulps of the
    largest entry (the Gaussian's ≤ 1, the polynomial's ≤ max Kᵢᵢ for c ≥ 0), so ‖E‖₂ ≲
    n·ε·‖K‖₂; and eigvalsh returns the exact eigenvalues of a matrix within p(n)·ε·‖K‖₂ of its
    input (LAPACK's backward error). By Weyl's inequality every eigenvalue of a truly PSD K
    then comes out ≥ −τ with τ = ROUNDING_FACTOR·n·ε·‖K‖₂, ‖K‖₂ = max |λ|: e.g. a Gaussian
    Gram matrix of close points has eigenvalues of −1e-17 that are 0. Below −τ a negative
    eigenvalue is not rounding."""
    K = _check_square(K)
    n = len(K)
    asym = float(np.max(np.abs(K - K.T)))
    lam = np.linalg.eigvalsh(0.5 * (K + K.T))
    scale = max(float(np.max(np.abs(lam))), float(np.max(np.abs(K))))
    tol = ROUNDING_FACTOR * n * EPS * scale
    return MercerCheck(n=n, asymmetry=asym, eigenvalues=lam, tolerance=tol)


def negative_direction(K) -> np.ndarray | None:
    """A unit vector v with vᵀKv = λ_min < 0 (the eigenvector), or None when λ_min ≥ 0: the
    witness that K is not PSD (vᵀKv = Σᵢⱼ vᵢvⱼK(xᵢ, xⱼ) would be ‖Σᵢ vᵢφ(xᵢ)‖² ≥ 0 for a
    kernel)."""
    K = _check_square(K)
    lam, V = np.linalg.eigh(0.5 * (K + K.T))
    return V[:, 0] if lam[0] < 0 else None
