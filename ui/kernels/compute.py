"""What the Kernels page computes (pure functions of plain values, run in a fit worker within
the time budget by the page): the quadratic kernel's fitted plane in feature space, a Gram
matrix with its eigenvalues and what the solvers make of it, and the same data at several σ
or degrees. The numbers come from the engine (`svm_engine.feature_maps`, `gram`,
`precomputed`); nothing here imports streamlit.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import svm_engine as se
from svm_engine import feature_maps as fm
from svm_engine import gram
from svm_engine import precomputed as pc
from ui.shared import fit_words
from ui.shared.fitting import PAGE_TIME_BUDGET, SMO_TOL, smo_max_iter
from ui.shared.labels import kernel_formula
from ui.shared.numbers import fmt_setting
from ui.shared.points import default_range

#: The most points this page takes: a Gram matrix of n² cells drawn as a heatmap, and SMO run
#: six times on it by the readable solver (≲ 0.3 s at 300 points; bench_model_selection.py).
MAX_POINTS = 300
#: The functions offered for the Gram matrix: two kernels and two that are not.
FUNCTIONS = ("gaussian", "polynomial", "sigmoid", "negative_c")
FUNCTION_LABELS = {"gaussian": "Gaussian exp(−‖x−z‖²/(2σ²)) — a kernel",
                   "polynomial": "polynomial (xᵀz + c)^q, c ≥ 0 — a kernel",
                   "sigmoid": "tanh(κ·xᵀz + c) — not a kernel",
                   "negative_c": "polynomial (xᵀz + c)^q with c < 0 — not a kernel"}
#: SMO's runs on a Gram matrix: from α = 0 and from random feasible starts, each capped at
#: STARTS_MAX_ITER steps (the readable solver: ~0.1 ms a step at 300 points); no run starts
#: after STARTS_BUDGET_S seconds, so that cvxopt, the eigenvalues and the runs fit in 2 s.
STARTS = 6
STARTS_TOL = 1e-6
STARTS_MAX_ITER = 10_000
STARTS_BUDGET_S = 0.8
#: Two dual objectives are "the same" within this (relative) difference.
SAME_DUAL_RTOL = 1e-5
SIGMAS = (0.1, 0.3, 1.0, 3.0)
DEGREES = (1, 2, 3, 5)


def too_many(n: int) -> str | None:
    if n > MAX_POINTS:
        return (f"This page takes at most {MAX_POINTS} points (these are {n}): its Gram matrix "
                "has n² entries and SMO runs on it six times. Choose a dataset with fewer "
                "points, or remove points in the Playground.")
    return None


def _fit(X, y, kernel, C):
    """se.fit as the pages run SMO; (model, the convergence warning's text or None)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        model = se.fit(X, y, kernel=kernel, C=C, tol=SMO_TOL, max_iter=smo_max_iter(len(X)),
                       time_budget=PAGE_TIME_BUDGET)
    note = fit_words.warning_note(caught)
    return model, note


# ------------------------------------------------------------------------ the feature map


@dataclass(frozen=True)
class FeatureView:
    model: object
    plane: fm.FeaturePlane
    view: fm.View3D
    x_range: tuple
    y_range: tuple
    curve: np.ndarray          # the plane's preimage in the input plane, (k, 2)
    curve_3d: np.ndarray       # the same points lifted into the 3-D view, (k, 3)
    warning: str | None


def feature_view(X, y, c: float, C: float) -> FeatureView:
    """Fit (xᵀz + c)² and take its plane: w_φ, the 3-D view, the preimage curve."""
    X = np.asarray(X, dtype=float)
    model, note = _fit(X, np.asarray(y), se.Polynomial(degree=2, coef0=c), C)
    plane = fm.feature_plane(model)
    view = fm.view_3d(model)
    xr, yr = default_range(X)
    curve = fm.conic_points(plane.conic(), xr, yr, m=200)
    return FeatureView(model=model, plane=plane, view=view, x_range=tuple(xr),
                       y_range=tuple(yr), curve=curve, curve_3d=view.lift(curve), warning=note)


# ---------------------------------------------------------------------------- Gram matrix


def make_function(name: str, *, sigma: float = 1.0, degree: int = 2, coef0: float = 1.0,
                  kappa: float = 1.0):
    """The function K(X, Z) for the Gram section; ValueError naming a bad choice."""
    if name == "gaussian":
        return se.Gaussian(sigma=sigma)
    if name == "polynomial":
        if coef0 < 0:
            raise ValueError(f"c = {fmt_setting(coef0)} < 0 is the other choice (not a kernel)")
        return se.Polynomial(degree=degree, coef0=coef0)
    if name == "negative_c":
        if coef0 >= 0:
            raise ValueError(f"c = {fmt_setting(coef0)} ≥ 0 makes a kernel; this choice needs "
                             "c < 0")
        return se.Polynomial(degree=degree, coef0=coef0)
    if name == "sigmoid":
        return gram.Sigmoid(kappa=kappa, coef0=coef0)
    raise ValueError(f"unknown function {name!r}; expected one of {FUNCTIONS}")


@dataclass(frozen=True)
class GramStudy:
    label: str
    K: np.ndarray
    check: gram.MercerCheck
    conditional_min: float     # λ_min of K on Σβᵢ = 0 (the free-bias dual's curvature)
    witness: float | None      # vᵀKv for the eigenvector of λ_min, when negative
    qp: pc.GramFit
    starts: list               # SMO from α = 0, then from random feasible starts

    @property
    def concave(self) -> bool:
        """Whether the dual Σα − ½αᵀQα is concave where it lives (on Σαᵢyᵢ = 0): K positive
        semi-definite, or at least on that plane (to the Mercer check's rounding)."""
        return self.check.psd or self.conditional_min >= -self.check.tolerance

    @property
    def time_cut(self) -> bool:
        """Fewer SMO starts than STARTS: the runs were cut by their time limit (the answer
        depends on the load: never cached)."""
        return len(self.starts) < STARTS

    @property
    def distinct_duals(self) -> list[float]:
        """The different dual objectives the converged SMO runs reached (ascending)."""
        vals = sorted(r.dual for r in self.starts if r.converged)
        out: list[float] = []
        for v in vals:
            if not out or abs(v - out[-1]) > SAME_DUAL_RTOL * max(1.0, abs(v)):
                out.append(v)
        return out


def gram_study(X, y, name: str, params: dict, C: float,
               budget_s: float = STARTS_BUDGET_S) -> GramStudy:
    """The Gram matrix of the function on the points, its eigenvalues, and the dual on it
    (no SMO start after ``budget_s`` seconds)."""
    f = make_function(name, **params)
    X = np.asarray(X, dtype=float)
    K = gram.gram_matrix(f, X)
    check = gram.mercer_check(K)
    v = gram.negative_direction(K)
    cond = gram.conditional_eigenvalues(K)
    starts = pc.smo_starts(K, y, C, starts=STARTS, tol=STARTS_TOL, max_iter=STARTS_MAX_ITER,
                           budget_s=budget_s)
    return GramStudy(label=kernel_formula(f), K=K, check=check,
                     conditional_min=float(cond[0]) if len(cond) else math.nan,
                     witness=None if v is None else float(v @ K @ v),
                     qp=pc.fit_gram(K, y, C, "qp"), starts=starts)


# ------------------------------------------------------------------------ small multiples


@dataclass(frozen=True)
class Panel:
    value: float
    model: object | None
    error: str | None
    warning: str | None


def multiples(X, y, family: str, values: Sequence, C: float, coef0: float = 1.0) -> list[Panel]:
    """The same points fitted at each σ (Gaussian) or degree (polynomial (xᵀz + c)^q)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    out = []
    for v in values:
        kernel = se.Gaussian(sigma=v) if family == "gaussian" else se.Polynomial(int(v), coef0)
        try:
            model, note = _fit(X, y, kernel, C)
            out.append(Panel(value=v, model=model, error=None, warning=note))
        except ValueError as exc:
            out.append(Panel(value=v, model=None, error=str(exc), warning=None))
    return out
