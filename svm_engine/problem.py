"""The problem builder: from (X, y, kernel, C, loss, bias) to the arrays a solver needs.

Like LIBSVM, solvers never see kernel names; they receive Q = (yyᵀ)∘K_eff, y and the
box bound. The builder applies the chapter's two kernel rewrites:

* quadratic loss (slides 20, 27): K_eff = K + δᵢⱼ/(2C), and α has no upper bound;
* the book's folded bias (slide 30, x′ = (x, 1)): K_eff = K + 1, and the equality
  constraint Σ αᵢyᵢ = 0 disappears (b = Σ αᵢyᵢ is regularised like w).

| symbol | here          | meaning                                             |
|--------|---------------|-----------------------------------------------------|
| K      | `K`           | kernel matrix of the inputs (with +1 if augmented)  |
| K_eff  | `K_eff`       | K, plus δ/(2C) on the diagonal for quadratic loss   |
| Q      | `Q`           | (yyᵀ)∘K_eff: the dual is max Σα − ½ αᵀQα            |
| C      | `C_box`       | upper bound of α: C for hinge, ∞ for quadratic loss |

Lazy problems (`build_problem(..., materialize=False)`) hold no matrix at all, only X, y, C
and a `KernelSpec`: the kernel as numbers (code, degree, coef0, γ, +1 for the augmented bias,
δ/(2C) on the diagonal for quadratic loss). The fast SMO computes the columns it needs from
them; `finalize` needs only the support vectors' columns. Every kernel value, lazy or
materialised, comes from the same compiled code (`kernel_values.py`), so a lazy solver and a
solver on the materialised Q see the same numbers to the last bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from . import kernel_values as kv
from .kernels import Gaussian, Linear, Polynomial


@dataclass(frozen=True)
class KernelSpec:
    """The kernel a solver sees, as numbers: K_eff(x, z) = k(x, z) [+ 1] [+ δ(x, z)·diag]."""

    code: int              # 0 linear, 1 polynomial, 2 gaussian
    degree: int = 1        # polynomial: (coef0 + xᵀz)^degree
    coef0: float = 0.0
    gamma: float = 0.0     # gaussian: exp(−γ‖x − z‖²)
    augmented: bool = False
    diag: float = 0.0      # 1/(2C) for quadratic loss, else 0

    @staticmethod
    def of(kernel, C: float, loss: str, bias: str) -> KernelSpec:
        return _spec_of(kernel, C, loss, bias)

    def numbers(self) -> kv.KernelNumbers:
        """What the compiled kernel routines take (made once: a refit asks ~4 times)."""
        return self._numbers

    @cached_property
    def _numbers(self) -> kv.KernelNumbers:
        return kv.kernel_numbers(self.code, self.degree, self.coef0, self.gamma,
                                 self.augmented, self.diag)


@lru_cache(maxsize=256)   # pure and immutable (kernels are frozen dataclasses): every refit asks
def _spec_of(kernel, C: float, loss: str, bias: str) -> KernelSpec:
    diag = 1.0 / (2.0 * C) if loss == "quadratic" else 0.0
    aug = bias == "augmented"
    if isinstance(kernel, Linear):
        return KernelSpec(kv.LINEAR, augmented=aug, diag=diag)
    if isinstance(kernel, Polynomial):
        return KernelSpec(kv.POLYNOMIAL, degree=int(kernel.degree),
                          coef0=float(kernel.coef0), augmented=aug, diag=diag)
    if isinstance(kernel, Gaussian):
        return KernelSpec(kv.GAUSSIAN, gamma=float(kernel.gamma), augmented=aug, diag=diag)
    raise ValueError(f"no numeric form for kernel {kernel!r}")


def box_bound(C: float, loss: str) -> float:
    """The upper bound of every αᵢ: C for hinge loss (slide 20: 0 ≤ αᵢ ≤ C); none (∞) for
    quadratic loss, whose dual has only αᵢ ≥ 0 (slides 20, 27)."""
    return math.inf if loss == "quadratic" else C


def has_equality(bias: str) -> bool:
    """Σ αᵢyᵢ = 0 constrains the dual with the free bias only (slide 30: the folded bias
    drops it)."""
    return bias == "free"


class _once:
    """A property computed on its first read and then kept in the instance's __dict__ (as
    functools.cached_property, without the lock Python 3.11's takes on every first read: ~3 µs
    of a warm refit, which makes a problem and reads its Xᵀ once, issue 31)."""

    def __init__(self, func):
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


@dataclass(frozen=True)
class Problem:
    X: np.ndarray
    y: np.ndarray          # ±1 floats
    K: np.ndarray | None   # kernel matrix, +1 for the augmented bias, no 1/(2C) term
    K_eff: np.ndarray | None  # K + δ/(2C) for quadratic loss, else K
    Q: np.ndarray | None   # (yyᵀ)∘K_eff  (the three are None for a lazy problem)
    C: float               # the user's C (math.inf for the hard margin)
    C_box: float           # upper bound of every αᵢ
    loss: str
    bias: str
    spec: KernelSpec | None = None

    def __init__(self, X, y, K, K_eff, Q, C, C_box, loss, bias, spec=None):
        # the fields above, set at once: frozen dataclasses set each through
        # object.__setattr__, ~1 µs of every warm refit (issue 31)
        self.__dict__.update(X=X, y=y, K=K, K_eff=K_eff, Q=Q, C=C, C_box=C_box, loss=loss,
                             bias=bias, spec=spec)

    @property
    def equality(self) -> bool:
        """True when Σ αᵢyᵢ = 0 constrains the dual (free bias)."""
        return has_equality(self.bias)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def materialized(self) -> bool:
        return self.Q is not None

    @_once
    def XT(self) -> np.ndarray:
        """Xᵀ, contiguous (features × points): the layout the compiled column loops read.
        Made once per problem, shared by the warm start, the solver and `finalize`."""
        return np.ascontiguousarray(self.X.T, dtype=float)


def kernel_matrix(kernel, X: np.ndarray) -> np.ndarray:
    """K(X, X) from the compiled kernel code (exactly symmetric)."""
    X = np.ascontiguousarray(X, dtype=float)
    spec = KernelSpec.of(kernel, 1.0, "hinge", "free")
    return kv.kernel_matrix(spec.numbers(), X, np.ascontiguousarray(X.T))


def _writable(A) -> np.ndarray:
    """A as a float array, copied if it is read-only (the datasets' are): numba compiles
    another version of every routine for read-only arrays, which `precompile` (fit's own,
    writable copies) does not make."""
    A = np.asarray(A, dtype=float)
    return A if A.flags.writeable else A.copy()


def build_problem(X: np.ndarray, y: np.ndarray, kernel, C: float, loss: str, bias: str,
                  materialize: bool = True) -> Problem:
    X, y = _writable(X), _writable(y)
    spec = KernelSpec.of(kernel, C, loss, bias)
    C_box = box_bound(C, loss)
    if not materialize:   # (by position: 10 keywords cost ~2 µs more on every refit)
        return Problem(X, y, None, None, None, C, C_box, loss, bias, spec)
    K = kernel_matrix(kernel, X)
    if bias == "augmented":
        K = K + 1.0  # x′ = (x, 1): K′(x, z) = K(x, z) + 1 (slide 30)
    if loss == "quadratic":
        K_eff = K + np.eye(len(y)) / (2.0 * C)  # slide 27: K_q = K + δᵢⱼ/(2C)
    else:
        K_eff = K
    Q = (y[:, None] * y[None, :]) * K_eff
    return Problem(X=X, y=y, K=K, K_eff=K_eff, Q=Q, C=C, C_box=C_box, loss=loss, bias=bias,
                   spec=spec)
