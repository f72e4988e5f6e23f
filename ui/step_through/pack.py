"""Packing a solver's trace (the engine's list of dicts) into a StepRun's arrays, one
function per solver: α as an ``AlphaTape``, b, the objectives, the KKT measure, the steps where
an α hits a bound, and the solver's own per-step numbers (``detail``)."""

from __future__ import annotations

import math

import numpy as np

import svm_engine as se
from svm_engine.bounds import at_C_mask
from svm_engine.finalize import bias_from_gradient, kkt_violation
from svm_engine.objectives import objectives
from svm_engine.problem import build_problem
from svm_engine.solvers import smo as _smo
from svm_engine.tape import diff_changes, make_tape

TOP_CANDIDATES = _smo.TOP_CANDIDATES


def _at_bound(a: np.ndarray, C_box: float) -> np.ndarray:
    """0: not at a bound, 1: at 0 (the solvers clip onto 0 exactly), 2: at C (bounds.at_C_mask)."""
    a = np.asarray(a, dtype=float)
    return np.where(at_C_mask(a, C_box), 2, np.where(a <= 0.0, 1, 0))


def _hits(old: np.ndarray, new: np.ndarray, C_box: float) -> np.ndarray:
    """True where a value moved onto 0 or C (and was not already on that bound)."""
    bo, bn = _at_bound(old, C_box), _at_bound(new, C_box)
    return (bn > 0) & (bn != bo)


class _Walker:
    """Walks the tape keeping u = K(α∘y) (plain kernel) current, for objectives per step."""

    def __init__(self, run_kernel, X, y, alpha0, cols):
        self.y = y
        self.cols = np.asarray(cols, dtype=np.int64)
        self.pos = {int(c): p for p, c in enumerate(self.cols)}
        self.Kc = run_kernel(X, X[self.cols]) if len(self.cols) else np.zeros((len(X), 0))
        self.alpha = np.array(alpha0, dtype=float)
        nz = np.flatnonzero(self.alpha)
        self.u = run_kernel(X, X[nz]) @ (self.alpha[nz] * y[nz]) if len(nz) else np.zeros(len(X))

    def apply(self, idx, val):
        for i, v in zip(idx, val):
            d = v - self.alpha[i]
            if d != 0.0:
                self.u += self.Kc[:, self.pos[int(i)]] * (d * self.y[i])
                self.alpha[i] = v


def step_objectives(alpha, y, u, b, C, loss, bias):
    """svm_engine.objectives with the hard margin's ∞ primal as NaN: a gap in the curves and
    NaN in the player's float32 arrays (ui/step_through/player.py: NaN = ∞)."""
    primal, dual, G = objectives(alpha, y, u, b, C, loss, bias)
    return (primal if math.isfinite(primal) else math.nan), dual, G


def pack_smo(trace, model, X, y, kernel, C, C_box, s) -> dict:
    T = len(trace)
    n = len(y)
    alpha0 = np.zeros(n) if model.alpha0 is None else np.array(model.alpha0, dtype=float)
    keys_f = (
        "yi",
        "yj",
        "ai_old",
        "aj_old",
        "aj_unclipped",
        "ai_new",
        "aj_new",
        "L",
        "H",
        "eta",
        "Ei",
        "Ej",
        "gap_before",
    )
    det: dict[str, np.ndarray] = {}
    for k in ("i", "j"):
        det[k] = np.array([-1] + [r[k] for r in trace], dtype=np.int64)
    for k in keys_f:
        det[k] = np.array([math.nan] + [r[k] for r in trace], dtype=float)
    det["clipped"] = np.array([False] + [bool(r["clipped"]) for r in trace])
    cj = np.full((T + 1, TOP_CANDIDATES), -1, dtype=np.int64)
    cg = np.full((T + 1, TOP_CANDIDATES), math.nan)
    for t, r in enumerate(trace, start=1):
        for c, (jj, gg) in enumerate(r.get("candidates") or []):
            if c < TOP_CANDIDATES:
                cj[t, c], cg[t, c] = jj, gg
    det["cand_j"], det["cand_gain"] = cj, cg
    tape = make_tape(alpha0, _smo.trace_changes(trace))
    # b, dual, kkt after each step come from the trace; the start (α₀) is computed here
    cols = np.unique(np.concatenate([det["i"][1:], det["j"][1:], np.flatnonzero(alpha0)]))
    walk = _Walker(kernel, X, y, alpha0, cols)
    _, d0, G0 = step_objectives(alpha0, y, walk.u, 0.0, C, s["loss"], s["bias"])
    b0 = bias_from_gradient(y * G0, alpha0, y, C_box)
    b = np.array([b0] + [r["b"] for r in trace], dtype=float)
    dual = np.array([d0] + [r["dual"] for r in trace], dtype=float)
    kkt = np.array(
        [kkt_violation(G0, alpha0, y, C_box, True)] + [r["kkt_violation"] for r in trace],
        dtype=float,
    )
    primal = np.empty(T + 1)
    primal[0] = step_objectives(alpha0, y, walk.u, b0, C, s["loss"], s["bias"])[0]
    for t, r in enumerate(trace, start=1):
        walk.apply((r["i"], r["j"]), (r["ai_new"], r["aj_new"]))
        primal[t] = step_objectives(walk.alpha, y, walk.u, b[t], C, s["loss"], s["bias"])[0]
    events = np.zeros(T + 1, dtype=bool)
    if T:
        events[1:] = _hits(det["ai_old"][1:], det["ai_new"][1:], C_box) | _hits(
            det["aj_old"][1:], det["aj_new"][1:], C_box
        )
    return dict(tape=tape, b=b, dual=dual, primal=primal, kkt=kkt, events=events, detail=det)


def pack_sga(trace, model, X, y, kernel, C, C_box, s) -> dict:
    T = len(trace)
    n = len(y)
    alpha0 = np.zeros(n) if model.alpha0 is None else np.array(model.alpha0, dtype=float)
    alphas = [alpha0] + [np.asarray(r["alpha"], dtype=float) for r in trace]
    changes = [diff_changes(alphas[t - 1], alphas[t]) for t in range(1, T + 1)]
    tape = make_tape(alpha0, changes)
    cols = np.unique(np.concatenate([c[0] for c in changes] + [np.flatnonzero(alpha0)]))
    walk = _Walker(kernel, X, y, alpha0, cols)
    b = np.empty(T + 1)
    primal, dual, kkt = np.empty(T + 1), np.empty(T + 1), np.empty(T + 1)
    events = np.zeros(T + 1, dtype=bool)
    hits = []
    for t in range(T + 1):
        if t:
            walk.apply(*changes[t - 1])
        a = walk.alpha
        b[t] = float(a @ y)  # w_{d+1} = Σ αᵢyᵢ (slide 30)
        primal[t], dual[t], G = step_objectives(a, y, walk.u, b[t], C, s["loss"], s["bias"])
        kkt[t] = kkt_violation(G, a, y, C_box, False)
        if t:
            hit = np.flatnonzero(_hits(alphas[t - 1], alphas[t], C_box))
            events[t] = len(hit) > 0
            hits.append((t - 1) * n + hit + 1)  # coordinate step of α_k's update in sweep t
    det = {"delta_norm": np.array([math.nan] + [r["delta_norm"] for r in trace], dtype=float)}
    coord_hits = np.concatenate(hits).astype(np.int64) if hits else np.zeros(0, dtype=np.int64)
    return dict(
        tape=tape,
        b=b,
        dual=dual,
        primal=primal,
        kkt=kkt,
        events=events,
        detail=det,
        coord_hits=coord_hits,
    )


def pack_newton(trace, model, X, y, kernel, C, s) -> dict:
    T = len(trace)
    n, d = X.shape
    linear = isinstance(kernel, se.Linear)
    # A = X′ = (x, 1) (slide 39) or K′ = K + 1 (slide 41): the matrix the engine's Newton used
    if linear:
        A = np.hstack([X, np.ones((n, 1))])
    else:
        A = build_problem(X, y, kernel, C, "quadratic", "augmented").K
    W = np.zeros((T + 1, A.shape[1]))
    for t, r in enumerate(trace, start=1):
        W[t] = r["w"]
    H = W @ A.T  # h(xᵢ) after each iteration, one row per iteration
    XI = np.maximum(0.0, 1.0 - y[None, :] * H)
    AL = 2.0 * C * XI  # α = 2Cξ (KKT of the quadratic loss)
    changes = [diff_changes(AL[t - 1], AL[t]) for t in range(1, T + 1)]
    tape = make_tape(AL[0], changes)
    if linear:
        b = W[:, -1].copy()
        reg = 0.5 * np.einsum("ij,ij->i", W, W)
    else:
        b = W.sum(axis=1)
        reg = 0.5 * np.einsum("ij,ij->i", W @ A, W)
    primal = reg + C * np.einsum("ij,ij->i", XI, XI)
    # dual at α = 2Cξ (augmented, quadratic loss): Σα − ½ αᵀ(yyᵀ∘(K + 1 + δ/(2C)))α
    K1 = A @ A.T if linear else A
    AY = AL * y[None, :]
    dual = AL.sum(axis=1) - 0.5 * (
        np.einsum("ij,ij->i", AY @ K1, AY) + np.einsum("ij,ij->i", AL, AL) / (2.0 * C)
    )
    grad = np.array([math.nan] + [r["grad_norm"] for r in trace], dtype=float)
    viol = y[None, :] * H < 1.0
    events = np.zeros(T + 1, dtype=bool)
    events[1:] = (viol[1:] != viol[:-1]).any(axis=1)
    det = {
        "n_violators": np.array([-1] + [r["n_violators"] for r in trace], dtype=np.int64),
        "grad_norm": grad,
        "step": np.array([math.nan] + [r["step"] for r in trace], dtype=float),
        "step_norm": np.array([math.nan] + [r["step_norm"] for r in trace], dtype=float),
        "primal_trace": np.array([math.nan] + [r["primal"] for r in trace], dtype=float),
    }
    # the curve of "max KKT violation" for Newton is ‖∇J(w)‖ at the start of each iteration;
    # after the last iteration it is the gradient there (computed from the final w)
    kkt = np.append(grad[1:], _newton_grad_norm(A, y, C, W[-1], linear))
    return dict(
        tape=tape, b=b, dual=dual, primal=primal, kkt=kkt, events=events, detail=det, newton_w=W
    )


def _newton_grad_norm(A, y, C, w, linear) -> float:
    """‖∇J‖ at w (slides 37 and 41): (R + 2CS)w − 2Cv over the violators yᵢh(xᵢ) < 1."""
    R = np.eye(A.shape[1]) if linear else A
    F = A @ w
    viol = y * F < 1.0
    Av = A[viol]
    grad = (R + 2.0 * C * (Av.T @ Av)) @ w - 2.0 * C * (Av.T @ y[viol])
    return float(np.linalg.norm(grad))

