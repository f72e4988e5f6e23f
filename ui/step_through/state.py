"""Step-through state: the solver's recorded run, and the state after any step k.

Pure (numpy + svm_engine; no streamlit). The page fits once with ``trace=True`` and then
only *replays* the record:

- ``build_run(X, y, settings)`` fits (SMO, SGA or Newton) and packs the trace into a
  compact, picklable ``StepRun`` (numpy arrays; the engine's list of dicts is dropped);
- ``state_at(run, k)`` is the state after step k (k = 0 is the start, before any step):
  α, b, the hyperplane (w for the linear kernel) or a model whose ``decision_function``
  gives h(x) on a grid, the KKT-violating points, and the numbers of step k;
- ``coordinate_state(run, s)`` is SGA's one-coordinate-per-step view (slide 33, lines 12–14);
- ``move``, ``next_event``, ``play_tick``: the playback cursor (clamped to [0, T]).

α after step k is read from an ``AlphaTape``: α at every ``CHECKPOINT_EVERY``-th step plus
the entries each step changed, so any k is reached by replaying < ``CHECKPOINT_EVERY``
recorded steps. Replaying assigns the recorded numbers, so going back and forth gives
identical floats, and the last step gives the solver's α exactly.

Symbols as on the slides and in the KKT/SMO note: α, C, η, L, H, Eₜ = h(xₜ) − yₜ. Indices are
0-based here; the page shows them 1-based (x₁ … xₙ, as the book numbers D1).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.finalize import bias_from_gradient, categorise, kkt_violation, support_threshold
from svm_engine.problem import build_problem
from svm_engine.solvers import sga as _sga
from svm_engine.solvers import smo as _smo
from ui.shared import formulas as FM
from ui.shared.fitting import PAGE_TIME_BUDGET, SMO_TOL, smo_max_iter
from ui.shared.labels import SOLVER_STEPS
from ui.shared.settings import effective_C, fit_settings, settings_to_kernel

#: The engine keeps the first TRACE_CAP SMO steps (and SGA sweeps) of a run.
TRACE_CAP = _smo.TRACE_CAP
#: α is stored in full every CHECKPOINT_EVERY steps; steps in between are replayed.
CHECKPOINT_EVERY = 64
#: A point is marked as violating the KKT conditions when its violation exceeds this
#: (the same number as SMO's default stopping tolerance on m(α) − M(α)).
KKT_TOL = 1e-3
#: Solvers the page can step through, and the bias each of them solves for.
STEP_SOLVERS = ("smo", "sga", "newton")
SOLVER_BIAS = {"smo": "free", "sga": "augmented", "newton": "augmented"}
SOLVER_NAMES = {
    "smo": "SMO (Platt; free bias b)",
    "sga": "SVM-Dual: stochastic gradient ascent (slide 33; b folded into w)",
    "newton": "SVM-Primal: Newton (slides 39, 41; quadratic loss, b folded into w)",
}
TOP_CANDIDATES = _smo.TOP_CANDIDATES


def sga_max_sweeps(n: int) -> int:
    """SGA sweep cap on this page: 5,000 sweeps (the trace cap), fewer for big sets so a run
    stays within ~2·10⁹ kernel-entry updates (n = 200: 5,000; n = 2,000: 500)."""
    return int(min(TRACE_CAP, max(100, 2_000_000_000 // max(1, n * n))))


def trace_max_iter(n: int) -> int:
    """SMO's cap for the recorded run: the readable solver (Python, with its trace) takes
    ~10-100 µs a step, so a page's fit stays within its budget. Where it stops short, the
    final numbers come from the Playground's own cap (``smo_max_iter``) from the run's α,
    so both pages show the same model."""
    return 5_000 + 20 * int(n)


# ---------------------------------------------------------------------------- α tape


@dataclass(frozen=True, eq=False)
class AlphaTape:
    """α after every step, stored as checkpoints plus each step's changed entries.

    ``ptr[t-1]:ptr[t]`` indexes the (``idx``, ``val``) pairs written by step t (1 ≤ t ≤ T);
    ``checkpoints[c]`` is α after step c·every.
    """

    alpha0: np.ndarray
    every: int
    checkpoints: np.ndarray
    ptr: np.ndarray
    idx: np.ndarray
    val: np.ndarray

    @property
    def n_steps(self) -> int:
        return len(self.ptr) - 1

    def changed_at(self, k: int) -> np.ndarray:
        """Indices written by step k (empty for k = 0)."""
        if k <= 0:
            return np.zeros(0, dtype=np.int64)
        return self.idx[self.ptr[k - 1] : self.ptr[k]].astype(np.int64)

    def alpha_at(self, k: int) -> np.ndarray:
        """α after step k (a fresh copy)."""
        k = int(min(max(k, 0), self.n_steps))
        c = k // self.every
        a = self.checkpoints[c].copy()
        lo, hi = self.ptr[c * self.every], self.ptr[k]
        if hi > lo:
            # apply in recorded order: a later write to the same entry wins
            for i, v in zip(self.idx[lo:hi], self.val[lo:hi]):
                a[i] = v
        return a

    @property
    def nbytes(self) -> int:
        return sum(x.nbytes for x in (self.alpha0, self.checkpoints, self.ptr, self.idx, self.val))


def make_tape(alpha0: np.ndarray, changes, every: int = CHECKPOINT_EVERY) -> AlphaTape:
    """Build a tape from α₀ and an iterable of (indices, new values), one per step."""
    a = np.array(alpha0, dtype=float)
    checkpoints = [a.copy()]
    ptr = [0]
    idx_parts, val_parts = [], []
    t = 0
    for ii, vv in changes:
        ii = np.asarray(ii, dtype=np.int32).reshape(-1)
        vv = np.asarray(vv, dtype=float).reshape(-1)
        for i, v in zip(ii, vv):
            a[i] = v
        idx_parts.append(ii)
        val_parts.append(vv)
        ptr.append(ptr[-1] + len(ii))
        t += 1
        if t % every == 0:
            checkpoints.append(a.copy())
    idx = np.concatenate(idx_parts) if idx_parts else np.zeros(0, dtype=np.int32)
    val = np.concatenate(val_parts) if val_parts else np.zeros(0)
    return AlphaTape(
        alpha0=np.array(alpha0, dtype=float),
        every=int(every),
        checkpoints=np.array(checkpoints),
        ptr=np.array(ptr, dtype=np.int64),
        idx=idx.astype(np.int32),
        val=val.astype(float),
    )


def _diff_changes(prev: np.ndarray, new: np.ndarray):
    ch = np.flatnonzero(new != prev)
    return ch, new[ch]


# ------------------------------------------------------------------------ the run


@dataclass(frozen=True, eq=False)
class StepRun:
    """One recorded run, ready to be stepped through (picklable; numpy arrays only).

    Arrays indexed by step have length T + 1: index 0 is the start (before any step).
    ``detail`` holds the solver's per-step numbers (SMO: i, j, ai_old, …; SGA: delta_norm;
    Newton: n_violators, grad_norm, step, step_norm), same indexing (index 0 is NaN/−1).
    """

    solver: str
    settings: dict  # the fit settings (ui.shared.state.fit_settings form, bias set for the solver)
    X: np.ndarray
    y: np.ndarray  # ±1 floats
    kernel: Any
    C: float  # the user's C (math.inf for the hard margin)
    C_box: float  # upper bound of every α (∞ for quadratic loss)
    loss: str
    bias: str
    wss: str | None
    model: Any  # the engine's final SVMModel (trace dropped)
    n_iter: int  # iterations the engine ran
    truncated: bool  # the run was longer than the trace
    tape: AlphaTape
    b: np.ndarray
    dual: np.ndarray
    primal: np.ndarray  # NaN where the primal is ∞ (hard margin with a violated margin)
    kkt: np.ndarray  # SMO: m(α) − M(α); SGA: max projected gradient; Newton: ‖∇J‖
    events: np.ndarray  # bool: step t makes an α hit 0 or C (Newton: violator set changes)
    detail: dict = field(default_factory=dict)
    newton_w: np.ndarray | None = None  # (T + 1, p): w′ (linear) or β (kernel form)
    coord_hits: np.ndarray | None = None  # SGA: coordinate steps where α_k hits 0 or C
    warning: str | None = None
    #: the Playground's model when the run's own α did not pass the certificate and the
    #: exact solve on its support vectors did the rest (None: the run's model is final)
    final: Any = None

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def n_steps(self) -> int:
        return self.tape.n_steps

    @property
    def linear(self) -> bool:
        return isinstance(self.kernel, se.Linear)

    @property
    def step_name(self) -> str:
        return SOLVER_STEPS[self.solver]

    @property
    def nbytes(self) -> int:
        """Bytes held in numpy arrays (what a cached run costs, roughly)."""
        total = self.tape.nbytes + self.X.nbytes + self.y.nbytes
        for a in (self.b, self.dual, self.primal, self.kkt, self.events):
            total += a.nbytes
        total += sum(v.nbytes for v in self.detail.values())
        if self.newton_w is not None:
            total += self.newton_w.nbytes
        if self.coord_hits is not None:
            total += self.coord_hits.nbytes
        return int(total)


def step_settings(settings: Mapping[str, Any], solver: str) -> dict:
    """The fit settings for ``solver`` on this page: bias is the solver's (SMO free, SGA and
    Newton augmented), Newton uses the quadratic loss; other keys as ``fit_settings``."""
    if solver not in STEP_SOLVERS:
        raise ValueError(f"solver must be one of {', '.join(STEP_SOLVERS)}; got {solver!r}")
    s = dict(settings)
    s["solver"] = solver
    s["bias"] = SOLVER_BIAS[solver]
    if solver == "newton":
        s["loss"] = "quadratic"
        s["hard_margin"] = False
    if s.get("loss") == "quadratic":
        s["hard_margin"] = False
    return fit_settings(s)


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


def _at_bound(a: np.ndarray, C_box: float) -> np.ndarray:
    """0: not at a bound, 1: at 0, 2: at C."""
    a = np.asarray(a, dtype=float)
    out = np.where(a <= 0.0, 1, 0)
    if math.isfinite(C_box):
        out = np.where(a >= C_box * (1 - 1e-12), 2, out)
    return out


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


def _objectives(alpha, y, u, b, C, C_box, loss, bias):
    """(primal, dual, G) at α with u = K(α∘y) (plain kernel) and bias b."""
    ay = alpha * y
    s = u.copy()  # K_eff(α∘y)
    if bias == "augmented":
        s += ay.sum()
    if loss == "quadratic":
        s += ay / (2.0 * C)
    G = y * s - 1.0
    dual = float(alpha.sum() - 0.5 * ay @ s)
    h = u + b
    xi = np.maximum(0.0, 1.0 - y * h)
    reg = float(ay @ u) + (b * b if bias == "augmented" else 0.0)
    k = 2 if loss == "quadratic" else 1
    if math.isinf(C):
        primal = 0.5 * reg if not (xi > 1e-6).any() else math.nan
    else:
        primal = 0.5 * reg + C * float(np.sum(xi**k))
    return primal, dual, G


def build_run(X, y, settings: Mapping[str, Any], solver: str | None = None) -> StepRun:
    """Fit with ``trace=True`` and pack the record. Raises ValueError for bad input or an
    unsupported combination (the message is meant for the user)."""
    solver = solver or settings.get("solver", "smo")
    s = step_settings(settings, solver)
    X = np.asarray(X, dtype=float).reshape(-1, 2) if np.ndim(X) != 2 else np.asarray(X, float)
    y = np.asarray(y)
    if len(X) < 2 or len(np.unique(y)) < 2:
        raise ValueError("Add at least one point of each class (+1 and −1) to train an SVM.")
    kernel = settings_to_kernel(s)
    C = effective_C(s)
    n = len(X)
    max_iter = {"smo": trace_max_iter(n), "sga": sga_max_sweeps(n), "newton": None}[solver]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)  # the status says it
        model = se.fit(
            X,
            y,
            kernel=kernel,
            C=C,
            loss=s["loss"],
            bias=s["bias"],
            solver=solver,
            wss=s["wss"],
            max_iter=max_iter,
            trace=True,
            # the run the Playground shows (one tolerance for both pages, issue 16 item 3);
            # the replay ends at the solver's own α, before the exact solve (polish.py)
            tol=SMO_TOL if solver == "smo" else None,
            polish=False,
            time_budget=PAGE_TIME_BUDGET,
        )
        # ... which the Playground then does: its numbers, certified or not (SMO starts at
        # the run's own α, so it only does the exact solve, not the run again)
        final = model if model.converged else se.fit(
            X, y, kernel=kernel, C=C, loss=s["loss"], bias=s["bias"], solver=solver,
            wss=s["wss"], max_iter=smo_max_iter(n) if solver == "smo" else max_iter,
            tol=SMO_TOL if solver == "smo" else None,
            alpha0=model.alpha if solver == "smo" else None, time_budget=PAGE_TIME_BUDGET)
    # the engine's status is already a sentence ("not converged: …, try …"), shown as it is
    warning = None if final.converged else final.status
    trace = model.trace or []
    yy = np.asarray(model.y, dtype=float)
    Xf = np.asarray(model.X, dtype=float)
    C_box = model.C_box
    common = dict(
        solver=solver,
        settings=s,
        X=Xf,
        y=yy,
        kernel=kernel,
        C=float(C),
        C_box=float(C_box),
        loss=s["loss"],
        bias=s["bias"],
        wss=s["wss"] if solver == "smo" else None,
        n_iter=int(model.n_iter),
        warning=warning,
    )
    if solver == "smo":
        parts = _pack_smo(trace, model, Xf, yy, kernel, C, C_box, s)
        truncated = bool(model.trace_truncated) or model.n_iter > len(trace)
    elif solver == "sga":
        parts = _pack_sga(trace, model, Xf, yy, kernel, C, C_box, s)
        truncated = model.n_iter > len(trace)
    else:
        parts = _pack_newton(trace, model, Xf, yy, kernel, C, s)
        truncated = model.n_iter > len(trace)
    slim = _slim_model(model)
    return StepRun(model=slim, truncated=truncated, final=None if final is model else
                   _slim_model(final), **common, **parts)  # fmt: skip


def run_or_message(X, y, settings: Mapping[str, Any], solver: str | None = None):
    """(``build_run``'s StepRun, None), or (None, the message for the user) when it raises:
    never raises (what the page caches; it runs it in a worker with ``ui.serving.budget.run``)."""
    try:
        return build_run(X, y, settings, solver), None
    except ValueError as exc:
        return None, str(exc)
    except Exception as exc:  # an engine bug must not become a traceback on the page
        return None, f"The solver failed ({type(exc).__name__}: {exc})."


def _slim_model(model):
    """The final model without its (large) list-of-dicts trace."""
    from dataclasses import replace

    return replace(model, trace=None)


def _pack_smo(trace, model, X, y, kernel, C, C_box, s) -> dict:
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
    tape = make_tape(alpha0, (((r["i"], r["j"]), (r["ai_new"], r["aj_new"])) for r in trace))
    # b, dual, kkt after each step come from the trace; the start (α₀) is computed here
    cols = np.unique(np.concatenate([det["i"][1:], det["j"][1:], np.flatnonzero(alpha0)]))
    walk = _Walker(kernel, X, y, alpha0, cols)
    _, d0, G0 = _objectives(alpha0, y, walk.u, 0.0, C, C_box, s["loss"], s["bias"])
    b0 = bias_from_gradient(y * G0, alpha0, y, C_box)
    b = np.array([b0] + [r["b"] for r in trace], dtype=float)
    dual = np.array([d0] + [r["dual"] for r in trace], dtype=float)
    kkt = np.array(
        [kkt_violation(G0, alpha0, y, C_box, True)] + [r["kkt_violation"] for r in trace],
        dtype=float,
    )
    primal = np.empty(T + 1)
    primal[0] = _objectives(alpha0, y, walk.u, b0, C, C_box, s["loss"], s["bias"])[0]
    for t, r in enumerate(trace, start=1):
        walk.apply((r["i"], r["j"]), (r["ai_new"], r["aj_new"]))
        primal[t] = _objectives(walk.alpha, y, walk.u, b[t], C, C_box, s["loss"], s["bias"])[0]
    events = np.zeros(T + 1, dtype=bool)
    if T:
        events[1:] = _hits(det["ai_old"][1:], det["ai_new"][1:], C_box) | _hits(
            det["aj_old"][1:], det["aj_new"][1:], C_box
        )
    return dict(tape=tape, b=b, dual=dual, primal=primal, kkt=kkt, events=events, detail=det)


def _pack_sga(trace, model, X, y, kernel, C, C_box, s) -> dict:
    T = len(trace)
    n = len(y)
    alpha0 = np.zeros(n) if model.alpha0 is None else np.array(model.alpha0, dtype=float)
    alphas = [alpha0] + [np.asarray(r["alpha"], dtype=float) for r in trace]
    changes = [_diff_changes(alphas[t - 1], alphas[t]) for t in range(1, T + 1)]
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
        primal[t], dual[t], G = _objectives(a, y, walk.u, b[t], C, C_box, s["loss"], s["bias"])
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


def _pack_newton(trace, model, X, y, kernel, C, s) -> dict:
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
    changes = [_diff_changes(AL[t - 1], AL[t]) for t in range(1, T + 1)]
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


# --------------------------------------------------------------------- step states


@dataclass(frozen=True, eq=False)
class StepModel:
    """What ``ui.shared.figures.decision_figure`` needs of a model, for the state after a step:
    h(x) = Σ coefᵢ K(xᵢ, x) + b (coef = α∘y, or Newton's β), or w·x + b (linear)."""

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
    def C_box(self) -> float:
        return math.inf if self.loss == "quadratic" else self.C

    @property
    def support(self) -> np.ndarray:
        return np.flatnonzero(self.alpha > support_threshold(self.alpha))

    def _at_C(self) -> np.ndarray:
        if not math.isfinite(self.C_box):
            return np.zeros(len(self.alpha), dtype=bool)
        return self.alpha >= self.C_box * (1 - 1e-8)

    @property
    def free_support(self) -> np.ndarray:
        a = self.alpha
        return np.flatnonzero((a > support_threshold(a)) & ~self._at_C())

    @property
    def bound_support(self) -> np.ndarray:
        return np.flatnonzero(self._at_C())

    @property
    def margin(self) -> float:
        if self.w is None:
            return math.nan
        nw = float(np.linalg.norm(self.w))
        return 1.0 / nw if nw > 0 else math.inf

    def decision_function(self, Z) -> np.ndarray:
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        if self.w is not None:
            return Z @ self.w + self.b
        nz = np.flatnonzero(self.coef)
        if len(nz) == 0:
            return np.full(len(Z), self.b)
        return self.kernel.expansion(Z, self.X[nz], self.coef[nz]) + self.b


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


def clamp(k, n_steps: int) -> int:
    """k as an int in [0, n_steps] (anything unreadable becomes 0)."""
    try:
        k = int(k)
    except (TypeError, ValueError, OverflowError):
        return 0
    return max(0, min(k, int(n_steps)))


def _step_model(run: StepRun, alpha, b, coef=None, w=None) -> StepModel:
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
        return _step_model(run, alpha, float(wv[-1]), coef=alpha * run.y, w=wv[:-1].copy())
    return _step_model(run, alpha, float(wv.sum()), coef=wv.copy())


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
    eps = support_threshold(alpha)
    at0 = alpha <= eps
    atC = (alpha >= C_box - eps * max(1.0, C_box)) if math.isfinite(C_box) else np.zeros_like(at0)
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
        model = _step_model(run, alpha, b)
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
    return _step_model(run, run.tape.alpha_at(k - 1), float(run.b[k - 1]))


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


# ----------------------------------------------------------- SGA, one coordinate per step


def coordinate_count(run: StepRun) -> int:
    """Number of coordinate steps in the recorded SGA run: sweeps × n."""
    return run.n_steps * run.n


def coordinate_position(run: StepRun, s: int) -> tuple[int, int]:
    """Coordinate step s ↦ (sweep t, coordinate k): s = (t − 1)·n + k + 1; s = 0 ↦ (0, −1)."""
    s = clamp(s, coordinate_count(run))
    if s == 0:
        return 0, -1
    return (s - 1) // run.n + 1, (s - 1) % run.n


def coordinate_state(run: StepRun, s) -> tuple[StepState, dict]:
    """SGA state after coordinate step s: sweep t started from α_{t−1} (recorded) and the
    α_k update of slide 33 (lines 12–14) applied for k = 0..k_s with
    ``svm_engine.solvers.sga.coordinate_step``. Returns (state, record of the update)."""
    if run.solver != "sga":
        raise ValueError("coordinate steps exist only for SGA")
    s = clamp(s, coordinate_count(run))
    t, kk = coordinate_position(run, s)
    if s == 0:
        return state_at(run, 0), {}
    y = run.y
    a = run.tape.alpha_at(t - 1)
    # the same K_eff (and so the same η_k) as the engine's run
    Keff = build_problem(run.X, y, run.kernel, run.C, run.loss, run.bias).K_eff
    eta = 1.0 / np.diag(Keff)
    g = Keff @ (a * y)
    rec: dict[str, Any] = {}
    before = a.copy()
    g_before = 0.0
    for c in range(kk + 1):
        if c == kk:
            before, g_before = a.copy(), float(g[kk])
        rec = _sga.coordinate_step(Keff, y, a, g, eta, run.C_box, c)
    rec = {key: (bool(v) if isinstance(v, np.bool_ | bool) else v) for key, v in rec.items()}
    # g_before = Σᵢ αᵢyᵢK(xᵢ, x_k) just before the update (slide 33, line 12)
    rec.update(sweep=t, y=float(y[kk]), C=run.C_box, g_before=g_before,
               **kernel_numbers(run, [kk]))
    b = float(a @ y)
    model = _step_model(run, a, b)
    G = y * g - 1.0  # g is current after the update
    viol = kkt_point_violation(a, G, y, b, run.C_box, False)
    u = model.h_train - b
    primal, dual, _ = _objectives(a, y, u, b, run.C, run.C_box, run.loss, run.bias)
    state = StepState(
        k=t,
        n_steps=run.n_steps,
        alpha=a,
        b=b,
        model=model,
        changed=np.array([kk]),
        alpha_before=before,
        violation=viol,
        violators=np.flatnonzero(viol > KKT_TOL),
        dual=dual,
        primal=primal,
        kkt=kkt_violation(G, a, y, run.C_box, False),
        record=rec,
    )
    return state, rec


# ------------------------------------------------------------------ playback cursor

ACTIONS = ("first", "prev", "next", "last")


def move(k, action: str, n_steps: int, *, stride: int = 1) -> int:
    """The cursor after a button: first / prev / next / last (clamped to [0, n_steps])."""
    k = clamp(k, n_steps)
    stride = max(1, int(stride))
    if action == "first":
        return 0
    if action == "last":
        return int(n_steps)
    if action == "prev":
        return clamp(k - stride, n_steps)
    if action == "next":
        return clamp(k + stride, n_steps)
    raise ValueError(f"unknown cursor action {action!r}; expected one of {ACTIONS}")


def event_steps(run: StepRun, coordinate: bool = False) -> np.ndarray:
    """Sorted steps where an α hits 0 or C (Newton: the violator set changes)."""
    if coordinate:
        return run.coord_hits if run.coord_hits is not None else np.zeros(0, dtype=np.int64)
    return np.flatnonzero(run.events)


def next_event(events: np.ndarray, k: int) -> int | None:
    """The first event step after k, or None."""
    events = np.asarray(events)
    pos = int(np.searchsorted(events, int(k), side="right"))
    return int(events[pos]) if pos < len(events) else None


def play_tick(k, n_steps: int, stride: int = 1) -> tuple[int, bool]:
    """One tick of playback: (new cursor, keep playing). Stops at the end."""
    k = clamp(k, n_steps)
    if k >= n_steps:
        return int(n_steps), False
    new = clamp(k + max(1, int(stride)), n_steps)
    return new, new < n_steps
