"""The fitted model: what `svm_engine.fit` returns (a picklable dataclass)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .bounds import at_C_mask, free_mask, support_mask
from .diagnostics import FitDiagnostics
from .finalize import CATEGORIES
from .kernels import Linear


class ConvergenceWarning(UserWarning):
    """A solver stopped at max_iter (or its own limit) before meeting its tolerance. model:
    the fit it is about, when `fit` raised it (None otherwise)."""

    def __init__(self, *args, model=None):
        super().__init__(*args)
        self.model = model


class NotSeparableError(ValueError):
    """The hard margin (C = ∞) was asked of data no hyperplane of the kernel's feature space
    separates: it has no solution."""


class AlphaViews:
    """What α says of the points by bounds.py's rules, one implementation for every model that
    has ``alpha``, ``loss`` and ``C`` (SVMModel; the Step-through page's model after a step)."""

    @property
    def C_box(self) -> float:
        return math.inf if self.loss == "quadratic" else self.C

    @property
    def free_support(self) -> np.ndarray:
        return np.flatnonzero(free_mask(self.alpha, self.C_box))

    @property
    def bound_support(self) -> np.ndarray:
        return np.flatnonzero(at_C_mask(self.alpha, self.C_box))


def support_indices(alpha: np.ndarray) -> np.ndarray:
    """The support vectors' indices (bounds.support_mask)."""
    return np.flatnonzero(support_mask(alpha))


def decision_values(Z: np.ndarray, b: float, w=None, kernel=None, X_sv=None,
                    coef_sv=None) -> np.ndarray:
    """h(z) = w·z + b with w (the linear kernel), else Σ coefᵢ K(xᵢ, z) + b over the given
    points (coef = α∘y, slide 28; or Newton's β) for Z of shape (m, d)."""
    if w is not None:
        return Z @ w + b
    if X_sv is None or len(X_sv) == 0:
        return np.full(len(Z), float(b))
    return kernel.expansion(Z, X_sv, coef_sv) + b


@dataclass(eq=False)
class SVMModel(AlphaViews):
    # problem
    X: np.ndarray
    y: np.ndarray                # ±1
    classes: np.ndarray          # classes[0] ↦ −1, classes[1] ↦ +1
    kernel: object
    C: float
    loss: str
    bias: str
    solver: str
    tol: float
    # solution (from finalize)
    alpha: np.ndarray
    b: float
    xi: np.ndarray
    support: np.ndarray
    h_train: np.ndarray
    w_norm: float
    primal_objective: float
    dual_objective: float
    kkt_violation: float
    category_code: np.ndarray    # int8 indices into finalize.CATEGORIES
    gradient: np.ndarray | None  # G = Qα − 1 of the dual at alpha (warm starts update it)
    # run
    n_iter: int
    converged: bool
    status: str
    time_s: float
    wss: str | None = None
    trace: list | None = None
    trace_truncated: bool = False
    alpha0: np.ndarray | None = None
    diagnostics: FitDiagnostics | None = None    # the run and its certificate, typed
    # smo's kernel column cache, for the next warm start (`warmstart.py`); not pickled
    columns: tuple | None = field(default=None, repr=False)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["columns"] = None       # a cache (up to kernel_cache.KEEP_COLUMNS_MB), not a result
        return state

    # -- derived quantities (C_box, free_support, bound_support: AlphaViews) --------------
    @property
    def w(self) -> np.ndarray | None:
        """w = Σ αᵢyᵢxᵢ (slide 13); None for non-linear kernels (w lives in feature space)."""
        if not isinstance(self.kernel, Linear):
            return None
        return (self.alpha * self.y) @ self.X

    @property
    def margin(self) -> float:
        """1/‖w‖ (in feature space for kernels; bias excluded)."""
        return 1.0 / self.w_norm if self.w_norm > 0 else math.inf

    @property
    def duality_gap(self) -> float:
        return self.primal_objective - self.dual_objective

    @property
    def category(self) -> np.ndarray:
        """Per point: "non-SV", "margin SV", "bound SV", "inside margin" or "misclassified"."""
        return CATEGORIES[self.category_code]

    @property
    def n_support(self) -> int:
        return int(len(self.support))

    @property
    def training_accuracy(self) -> float:
        return float(np.mean(np.where(self.h_train > 0, 1.0, -1.0) == self.y))

    # -- prediction ---------------------------------------------------------------------
    def decision_function(self, Z) -> np.ndarray:
        """h(z) = Σ αᵢyᵢK(xᵢ, z) + b (slide 28)."""
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        if Z.ndim != 2 or Z.shape[1] != self.X.shape[1]:
            raise ValueError(f"Z must have shape (m, {self.X.shape[1]}), got {Z.shape}")
        w = self.w
        if w is not None:
            return decision_values(Z, self.b, w)
        sv = self.support
        return decision_values(Z, self.b, None, self.kernel, self.X[sv],
                               self.alpha[sv] * self.y[sv])

    def predict(self, Z) -> np.ndarray:
        h = self.decision_function(Z)
        return np.where(h > 0, self.classes[1], self.classes[0])
