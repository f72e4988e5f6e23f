"""scikit-learn estimators over the engine: `SVC` over `fit`, `SVR` over `fit_svr`.

Faithful to `sklearn.svm.SVC` / `SVR` (1.9) where the engine has the same thing: the same
parameter names and defaults (C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
tol=1e-3, max_iter=-1; SVR's epsilon=0.1), the same fitted attributes with the same types and
shapes (``tests/test_estimator_sklearn_parity.py`` compares them), scikit-learn's
ConvergenceWarning. The engine's own choices are extra keyword parameters (solver, loss, bias,
wss, time_budget). Kernels: scikit-learn's names "linear", "poly", "rbf"; the engine has no
"sigmoid" kernel and fits a Gram matrix elsewhere (`se.precomputed`), so those two names are
a ValueError. SVC is binary (scikit-learn's tags say so, and its check suite skips the
multi-class checks): several classes go through sklearn.multiclass.OneVsOneClassifier
(what sklearn's SVC does inside) or OneVsRestClassifier, or `se.fit_multiclass`.

Kernels in scikit-learn's words: rbf exp(−γ‖x − z‖²) is the engine's Gaussian with
σ = 1/√(2γ); poly (γxᵀz + coef0)^degree is the engine's (coef0 + x′ᵀz′)^degree on x′ = √γ·x
(the engine's polynomial has no γ), so ``model_`` was fit on √γ·X for that kernel.

The one engine module that imports scikit-learn; ``svm_engine.SVC`` / ``SVR`` load it on
first use (``svm_engine/__init__.py``), so the app, which never uses it, does not pay for it.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning as _SkConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from . import svr as _svr
from .api import DEFAULT_TIME_BUDGET, fit
from .kernels import Gaussian, Linear, Polynomial
from .model import ConvergenceWarning as _EngineConvergenceWarning

KERNEL_NAMES = ("linear", "poly", "rbf")


class ConvergenceWarning(_SkConvergenceWarning, _EngineConvergenceWarning):
    """scikit-learn's ConvergenceWarning (a filter on it catches this), and the engine's."""


def _gamma(gamma, X: np.ndarray) -> float:
    """γ as scikit-learn computes it: 'scale' 1/(d·Var(X)) (1 when Var(X) = 0), 'auto' 1/d."""
    if isinstance(gamma, str):
        if gamma == "scale":
            var = float(X.var())
            return 1.0 / (X.shape[1] * var) if var != 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
    elif (not isinstance(gamma, bool) and isinstance(gamma, numbers.Real)
          and math.isfinite(gamma) and gamma > 0):
        return float(gamma)
    raise ValueError(f"gamma must be a number > 0, 'scale' or 'auto', got {gamma!r}")


def _kernel(est, X: np.ndarray):
    """(the engine's kernel, the factor x′ = factor·x it is fit on) for est's parameters."""
    name = est.kernel
    if name not in KERNEL_NAMES:
        hint = {"gaussian": " ('gaussian' is the engine's name: here 'rbf')",
                "polynomial": " ('polynomial' is the engine's name: here 'poly')",
                "sigmoid": " (the engine has no sigmoid kernel)",
                "precomputed": " (a Gram matrix: se.precomputed.fit_gram)"}
        raise ValueError(f"kernel must be one of {KERNEL_NAMES}, got {name!r}"
                         f"{hint.get(name, '') if isinstance(name, str) else ''}")
    gamma = _gamma(est.gamma, X)   # checked for every kernel, as scikit-learn does
    if name == "linear":
        return Linear(), 1.0
    if name == "rbf":
        return Gaussian(sigma=1.0 / math.sqrt(2.0 * gamma)), 1.0
    return Polynomial(degree=est.degree, coef0=est.coef0), math.sqrt(gamma)


def _max_iter(max_iter):
    """scikit-learn's −1 ("no limit") is the engine's None: its own cap and time budget."""
    if isinstance(max_iter, numbers.Integral) and not isinstance(max_iter, bool) \
            and max_iter == -1:
        return None
    return max_iter


def _coef(est):
    check_is_fitted(est)
    if not isinstance(est.model_.kernel, Linear):
        raise AttributeError("coef_ is only available when using a linear kernel")
    return est.model_.w.reshape(1, -1)


class SVC(ClassifierMixin, BaseEstimator):
    """Binary SVM classifier with scikit-learn's SVC parameters (see the module docstring).

    Extras: ``loss`` ('hinge' or 'quadratic'), ``bias`` ('free' or 'augmented'), ``solver``
    ('smo', 'qp', 'sga', 'newton', 'psvm'), ``wss``, ``time_budget`` (seconds SMO or SGA may
    run; None: no limit) — `se.fit`'s. tol=None is the solver's own default (`se.fit`).
    Attributes as scikit-learn's, plus ``alpha_`` (every αᵢ), ``converged_`` (the engine's
    certificate passed) and ``model_`` (the engine's SVMModel).
    """

    def __init__(self, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 max_iter=-1, loss="hinge", bias="free", solver="smo", wss="second_order",
                 time_budget=DEFAULT_TIME_BUDGET):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.loss = loss
        self.bias = bias
        self.solver = solver
        self.wss = wss
        self.time_budget = time_budget

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: the suite skips multi-class
        tags.input_tags.sparse = False
        return tags

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            raise ValueError(
                "Only binary classification is supported. The type of the target is "
                f"{y_type}. se.SVC is one binary machine: wrap it in sklearn.multiclass."
                "OneVsOneClassifier (what sklearn.svm.SVC does inside) or OneVsRestClassifier, "
                "or use se.fit_multiclass")
        kernel, scale = _kernel(self, X)
        with warnings.catch_warnings():   # said again below, as scikit-learn's warning
            warnings.simplefilter("ignore", _EngineConvergenceWarning)
            m = fit(X * scale if scale != 1.0 else X, y, kernel=kernel, C=self.C,
                    loss=self.loss, bias=self.bias, solver=self.solver, tol=self.tol,
                    max_iter=_max_iter(self.max_iter), wss=self.wss,
                    time_budget=self.time_budget)
        if not m.converged:
            warnings.warn(f"{m.solver}: {m.status}", ConvergenceWarning, stacklevel=2)
        # scikit-learn's order: the support vectors of classes_[0], then of classes_[1]
        sv = m.support[np.argsort(m.y[m.support] > 0, kind="stable")]
        self._scale = scale
        self.model_ = m
        self.classes_ = m.classes
        self.alpha_ = m.alpha
        self.support_ = sv.astype(np.int32)
        self.support_vectors_ = X[sv]
        self.n_support_ = np.array([np.sum(m.y[sv] < 0), np.sum(m.y[sv] > 0)], dtype=np.int32)
        self.dual_coef_ = (m.alpha * m.y)[sv].reshape(1, -1)
        self.intercept_ = np.array([m.b])
        self.n_iter_ = np.array([m.n_iter], dtype=np.int32)
        self.fit_status_ = 0 if m.converged else 1
        self.converged_ = m.converged
        self.shape_fit_ = X.shape
        return self

    coef_ = property(_coef, doc="w = Σ αᵢyᵢxᵢ as (1, n_features); the linear kernel only.")

    def _validated(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return X * self._scale if self._scale != 1.0 else X

    def decision_function(self, X):
        """h(x) = Σ αᵢyᵢK(xᵢ, x) + b, shape (n,): > 0 means classes_[1]."""
        X = self._validated(X)    # first: an unfitted estimator has no model_
        return self.model_.decision_function(X)

    def predict(self, X):
        X = self._validated(X)
        return self.model_.predict(X)


class SVR(RegressorMixin, BaseEstimator):
    """ε-SVR with scikit-learn's SVR parameters (see the module docstring), over `fit_svr`.

    Extras: ``solver`` ('smo' or 'qp'), ``time_budget`` (seconds smo may run). tol=1e-3 is
    LIBSVM's stop m(α) − M(α) ≤ tol, as scikit-learn's; the engine's certificate (KKT within
    1e-6·max(1, max|t|)) usually passes only at a smaller tol: tol=None is the engine's
    1e-8·max(1, max|t|), and ``converged_`` says whether the certificate passed. As
    scikit-learn, the ConvergenceWarning (and fit_status_ = 1) is for a solver stopped before
    its tol (max_iter or the time budget). Attributes as scikit-learn's, plus ``converged_``
    and ``model_`` (the engine's SVRModel).
    """

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, C=1.0,
                 epsilon=0.1, max_iter=-1, solver="smo", time_budget=_svr.TIME_BUDGET):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.max_iter = max_iter
        self.solver = solver
        self.time_budget = time_budget

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=True)
        if len(X) < 2:
            raise ValueError(f"SVR needs at least 2 samples, got n_samples = {len(X)}")
        kernel, scale = _kernel(self, X)
        m = _svr.fit_svr(X * scale if scale != 1.0 else X, y, kernel=kernel, C=self.C,
                         epsilon=self.epsilon, solver=self.solver, tol=self.tol,
                         max_iter=_max_iter(self.max_iter), time_budget=self.time_budget)
        if not m.solver_converged:
            warnings.warn(f"{m.solver}: {m.status}", ConvergenceWarning, stacklevel=2)
        sv = m.support
        self._scale = scale
        self.model_ = m
        self.support_ = sv.astype(np.int32)
        self.support_vectors_ = X[sv]
        self.n_support_ = np.array([len(sv)], dtype=np.int32)
        self.dual_coef_ = m.beta[sv].reshape(1, -1)
        self.intercept_ = np.array([m.b])
        self.n_iter_ = int(m.n_iter)
        self.fit_status_ = 0 if m.solver_converged else 1
        self.converged_ = m.converged
        self.shape_fit_ = X.shape
        return self

    coef_ = property(_coef, doc="w = Σ (aᵢ − âᵢ)xᵢ as (1, n_features); the linear kernel only.")

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return self.model_.predict(X * self._scale if self._scale != 1.0 else X)
