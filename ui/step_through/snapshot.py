"""The state after step k of a recorded run (``record.StepRun``): α, b, the hyperplane (w for
the linear kernel) or a model whose ``decision_function`` gives h(x) on a grid, the
KKT-violating points, and the solver's numbers of step k. SGA's one-coordinate-per-step view
is ``coordinate.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from svm_engine.bounds import at_C_mask, support_mask
from svm_engine.finalize import categorise
from svm_engine.model import AlphaViews, decision_values, support_indices
from svm_engine.problem import build_problem
from svm_engine.solvers import registry
from svm_engine.solvers import smo as _smo
from ui.shared import formulas as FM
from ui.step_through.cursor import clamp
from ui.step_through.record import StepRun

#: A point is marked as violating the KKT conditions when its violation exceeds this
#: (the same number as SMO's default stopping tolerance on m(α) − M(α)).
KKT_TOL = registry.BY_KEY["smo"].default_tol


def _kernel_eff(kernel, X, Z, bias, loss, C, rows=None, cols=None):
    """K_eff(X, Z): the kernel, +1 for the augmented bias, + δ/(2C) for quadratic loss
    where the row and column are the same training point (``rows``/``cols`` indices)."""
    K = kernel(X, Z)
    if bias == "augmented":
        K = K + 1.0
    if loss == "quadratic" and rows is not None and cols is not None:
        same = np.asarray(rows)[:, None] == np.asarray(cols)[None, :]
        K = K + same / (2.0 * C)
    return K



@dataclass(frozen=True, eq=False)
class StepModel(AlphaViews):
    """What ``ui.shared.figures.decision_figure`` needs of a model, for the state after a step:
    h(x) = Σ coefᵢ K(xᵢ, x) + b (coef = α∘y, or Newton's β), or w·x + b (linear). Support,
    free and bound support and h are SVMModel's (svm_engine.model: AlphaViews,
    decision_values); its own are coef and w, since Newton's iterate is not α∘y."""

    X: np.ndarray
    y: np.ndarray
    kernel: Any
    C: float
    loss: str
    bias: str
    alpha: np.ndarray
    b: float
    coef: np.ndarray
    w: np.ndarray | None
    h_train: np.ndarray
    xi: np.ndarray
    category: np.ndarray

    @property
    def support(self) -> np.ndarray:
        return support_indices(self.alpha)

    @property
    def margin(self) -> float:
        """1/‖w‖ for the linear kernel (w of the step, Newton's own w included); NaN else."""
        if self.w is None:
            return math.nan
        nw = float(np.linalg.norm(self.w))
        return 1.0 / nw if nw > 0 else math.inf

    def decision_function(self, Z) -> np.ndarray:
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        nz = np.flatnonzero(self.coef)
        return decision_values(Z, self.b, self.w, self.kernel, self.X[nz], self.coef[nz])


@dataclass(frozen=True, eq=False)
class StepState:
    """The state after step k (k = 0: the start)."""

    k: int
    n_steps: int
    alpha: np.ndarray
    b: float
    model: StepModel
    changed: np.ndarray  # indices step k wrote (SMO: i, j)
    alpha_before: np.ndarray  # α after step k − 1 (= α for k = 0)
    violation: np.ndarray  # per point (see kkt_point_violation)
    violators: np.ndarray  # indices with violation > KKT_TOL
    dual: float
    primal: float
    kkt: float
    record: dict  # the solver's numbers for step k (empty for k = 0)

    @property
    def w(self) -> np.ndarray | None:
        return self.model.w



def step_model(run: StepRun, alpha, b, coef=None, w=None) -> StepModel:
    X, y = run.X, run.y
    if coef is None:
        coef = alpha * y
        if run.linear:
            w = coef @ X
    if w is not None:
        h = X @ w + b
    else:
        nz = np.flatnonzero(coef)
        h = run.kernel.expansion(X, X[nz], coef[nz]) + b if len(nz) else np.full(len(X), float(b))
    xi = np.maximum(0.0, 1.0 - y * h)
    return StepModel(
        X=X,
        y=y,
        kernel=run.kernel,
        C=run.C,
        loss=run.loss,
        bias=run.bias,
        alpha=alpha,
        b=float(b),
        coef=coef,
        w=w,
        h_train=h,
        xi=xi,
        category=categorise(alpha, xi, run.C_box),
    )


def _newton_model(run: StepRun, k: int) -> StepModel:
    wv = run.newton_w[k]
    alpha = run.tape.alpha_at(k)
    if run.linear:
        return step_model(run, alpha, float(wv[-1]), coef=alpha * run.y, w=wv[:-1].copy())
    return step_model(run, alpha, float(wv.sum()), coef=wv.copy())


def gradient(run: StepRun, alpha: np.ndarray) -> np.ndarray:
    """G = ∇f(α) = Qα − 1 of the dual being solved (Q = yyᵀ∘K_eff), computed from the
    support of α only."""
    y = run.y
    nz = np.flatnonzero(alpha)
    if len(nz) == 0:
        return -np.ones(run.n)
    Kc = _kernel_eff(
        run.kernel, run.X, run.X[nz], run.bias, run.loss, run.C, rows=np.arange(run.n), cols=nz
    )
    return y * (Kc @ (alpha[nz] * y[nz])) - 1.0


def kkt_point_violation(alpha, G, y, b, C_box, equality: bool) -> np.ndarray:
    """How far each point is from its KKT condition. With rᵢ = yᵢh(xᵢ) − 1 (h over K_eff,
    rᵢ = Gᵢ + yᵢb with the free bias b): αᵢ = 0 needs rᵢ ≥ 0, 0 < αᵢ < C needs rᵢ = 0,
    αᵢ = C needs rᵢ ≤ 0 (slide 13 / the KKT/SMO note's KKT conditions)."""
    r = G + (y * b if equality else 0.0)
    at0 = ~support_mask(alpha)          # bounds.py: a rounding residue counts as 0
    atC = at_C_mask(alpha, C_box)
    v = np.abs(r)
    v = np.where(at0, np.maximum(0.0, -r), v)
    v = np.where(atC & ~at0, np.maximum(0.0, r), v)
    return v


def state_at(run: StepRun, k) -> StepState:
    """The state after step k of the run (k clamped to [0, T])."""
    T = run.n_steps
    k = clamp(k, T)
    alpha = run.tape.alpha_at(k)
    before = run.tape.alpha_at(k - 1) if k > 0 else alpha.copy()
    b = float(run.b[k])
    if run.solver == "newton":
        model = _newton_model(run, k)
        viol = np.maximum(0.0, 1.0 - run.y * model.h_train)  # ξᵢ > 0: yᵢh(xᵢ) < 1
        violators = np.flatnonzero(run.y * model.h_train < 1.0)
    else:
        model = step_model(run, alpha, b)
        G = gradient(run, alpha)
        viol = kkt_point_violation(alpha, G, run.y, b, run.C_box, run.bias == "free")
        violators = np.flatnonzero(viol > KKT_TOL)
    record = step_record(run, k)
    return StepState(
        k=k,
        n_steps=T,
        alpha=alpha,
        b=b,
        model=model,
        changed=run.tape.changed_at(k),
        alpha_before=before,
        violation=viol,
        violators=violators,
        dual=float(run.dual[k]),
        primal=float(run.primal[k]),
        kkt=float(run.kkt[k]),
        record=record,
    )


def step_record(run: StepRun, k: int) -> dict:
    """The solver's numbers for step k (plain Python values); {} for k = 0."""
    if k <= 0:
        return {}
    rec: dict[str, Any] = {"it": k}
    for key, arr in run.detail.items():
        v = arr[k]
        if isinstance(v, np.ndarray):
            rec[key] = v.tolist()
        elif isinstance(v, np.bool_ | bool):
            rec[key] = bool(v)
        elif np.issubdtype(np.asarray(v).dtype, np.integer):
            rec[key] = int(v)
        else:
            rec[key] = float(v)
    if run.solver == "smo":
        rec["candidates"] = [
            (j, g) for j, g in zip(rec.pop("cand_j"), rec.pop("cand_gain")) if j >= 0
        ]
        s = rec["yi"] * rec["yj"]
        rec["ai_unclipped"] = rec["ai_old"] + s * (rec["aj_old"] - rec["aj_unclipped"])
        rec["C"] = run.C_box
        # Platt's Eₜ = h(xₜ) − yₜ before the step uses the b before the step; the engine
        # recorded E with the b after it (the difference cancels in Eᵢ − Eⱼ)
        shift = float(run.b[k - 1] - run.b[k])
        rec["Ei"] += shift
        rec["Ej"] += shift
        rec["b_before"] = float(run.b[k - 1])
        rec.update(kernel_numbers(run, [rec["i"], rec["j"]]))
    return rec


def kernel_numbers(run: StepRun, idx: list[int]) -> dict:
    """K and the solver's K̃ (K_eff) on the points ``idx``, made by the engine's own builder,
    and the words of the setting (k = 2's open box, the K̃ it uses) for the step's formulas."""
    p = build_problem(run.X[idx], run.y[idx], run.kernel, run.C, run.loss, run.bias)
    return {"K": p.K.tolist(), "Kt": p.K_eff.tolist(), "loss": run.loss, "C_user": run.C,
            "aug": bool(p.spec.augmented), "diag": float(p.spec.diag),
            "ktex": FM.kernel_tex(run.kernel, run.C, run.loss, run.bias),
            "open_box": FM.box_is_open(run.C, run.loss)}


def prev_model(run: StepRun, k: int) -> StepModel | None:
    """The model after step k − 1 (for the faint 'before this step' boundary)."""
    if k <= 0:
        return None
    k = clamp(k, run.n_steps)
    if run.solver == "newton":
        return _newton_model(run, k - 1)
    return step_model(run, run.tape.alpha_at(k - 1), float(run.b[k - 1]))


def selection_numbers(run: StepRun, k: int) -> dict | None:
    """SMO, step k: the numbers behind the choice of (i, j), from α and G before the step:
    −yᵢ∇ᵢf, −yⱼ∇ⱼf, m(α) = max over I_up, M(α) = min over I_low, and the gap m − M."""
    if run.solver != "smo" or k <= 0:
        return None
    k = clamp(k, run.n_steps)
    a = run.tape.alpha_at(k - 1)
    G = gradient(run, a)
    y = run.y
    i, j = int(run.detail["i"][k]), int(run.detail["j"][k])
    I_up, I_low = _smo.working_sets(a, y, run.C_box)
    myG = -y * G
    m = float(myG[I_up].max()) if I_up.any() else math.nan
    M = float(myG[I_low].min()) if I_low.any() else math.nan
    return {
        "i": i,
        "j": j,
        "minus_yG_i": float(myG[i]),
        "minus_yG_j": float(myG[j]),
        "m": m,
        "M": M,
        "gap": m - M,
        "rule": run.wss,
    }

