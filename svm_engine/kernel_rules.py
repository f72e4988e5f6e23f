"""Kernels built from kernels by the rules of seed 002 ("Building Kernel"), and the check of the
result on a Gram matrix's eigenvalues.

If K₁ and K₂ are kernels (K(x, z) = φ(x)ᵀφ(z) for some φ), so are (seed 002)

| rule    | K(x, z)             | why (a feature map of the result)                          |
|---------|---------------------|------------------------------------------------------------|
| sum     | K₁(x, z) + K₂(x, z) | φ = (φ₁, φ₂), the two maps side by side                    |
| product | K₁(x, z) · K₂(x, z) | φ = φ₁ ⊗ φ₂, every product φ₁ᵢφ₂ⱼ (Schur: Gram ∘ Gram ⪰ 0) |
| scaling | a · K₁(x, z), a > 0 | φ = √a · φ₁                                                |
| exp     | exp(K₁(x, z))       | Σₘ K₁ᵐ/m!: a limit of sums and products, positive weights  |

and a difference is not a rule: K₁ − K₂ is a kernel for some pairs and not for others (a
negative eigenvalue of its Gram matrix says so on the points at hand: `Difference`, there to
be caught). Each combination here is a callable K(X, Z) → (len X, len Z) built from the base
kernels' own matrices (`svm_engine.kernels`), with a ``label``, so `gram.gram_matrix` builds
its Gram matrix and `gram.mercer_check` checks it — the Kernels page's check, not a copy.

| seed 002       | here               |
|----------------|--------------------|
| k₁, k₂         | `k1`, `k2`         |
| c₁ (> 0)       | `a`                |
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import kernel_values as kv
from .gram import MercerCheck, gram_matrix, mercer_check
from .validation import check_number

RULES = ("sum", "product", "scale", "exp", "difference")
#: The rules that always give a kernel (the difference does not).
KERNEL_RULES = ("sum", "product", "scale", "exp")


def _label(k) -> str:
    """A base kernel's formula without its name: "exp(−‖x−z‖² / (2·1²))"."""
    text = k.label
    return text.split("K(x,z) = ", 1)[1] if "K(x,z) = " in text else text


@dataclass(frozen=True)
class Sum:
    k1: Any
    k2: Any

    def __call__(self, X, Z) -> np.ndarray:
        return self.k1(X, Z) + self.k2(X, Z)

    @property
    def label(self) -> str:
        return f"K₁ + K₂ = {_label(self.k1)} + {_label(self.k2)}"


@dataclass(frozen=True)
class Product:
    k1: Any
    k2: Any

    def __call__(self, X, Z) -> np.ndarray:
        return self.k1(X, Z) * self.k2(X, Z)

    @property
    def label(self) -> str:
        return f"K₁ · K₂ = ({_label(self.k1)}) · ({_label(self.k2)})"


@dataclass(frozen=True)
class Scaled:
    a: float
    k1: Any

    def __post_init__(self):
        object.__setattr__(self, "a", check_number("a (the scale)", self.a, 0))

    def __call__(self, X, Z) -> np.ndarray:
        return self.a * self.k1(X, Z)

    @property
    def label(self) -> str:
        return f"a·K₁ = {self.a:g} · ({_label(self.k1)})"


@dataclass(frozen=True)
class Exp:
    k1: Any

    def __call__(self, X, Z) -> np.ndarray:
        with np.errstate(over="ignore"):       # inf is caught by gram_matrix, with the label
            return np.exp(self.k1(X, Z))

    @property
    def label(self) -> str:
        return f"exp(K₁) = exp({_label(self.k1)})"


@dataclass(frozen=True)
class Difference:
    """K₁ − K₂: not a rule (module docstring)."""

    k1: Any
    k2: Any

    def __call__(self, X, Z) -> np.ndarray:
        return self.k1(X, Z) - self.k2(X, Z)

    @property
    def label(self) -> str:
        return f"K₁ − K₂ = {_label(self.k1)} − ({_label(self.k2)}) (not a rule)"


def combine(rule: str, k1, k2=None, *, a: float = 1.0):
    """The kernel ``rule`` makes of k1 (and k2 for sum, product, difference); ValueError
    naming a bad rule, a missing k2 or a ≤ 0."""
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; expected one of {', '.join(RULES)}")
    if rule in ("sum", "product", "difference") and k2 is None:
        raise ValueError(f"the rule {rule!r} combines two kernels: k2 is missing")
    if rule == "sum":
        return Sum(k1, k2)
    if rule == "product":
        return Product(k1, k2)
    if rule == "difference":
        return Difference(k1, k2)
    if rule == "scale":
        return Scaled(a, k1)
    return Exp(k1)


def check_on(kernel, X) -> tuple[np.ndarray, MercerCheck]:
    """The Gram matrix of ``kernel`` on the rows of X and its Mercer check (symmetric, and
    λ_min ≥ −tolerance: `gram.mercer_check`). ValueError when the values overflow."""
    K = gram_matrix(kernel, X)
    return K, mercer_check(K)


def diagonal(kernel, Z) -> np.ndarray:
    """K(zₐ, zₐ) for each row of Z (the new points' self-similarities), without the m × m
    matrix: a base kernel's own formula (xᵀx, (c + xᵀx)^q, 1), a rule applied to its parts'.
    ValueError when the values overflow."""
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    out = _diag(kernel, Z)
    if not np.isfinite(out).all():
        raise ValueError(f"the kernel values overflow on these points ({kernel.label})")
    return out


def _diag(kernel, Z) -> np.ndarray:
    if isinstance(kernel, Sum | Difference | Product):
        a, b = _diag(kernel.k1, Z), _diag(kernel.k2, Z)
        return a + b if isinstance(kernel, Sum) else (a - b if isinstance(kernel, Difference)
                                                      else a * b)
    if isinstance(kernel, Scaled):
        return kernel.a * _diag(kernel.k1, Z)
    if isinstance(kernel, Exp):
        with np.errstate(over="ignore"):
            return np.exp(_diag(kernel.k1, Z))
    if hasattr(kernel, "as_numbers"):       # a base kernel: its compiled diagonal
        return kv.kernel_diag(kernel.as_numbers, np.ascontiguousarray(Z))
    return np.array([float(kernel(z[None, :], z[None, :])[0, 0]) for z in Z])
