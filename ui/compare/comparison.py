"""Compare solvers: which solver rows apply, running them, and checking each against cvxopt.

Every row solves one formulation of ch. 21: loss hinge (k = 1) or quadratic (k = 2), and the
bias free (Σαᵢyᵢ = 0, slides 20/27) or augmented (x′ = (x, 1), b inside w, slide 30). A row
*agrees* with the cvxopt reference of the same formulation (the dual QP at tolerance 1e-10)
when it converged, its dual objective is within 1e-6 relative and its h(xᵢ) on the data
within 1e-4. Every α goes through the engine's one `finalize`, so the rows differ only in α.

| symbol | here                  | meaning                                                     |
|--------|-----------------------|-------------------------------------------------------------|
| α      | `model.alpha`         | the multipliers a solver returns                            |
| D(α)   | `dual_objective`      | Σα − ½αᵀQα, the objective compared (every solver has one)   |
| P(α)   | `primal_objective`    | ½‖w‖² (+ ½b² augmented) + C Σξᵏ from the same α             |
| h(xᵢ)  | `model.h_train`       | decision values on the data, compared with the reference's  |

Pure functions of plain values (no streamlit): the page caches ``compare``. A row's convergence
curve comes from ``curves``, the table the page prints and its words from ``table``.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.solvers import registry
from svm_engine.solvers.smo import TRACE_CAP
from ui.compare.curves import Curve, convergence_curve
from ui.shared import fit_words
from ui.shared.fitting import PAGE_TIME_BUDGET, SMO_TOL
from ui.shared.labels import SOLVER_NAMES
from ui.shared.numbers import fmt_num, fmt_setting
from ui.shared.settings import effective_C, settings_to_kernel

log = logging.getLogger(__name__)

TOL_MODES = ("tight", "default")
#: "tight": each solver close to the exact optimum (the engine's registry: smo 1e-8, qp 1e-10).
TIGHT_TOL = {s.key: s.tight_tol for s in registry.SOLVERS if s.tight_tol is not None}
QP_PRIMAL_TIGHT_TOL = 1e-9  # cvxopt stalls ("unknown") on the primal QP at 1e-10 (D2, k = 2)
REFERENCE_TOL = 1e-10
OBJECTIVE_RTOL = 1e-6
DECISION_ATOL = 1e-4
AGREEMENT_TEXT = (
    f"**Agrees with cvxopt** (✓): converged, dual objective within {fmt_setting(OBJECTIVE_RTOL)} "
    f"(relative) and h(xᵢ) on every point within {fmt_setting(DECISION_ATOL)} of the cvxopt "
    f"dual QP of the same formulation solved at tolerance {fmt_setting(REFERENCE_TOL)} (that "
    "row shows “= reference”). Time: the solver alone.")
#: cvxopt costs O(n³) per iteration (≈ 2 s at n = 1000 here), kernel Newton |V|³/3 (a whole
#: fit ≈ 0.15 s at n = 1000, benchmarks/bench_newton_kernel.py): skip beyond.
CUBIC_MAX_N = 1000

AGREE, DISAGREE = "✓", "✗"
BIAS_NAMES = {"free": "free b", "augmented": "augmented b"}
BIAS_SENTENCE = (
    "The two bias forms solve different problems: the augmented form (the book's x′ = (x, 1), "
    "slide 30) puts b inside w, so it minimises ½(‖w‖² + b²) without the constraint "
    "Σαᵢyᵢ = 0 — b is regularised like w and pulled towards 0 — while the free form leaves b "
    "unpenalised, so in general their hyperplanes differ even when both are solved exactly."
)
#: Solvers that answer their own problem, not one of the SVM QPs (no cvxopt reference).
OTHER_PROBLEM = {
    "psvm": "PSVM fits yᵢh(xᵢ) = 1 − ξᵢ as equalities (ξ of either sign, Fung & Mangasarian "
    "2001): a different problem, so no cvxopt reference of the same formulation",
}
SOLVER_ORDER = ("smo", "qp", "newton", "sga")
WSS_NAMES = {"second_order": "second-order WSS", "max_violating_pair": "max violating pair"}


@dataclass(frozen=True)
class RowSpec:
    """One table row: a solver (with its variant) on one formulation (loss, bias)."""

    solver: str
    loss: str
    bias: str
    wss: str | None = None  # smo only
    qp_form: str = "dual"  # qp only

    @property
    def key(self) -> str:
        variant = self.wss or (self.qp_form if self.solver == "qp" else "")
        return ":".join(p for p in (self.solver, variant, self.bias) if p)

    @property
    def label(self) -> str:
        if self.solver == "smo":
            return f"SMO ({WSS_NAMES.get(self.wss or '', self.wss)})"
        if self.solver == "qp":
            return f"cvxopt QP ({self.qp_form})"
        return SOLVER_NAMES.get(self.solver, self.solver)

    @property
    def full_label(self) -> str:
        """The label with the bias form: rows of the two forms share solver names."""
        return f"{self.label} · {BIAS_NAMES.get(self.bias, self.bias)}"

    @property
    def formulation(self) -> str:
        k = 1 if self.loss == "hinge" else 2
        return f"{self.loss} (k = {k}), {BIAS_NAMES.get(self.bias, self.bias)}"

    @property
    def other_problem(self) -> str | None:
        return OTHER_PROBLEM.get(self.solver)


def solver_order(solvers: Sequence[str]) -> list[str]:
    """The engine's solvers, known ones first in a fixed order, new ones (psvm) after."""
    return [s for s in SOLVER_ORDER if s in solvers] + [s for s in solvers if s not in SOLVER_ORDER]


def rows_for(kernel, loss: str, biases: Sequence[str], C: float,
             solvers: Sequence[str] | None = None) -> list[RowSpec]:
    """Every (solver, variant) that can solve this kernel / loss / C in each bias form, grouped
    by bias form; asks the engine (``se.check_combination``), so new solvers appear by
    themselves."""
    solvers = solver_order(tuple(se.SOLVERS) if solvers is None else tuple(solvers))
    rows: list[RowSpec] = []
    for bias in biases:
        for s in solvers:
            try:
                se.check_combination(kernel, loss, bias, s, C)
            except ValueError:
                continue
            if s == "smo":
                rows += [RowSpec(s, loss, bias, wss=w) for w in se.WSS_RULES]
            elif s == "qp":
                rows.append(RowSpec(s, loss, bias, qp_form="dual"))
                if isinstance(kernel, se.Linear):  # the primal QP lives in (w, b, ξ)
                    rows.append(RowSpec(s, loss, bias, qp_form="primal"))
            else:
                rows.append(RowSpec(s, loss, bias))
    return rows


def tolerance(spec: RowSpec, mode: str) -> float | None:
    """The tol handed to ``se.fit``: None means the solver's own default. "default" runs
    every solver as the Playground and Step-through do (SMO at their ``SMO_TOL``), so the
    same points and settings give the same iterations there and here."""
    if mode == "default":
        return SMO_TOL if spec.solver == "smo" else None
    if spec.solver == "qp" and spec.qp_form == "primal":
        return QP_PRIMAL_TIGHT_TOL
    return TIGHT_TOL.get(spec.solver)


def default_max_iter(spec: RowSpec, n: int, kernel) -> int | None:
    """Iteration caps that keep the page responsive (None: the engine's default)."""
    if spec.solver == "sga":  # a sweep is O(n²)
        return int(np.clip(1e10 / max(n, 1) ** 2, 2_000, 100_000))
    # smo: every page's cap; newton: ~10 iterations; kernel form |V|³/3 each (Cholesky), 0.15 s
    # at 1,000
    return registry.BY_KEY[spec.solver].max_iter(n)


def skip_reason(spec: RowSpec, n: int, kernel) -> str | None:
    cubic = spec.solver == "qp" or (spec.solver == "newton" and not isinstance(kernel, se.Linear))
    if cubic and n > CUBIC_MAX_N:
        return f"skipped: O(n³) per iteration, n = {n} > {CUBIC_MAX_N}"
    return None


# ------------------------------------------------------------------------------ running


@dataclass
class Run:
    """One fit: the model, or the error text; ``warning`` holds a convergence message."""

    model: Any = None
    error: str | None = None
    warning: str | None = None


def fit_row(X, y, kernel, C: float, spec: RowSpec, *, tol: float | None,
            max_iter: int | None, trace: bool = False) -> Run:
    """``se.fit`` for one row; never raises (an engine error becomes the row's message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", se.ConvergenceWarning)  # the row's warning says it
            kw: dict[str, Any] = {}
            if spec.wss:
                kw["wss"] = spec.wss
            if spec.solver == "qp":
                kw["qp_form"] = spec.qp_form
            model = se.fit(X, y, kernel=kernel, C=C, loss=spec.loss, bias=spec.bias,
                           solver=spec.solver, tol=tol, max_iter=max_iter, trace=trace,
                           time_budget=PAGE_TIME_BUDGET, **kw)
    except ValueError as exc:
        return Run(error=str(exc))
    except Exception as exc:  # an engine bug must not become a traceback on the page
        log.exception("compare: %s failed", spec.key)
        return Run(error=f"the solver failed ({type(exc).__name__}: {exc})")
    warn = None if model.converged else fit_words.warning_text(model)
    return Run(model=model, warning=warn)


def reference_spec(loss: str, bias: str) -> RowSpec:
    return RowSpec("qp", loss, bias, qp_form="dual")


def is_reference_run(spec: RowSpec, tol_mode: str, max_iter: int | None) -> bool:
    """The qp dual row at tight tolerance, uncapped, *is* the reference run (not re-run)."""
    return (spec.solver == "qp" and spec.qp_form == "dual" and tol_mode == "tight"
            and max_iter is None)


# ---------------------------------------------------------------------------- agreement


@dataclass(frozen=True)
class Agreement:
    """``status``: agrees, differs, not_converged, reference, no_reference, other_problem,
    failed or skipped. ``text`` is what the table shows (✓ only for "agrees")."""

    status: str
    text: str

    @property
    def ok(self) -> bool:
        return self.status == "agrees"


def objective_rel_error(model, ref) -> float:
    """|D(α) − D(α_ref)| / |D(α_ref)|."""
    d, d_ref = float(model.dual_objective), float(ref.dual_objective)
    return abs(d - d_ref) / max(abs(d_ref), 1e-300)


def decision_max_error(model, ref) -> float:
    """max over the data of |h(xᵢ) − h_ref(xᵢ)|."""
    return float(np.max(np.abs(np.asarray(model.h_train) - np.asarray(ref.h_train))))


def agreement(spec: RowSpec, run: Run, ref: Run | None, *, is_reference: bool = False,
              skipped: str | None = None, ref_skipped: str | None = None) -> Agreement:
    """Does this row agree with the cvxopt reference of its formulation?"""
    if skipped:
        return Agreement("skipped", f"— {skipped}")
    if run.model is None:
        return Agreement("failed", f"{DISAGREE} failed: {run.error}")
    if spec.other_problem:
        return Agreement("other_problem", "n/a: different problem")
    if is_reference:
        return Agreement("reference", "= reference")
    if ref_skipped:
        return Agreement("no_reference", f"— no reference ({ref_skipped})")
    if ref is None or ref.model is None:
        why = ref.error if ref is not None else "not computed"
        return Agreement("no_reference", f"— no reference ({why})")
    if not ref.model.converged:
        return Agreement("no_reference", f"— reference did not converge ({ref.model.status})")
    m = run.model
    rel, dh = objective_rel_error(m, ref.model), decision_max_error(m, ref.model)
    if not m.converged:
        return Agreement("not_converged", f"{DISAGREE} not converged")
    if not rel <= OBJECTIVE_RTOL:
        return Agreement("differs", f"{DISAGREE} objective off by {fmt_num(rel, 2)} (rel.)")
    if not dh <= DECISION_ATOL:
        return Agreement("differs", f"{DISAGREE} h(x) off by {fmt_num(dh, 2)}")
    return Agreement("agrees", AGREE)


# ------------------------------------------------------------------ a traced SMO run


def smo_curve(X, y, kernel, C, spec, tol, cap, n_iter) -> Curve | None:
    """The curve of a traced SMO run. The trace keeps the first TRACE_CAP steps only, so the
    traced (readable, slower) run stops there too."""
    traced = fit_row(X, y, kernel, C, spec, tol=tol, max_iter=min(cap or TRACE_CAP, TRACE_CAP),
                     trace=True)
    if traced.model is None:
        return None
    curve = convergence_curve(traced.model)
    if curve is not None and traced.model.n_iter < n_iter:
        curve = replace(curve, truncated=True)
    return curve


# ------------------------------------------------------------------------- the comparison


@dataclass
class RowResult:
    spec: RowSpec
    run: Run
    agreement: Agreement
    curve: Curve | None = None
    skipped: str | None = None
    tol: float | None = None
    max_iter: int | None = None


@dataclass
class Comparison:
    rows: list[RowResult]
    references: dict[str, Run] = field(default_factory=dict)  # bias → reference run
    linear: bool = True
    n: int = 0
    elapsed_s: float = 0.0

    def row(self, key: str) -> RowResult:
        return next(r for r in self.rows if r.spec.key == key)


def compare(X, y, settings: Mapping[str, Any], biases: Sequence[str] = ("free", "augmented"),
            tol_mode: str = "tight", max_iter: int | None = None,
            curves: bool = True) -> Comparison:
    """Run every applicable solver on (X, y) with the Playground-style ``settings`` (kernel,
    degree, coef0, sigma, loss, C, hard_margin), plus the cvxopt reference per bias form.

    ``max_iter`` (None: per-solver caps, see ``default_max_iter``) applies to every row but
    never to the reference. Raises ValueError only for a bad ``tol_mode`` or bias form.
    """
    if tol_mode not in TOL_MODES:
        raise ValueError(f"tol_mode must be one of {TOL_MODES}, got {tol_mode!r}")
    for b in biases:
        if b not in se.BIASES:
            raise ValueError(f"unknown bias form {b!r}; expected one of {tuple(se.BIASES)}")
    t0 = time.perf_counter()
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    n = len(X)
    kernel = settings_to_kernel(settings)
    C = effective_C(settings)
    loss = settings["loss"]
    specs = rows_for(kernel, loss, biases, C)
    refs: dict[str, Run] = {}
    ref_skipped: dict[str, str | None] = {}
    for bias in dict.fromkeys(s.bias for s in specs):
        rspec = reference_spec(loss, bias)
        ref_skipped[bias] = skip_reason(rspec, n, kernel)
        if ref_skipped[bias] is None:
            refs[bias] = fit_row(X, y, kernel, C, rspec, tol=REFERENCE_TOL, max_iter=None)
    rows: list[RowResult] = []
    for spec in specs:
        skipped = skip_reason(spec, n, kernel)
        tol = tolerance(spec, tol_mode)
        cap = max_iter if max_iter is not None else default_max_iter(spec, n, kernel)
        is_ref = is_reference_run(spec, tol_mode, max_iter) and spec.bias in refs
        curve = None
        if skipped:
            run = Run(error=skipped)
        elif is_ref:
            run = refs[spec.bias]
        elif spec.solver == "smo" or not curves:
            # untraced SMO is the compiled solver (the real timing); the trace comes from the
            # readable one, which takes the same steps
            run = fit_row(X, y, kernel, C, spec, tol=tol, max_iter=cap)
            if curves and run.model is not None and spec.solver == "smo":
                curve = smo_curve(X, y, kernel, C, spec, tol, cap, run.model.n_iter)
        else:
            # sga / newton: recording the trace costs O(n) per sweep/iteration, negligible
            run = fit_row(X, y, kernel, C, spec, tol=tol, max_iter=cap, trace=True)
            if run.model is not None:
                curve = convergence_curve(run.model)
        agree = agreement(spec, run, refs.get(spec.bias), is_reference=is_ref,
                          skipped=skipped, ref_skipped=ref_skipped.get(spec.bias))
        rows.append(RowResult(spec, run, agree, curve, skipped, tol, cap))
    for r in rows:  # traces are big (SGA keeps α per sweep); the curves hold what we need
        if r.run.model is not None:
            r.run.model.trace = None
    return Comparison(rows, refs, isinstance(kernel, se.Linear), n,
                      time.perf_counter() - t0)
