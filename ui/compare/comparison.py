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

Pure functions of plain values (no streamlit): the page caches ``compare``.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

import svm_engine as se
from svm_engine.certify import displayed_gap
from svm_engine.finalize import finalize
from svm_engine.problem import build_problem
from svm_engine.solvers.smo import TRACE_CAP
from ui.shared.fitting import PAGE_TIME_BUDGET, SMO_TOL, smo_max_iter
from ui.shared.labels import SOLVER_NAMES, SOLVER_STEPS
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting
from ui.shared.settings import effective_C, settings_to_kernel

TOL_MODES = ("tight", "default")
#: "tight": each solver close to the exact optimum (docs/engine_api.md: smo 1e-8, qp 1e-10).
TIGHT_TOL = {"smo": 1e-8, "qp": 1e-10, "sga": 1e-7, "newton": 1e-8}
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
MAX_CURVE_POINTS = 120

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
    if spec.solver == "smo":
        return smo_max_iter(n)
    if spec.solver == "sga":  # a sweep is O(n²)
        return int(np.clip(1e10 / max(n, 1) ** 2, 2_000, 100_000))
    return None  # newton: ~10 iterations; kernel form |V|³/3 each (Cholesky), 0.15 s at 1,000


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
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", se.ConvergenceWarning)
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
        return Run(error=f"the solver failed ({type(exc).__name__}: {exc})")
    conv = [w for w in caught if issubclass(w.category, se.ConvergenceWarning)]
    warn = str(conv[-1].message) if conv else (None if model.converged else str(model.status))
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


# ------------------------------------------------------------------- convergence curves


@dataclass(frozen=True)
class Curve:
    """Iterates of one run, every quantity from ``finalize`` as in the table."""

    iterations: tuple[int, ...]
    dual: tuple[float, ...]
    primal: tuple[float, ...]
    gap: tuple[float, ...]
    kkt: tuple[float, ...]
    unit: str  # "step", "sweep" or "iteration"
    truncated: bool = False


def snapshot_steps(T: int, k: int = MAX_CURVE_POINTS) -> np.ndarray:
    """≤ k iteration numbers in 1..T, log-spaced (the x axis is logarithmic), T included."""
    if T < 1:
        return np.zeros(0, dtype=int)
    return np.unique(np.round(np.geomspace(1, T, min(k, T))).astype(int))


def trace_alphas(model, problem, steps: np.ndarray) -> list[np.ndarray]:
    """α after each of ``steps`` (1-based), rebuilt from the model's trace:
    SMO replays (αᵢ, αⱼ) pairs; SGA records α per sweep; Newton's α = 2Cξ of w_t (slide 39)."""
    trace = model.trace
    n = len(model.y)
    want = set(int(s) for s in steps)
    out: list[np.ndarray] = []
    if model.solver == "smo":
        alpha = np.zeros(n) if model.alpha0 is None else np.array(model.alpha0, dtype=float)
        for t, rec in enumerate(trace, start=1):
            alpha[rec["i"]], alpha[rec["j"]] = rec["ai_new"], rec["aj_new"]
            if t in want:
                out.append(alpha.copy())
        return out
    if model.solver == "newton":
        y = np.asarray(model.y, dtype=float)
        for t in steps:
            w = np.asarray(trace[t - 1]["w"], dtype=float)
            if len(w) == model.X.shape[1] + 1 and isinstance(model.kernel, se.Linear):
                F = model.X @ w[:-1] + w[-1]          # x′ = (x, 1)
            else:
                F = problem.K @ w                     # h(xᵢ) = Kᵢᵀβ (slide 41)
            out.append(2.0 * model.C * np.maximum(0.0, 1.0 - y * F))
        return out
    return [np.asarray(trace[t - 1]["alpha"], dtype=float) for t in steps]


def convergence_curve(model, max_points: int = MAX_CURVE_POINTS) -> Curve | None:
    """Dual, primal, gap and KKT violation along a traced run (None without a usable trace)."""
    trace = model.trace
    if not trace or not (model.solver in ("smo", "newton") or "alpha" in trace[0]):
        return None
    problem = build_problem(model.X, model.y, model.kernel, model.C, model.loss, model.bias)
    steps = snapshot_steps(len(trace), max_points)
    D, P, G, V = [], [], [], []
    for a in trace_alphas(model, problem, steps):
        f = finalize(problem, a)
        d, p = float(f["dual_objective"]), float(f["primal_objective"])
        D.append(d)
        P.append(p)
        G.append(p - d if math.isfinite(p) else math.nan)
        V.append(float(f["kkt_violation"]))
    unit = SOLVER_STEPS.get(model.solver, "iteration")
    return Curve(tuple(int(s) for s in steps), tuple(D), tuple(P), tuple(G), tuple(V), unit,
                 bool(model.trace_truncated))


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


def bias_forms_note(comp: Comparison) -> str | None:
    """How far apart the two forms' exact answers are here (None unless both references)."""
    free, aug = comp.references.get("free"), comp.references.get("augmented")
    if free is None or aug is None or free.model is None or aug.model is None:
        return None
    dh = decision_max_error(free.model, aug.model)
    if dh <= DECISION_ATOL:
        return (f"Here they coincide: max |h_free(xᵢ) − h_augmented(xᵢ)| = {fmt_num(dh, 2)} on the "
                "data (the margin constraints pin both to the same hyperplane).")
    return f"Here their h(xᵢ) differ by up to {fmt_num(dh, 3)} on the data."


# ------------------------------------------------------------------------------ the table

#: The page's headline first (does each solver agree with cvxopt, did it converge, in how many
#: iterations and how long): at 1400 px the last columns sat behind a horizontal scroll
TABLE_COLUMNS = [
    "solver", "formulation", "agrees with cvxopt", "converged", "iterations", "tolerance",
    "time (ms)", "#SV", "b", "w", "primal", "dual", "duality gap", "max KKT violation",
]  # fmt: skip
#: The columns of real numbers, and how the page prints each (numbers.py: a true minus)
SHOWN = {"b": lambda v: fmt_fixed(v, 4), "primal": lambda v: fmt_num(v, 6),
         "dual": lambda v: fmt_num(v, 6), "duality gap": lambda v: fmt_num(v, 2),
         "max KKT violation": lambda v: fmt_num(v, 2), "time (ms)": lambda v: fmt_fixed(v, 2)}


def _w_text(model, digits: int = 4) -> str:
    w = model.w
    if w is None:
        return "— (kernel)"
    return "(" + ", ".join(fmt_fixed(v, digits) for v in w) + ")"


def table_rows(comp: Comparison) -> list[dict]:
    """One dict per row with ``TABLE_COLUMNS`` (numbers as floats, NaN where missing)."""
    out = []
    for r in comp.rows:
        m = r.run.model
        row: dict[str, Any] = {"solver": r.spec.label, "formulation": r.spec.formulation}
        row["tolerance"] = tolerance_text(r)
        if m is None:
            row.update({c: math.nan for c in SHOWN})
            row.update({"w": "", "#SV": None, "iterations": None, "converged": None})
        else:
            row.update({
                "w": _w_text(m),
                "b": float(m.b),
                "#SV": int(m.n_support),
                "primal": float(m.primal_objective),
                "dual": float(m.dual_objective),
                "duality gap": displayed_gap(m)[0],    # rounding shown as 0, never < 0
                "max KKT violation": float(m.kkt_violation),
                "iterations": int(m.n_iter),
                "time (ms)": 1e3 * float(m.time_s),
                "converged": bool(m.converged),
            })  # fmt: skip
        row["agrees with cvxopt"] = r.agreement.text
        out.append({c: row[c] for c in TABLE_COLUMNS})
    return out


def table_frame(comp: Comparison):
    """``table_rows`` as a DataFrame; counts stay integers where a row has none (skipped)."""
    df = pd.DataFrame(table_rows(comp), columns=TABLE_COLUMNS)
    return df.astype({"#SV": "Int64", "iterations": "Int64", "converged": "boolean"})


def shown_frame(comp: Comparison):
    """``table_frame`` as the page prints it: the real numbers as text by ui/shared/numbers.py
    (−3.3333 with a true minus, a zero gap as 0, 1.5·10⁻⁷ rather than 1.5e-07)."""
    df = table_frame(comp)
    for c, fmt in SHOWN.items():
        df[c] = [fmt(v) for v in df[c]]
    return df


def tolerance_note(tol_mode: str) -> str:
    """Why the iterations here may differ from the Playground's and Step-through's, said next
    to the table (D2, C = 1, SMO: 49 steps there, 79 here at the tight tolerance)."""
    if tol_mode == "default":
        return (f"Tolerances as on the Playground and Step-through (SMO stops when m(α) − M(α) "
                f"≤ {fmt_setting(SMO_TOL)}): the same points and settings take the same "
                "iterations there.")
    return (f"Iterations at the tight tolerances of the column “tolerance”: more than the "
            f"Playground and Step-through take, which stop SMO at {fmt_setting(SMO_TOL)} "
            "(choose “as the Playground and Step-through run them” under Tolerance in the "
            "sidebar to see their numbers).")


def tolerance_text(r: RowResult) -> str:
    """The stopping tolerance a row ran at, as the table shows it beside its iterations."""
    if r.spec.solver == "psvm":
        return "— (no iterations)"
    return fmt_setting(r.tol) if r.tol is not None else "the solver's own"
