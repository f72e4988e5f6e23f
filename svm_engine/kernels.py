"""Kernel functions K(X, Z), as pure, vectorised, hashable objects.

Slide 27 (Zaki & Meira ch. 21): every SVM operation needs only K(xi, xj) = φ(xi)ᵀφ(xj).

| kernel       | K(x, z)                        | parameters                   |
|--------------|--------------------------------|------------------------------|
| Linear       | xᵀz                            | –                            |
| Polynomial   | (c + xᵀz)^q                    | q = degree, c = coef0 (slide 29: q = 2, c = 1) |
| Gaussian     | exp(−‖x − z‖² / (2σ²))         | σ = sigma; γ = 1/(2σ²)       |

K(X, Z) and a model's expansion Σₛ cₛK(z, sₛ) are computed by the engine's compiled kernel
code (`kernel_values.kernel_cross`, `kernel_expansion`), the code every training column comes
from: predicting and drawing use the solver's kernel values, bit for bit, for every kernel.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import kernel_values as kv


def _as_2d(A) -> np.ndarray:
    A = np.asarray(A, dtype=float)
    return A.reshape(1, -1) if A.ndim == 1 else A


class _Computed:
    """K(X, Z) and the expansion Σₛ cₛK(z, sₛ), from the compiled kernel code."""

    def __call__(self, X, Z) -> np.ndarray:
        """The matrix K(X[i], Z[j])."""
        return kv.kernel_cross(self.as_numbers, _as_2d(X), _as_2d(Z))

    def expansion(self, Z, S, coef) -> np.ndarray:
        """h[i] = Σₛ coef[s]·K(Z[i], S[s]) (a model's Σ αᵢyᵢK(xᵢ, z), without b), without
        the matrix: predicting and drawing."""
        return kv.kernel_expansion(self.as_numbers, _as_2d(Z), _as_2d(S), coef)


@dataclass(frozen=True)
class Linear(_Computed):
    """K(x, z) = xᵀz."""

    name = "linear"

    @property
    def as_numbers(self) -> kv.KernelNumbers:
        """The kernel as the compiled code takes it (`kernel_values.KernelNumbers`)."""
        return kv.kernel_numbers(kv.LINEAR, 1, 0.0, 0.0, False, 0.0)

    @property
    def params(self) -> dict:
        return {}

    @property
    def label(self) -> str:
        return "linear  K(x,z) = xᵀz"


@dataclass(frozen=True)
class Polynomial(_Computed):
    """K(x, z) = (c + xᵀz)^q; c = 0 is homogeneous, c = 1 inhomogeneous (slide 29)."""

    degree: int = 2
    coef0: float = 1.0
    name = "polynomial"

    def __post_init__(self):
        q = self.degree
        if isinstance(q, bool) or not isinstance(q, numbers.Integral | float | np.floating):
            raise ValueError(f"degree must be an integer ≥ 1, got {q!r}")
        if not (math.isfinite(float(q)) and float(q) == int(q) and int(q) >= 1):
            raise ValueError(f"degree must be an integer ≥ 1, got {q!r}")
        object.__setattr__(self, "degree", int(q))
        c = self.coef0
        if isinstance(c, bool) or not isinstance(c, numbers.Real) or not math.isfinite(c):
            raise ValueError(f"coef0 must be a finite number, got {c!r}")
        object.__setattr__(self, "coef0", float(c))

    @property
    def as_numbers(self) -> kv.KernelNumbers:
        return kv.kernel_numbers(kv.POLYNOMIAL, self.degree, self.coef0, 0.0, False, 0.0)

    @property
    def params(self) -> dict:
        return {"degree": self.degree, "coef0": self.coef0}

    @property
    def label(self) -> str:
        kind = "homogeneous" if self.coef0 == 0 else "inhomogeneous"
        return f"polynomial ({kind})  K(x,z) = ({self.coef0:g} + xᵀz)^{self.degree}"


@dataclass(frozen=True)
class Gaussian(_Computed):
    """K(x, z) = exp(−‖x − z‖² / (2σ²)), with γ = 1/(2σ²) (scikit-learn's 'rbf' gamma)."""

    sigma: float = 1.0
    name = "gaussian"

    def __post_init__(self):
        s = self.sigma
        bad_type = isinstance(s, bool) or not isinstance(s, numbers.Real)
        if bad_type or not (math.isfinite(s) and s > 0):
            raise ValueError(f"sigma must be a finite number > 0, got {s!r}")
        two_s2 = 2.0 * float(s) * float(s)   # γ = 1/(2σ²) must be a finite number > 0
        if not (0.0 < two_s2 < math.inf and 1.0 / two_s2 < math.inf):
            raise ValueError(f"sigma = {s!r} is out of range: γ = 1/(2σ²) would be "
                             f"{'∞' if two_s2 < 1 else '0'}; expected 1e-150 < σ < 1e150")
        object.__setattr__(self, "sigma", float(s))

    @property
    def gamma(self) -> float:
        return 1.0 / (2.0 * self.sigma * self.sigma)

    @property
    def as_numbers(self) -> kv.KernelNumbers:
        # ‖x − z‖² from the differences (kernel_values): ‖x‖² + ‖z‖² − 2xᵀz cancels
        # catastrophically far from the origin (at 1e7 it loses every digit)
        return kv.kernel_numbers(kv.GAUSSIAN, 1, 0.0, self.gamma, False, 0.0)

    @property
    def params(self) -> dict:
        return {"sigma": self.sigma}

    @property
    def label(self) -> str:
        return f"Gaussian  K(x,z) = exp(−‖x−z‖² / (2·{self.sigma:g}²))"


Kernel = Linear | Polynomial | Gaussian
KERNELS = ("linear", "polynomial", "gaussian")


def make_kernel(name: str, *, degree: int = 2, coef0: float = 1.0, sigma: float = 1.0) -> Kernel:
    """Build a kernel from its name (the UI and the facade pass names; solvers never see them)."""
    if name == "linear":
        return Linear()
    if name in ("polynomial", "poly"):
        return Polynomial(degree=degree, coef0=coef0)
    if name in ("gaussian", "rbf"):
        return Gaussian(sigma=sigma)
    raise ValueError(f"unknown kernel {name!r}; expected one of {KERNELS}")
