"""The Step-through page's recorded run: fit once with ``trace=True`` and keep the record.

``build_run(X, y, settings)`` fits (SMO, SGA or Newton) and packs the trace into a compact,
picklable ``StepRun`` (numpy arrays; the engine's list of dicts is dropped; the per-solver
packing is ``pack.py``). What the page shows after step k is ``snapshot.py``.

Symbols as on the slides and in the KKT/SMO note: α, C, η, L, H, Eₜ = h(xₜ) − yₜ. Indices are
0-based here; the page shows them 1-based (x₁ … xₙ, as the book numbers D1).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.solvers import registry
from svm_engine.solvers import smo as _smo
from svm_engine.tape import AlphaTape
from ui.shared.fitting import PAGE_TIME_BUDGET, SMO_TOL, smo_max_iter
from ui.shared.labels import SOLVER_NAMES, SOLVER_STEPS
from ui.shared.settings import effective_C, fit_settings, settings_to_kernel
from ui.step_through.pack import pack_newton, pack_sga, pack_smo

#: The engine keeps the first TRACE_CAP SMO steps (and SGA sweeps) of a run.
TRACE_CAP = _smo.TRACE_CAP
log = logging.getLogger(__name__)

#: Solvers the page can step through, and the bias each of them solves for.
STEP_SOLVERS = ("smo", "sga", "newton")
SOLVER_BIAS = {k: registry.BY_KEY[k].biases[0] for k in STEP_SOLVERS}
#: what the page says under its Algorithm choice (the names are ui.shared.labels.SOLVER_NAMES)
SOLVER_CAPTIONS = {
    "smo": f"{SOLVER_NAMES['smo']} (Platt; free bias b)",
    "sga": f"{SOLVER_NAMES['sga']}: stochastic gradient ascent (slide 33; b folded into w)",
    "newton": f"{SOLVER_NAMES['newton']}: slides 39, 41; quadratic loss, b folded into w",
}


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



@dataclass(frozen=True, eq=False)
class StepRun:
    """One recorded run, ready to be stepped through (picklable; numpy arrays only).

    Arrays indexed by step have length T + 1: index 0 is the start (before any step).
    ``detail`` holds the solver's per-step numbers (SMO: i, j, ai_old, …; SGA: delta_norm;
    Newton: n_violators, grad_norm, step, step_norm), same indexing (index 0 is NaN/−1).
    """

    solver: str
    settings: dict  # the fit settings (settings.fit_settings form, bias set for the solver)
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
        parts = pack_smo(trace, model, Xf, yy, kernel, C, C_box, s)
        truncated = bool(model.trace_truncated) or model.n_iter > len(trace)
    elif solver == "sga":
        parts = pack_sga(trace, model, Xf, yy, kernel, C, C_box, s)
        truncated = model.n_iter > len(trace)
    else:
        parts = pack_newton(trace, model, Xf, yy, kernel, C, s)
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
        log.exception("step-through: build_run failed")
        return None, f"The solver failed ({type(exc).__name__}: {exc})."


def _slim_model(model):
    """The final model without its (large) list-of-dicts trace."""
    return replace(model, trace=None)

