"""`fit`: the one public entry point that every solver shares.

validate → build the problem (Q, y, C) → run the solver on arrays → `finalize` → SVMModel.

`solver="smo"` runs the compiled solver (`solvers/smo_fast.py`: column cache, shrinking) on
a lazy problem — no n × n matrix — unless `trace=True`, which runs the readable `solvers/smo.py`
on the materialised Q (the two take the same steps). Newton with the linear kernel works on
X′ = (X, 1) and needs no matrix either.
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np

from . import validation as v
from . import warmstart as _warm
from .bounds import at_C_mask
from .certify import (
    MAX_CARRIED,
    TOL,
    Columns,
    certify_proximal,
    engine_status,
    expansion,
)
from .checked import carried_checked, checked, polished_checked, refit_checked
from .diagnostics import FitDiagnostics
from .finalize import finalize_proximal, support_threshold, without_residues
from .jit import JIT, njit
from .kernels import Linear
from .model import ConvergenceWarning, NotSeparableError, SVMModel
from .problem import build_problem, kernel_matrix
from .solvers import newton as _newton
from .solvers import psvm as _psvm
from .solvers import qp as _qp
from .solvers import registry as _registry
from .solvers import sga as _sga
from .solvers import smo as _smo
from .solvers import smo_fast as _smo_fast

DEFAULT_TOL = {s.key: s.default_tol for s in _registry.SOLVERS}
#: SMO goes on to this m(α) − M(α) when its answer fails the certificate and cannot be
#: polished (a tenth of the certificate's TOL: each KKT condition then holds within it)
REFINE_TOL = 1e-7
NOT_SEPARABLE = "not linearly separable in this feature space"
#: seconds SMO may run in one `fit` unless told otherwise (issue 33 item 11: 9 points at scale
#: 1e6 took 10 million iterations, 6–11 s; with trace=True ~5 minutes). The pages' own budgets
#: (`ui.serving.costs`) stop their fits sooner; this bounds a library user's `se.fit`/`SVC`.
DEFAULT_TIME_BUDGET = 5.0


def fit(X, y, kernel=None, C=1.0, loss="hinge", bias="free", solver="smo", tol=None,
        max_iter=None, trace=False, *, wss="second_order", alpha0=None, warm_start=None,
        qp_form="dual", polish=True, time_budget=DEFAULT_TIME_BUDGET):
    """Train a binary SVM (Zaki & Meira ch. 21). See docs/engine_api.md for every attribute.

    tol is the solver's own stopping tolerance (None: its default — smo 1e-3 as LIBSVM,
    sga 1e-4 as the book, newton 1e-8, qp cvxopt's defaults).
    alpha0 starts smo or sga from that α; warm_start=model starts smo from a previous fit on
    nearly the same points (after an edit; `warmstart.py`), its α and its gradient.
    polish: when the solver stopped by its own rule but its α fails the certificate, solve
    the KKT equations on its support vectors exactly (`polish.py`) and keep that α if it
    passes; False keeps the solver's own α (e.g. the book's SVM-Dual stopped at its ε, or a
    step-through that ends at the trace's last α). A trace always records the solver's own
    steps: it ends at model.diagnostics.solver_alpha, which is model.alpha unless polished.
    time_budget: seconds SMO or SGA may run (None: no limit); when it stops there, model.converged
    is False and model.status says so and what to try.
    Every answer is then checked (`certify.py`): model.converged is True only when the
    solver stopped by its own rule and the certificate passes; model.status says which, and
    model.diagnostics holds the same typed (the stop reason, the certificate's failure).
    Raises NotSeparableError (a ValueError) for C = ∞ on data the kernel cannot separate.
    """
    kernel = Linear() if kernel is None else v.check_kernel(kernel)
    X, y_pm, classes, norm2 = v.check_data(X, y)
    C = v.check_C(C)
    v.check_combination(kernel, loss, bias, solver, C)   # loss, bias and solver, in this order
    v.check_kernel_range(kernel, X, C, loss, norm2)
    v.check_choice("wss", wss, v.WSS_RULES)
    v.check_choice("qp_form", qp_form, v.QP_FORMS)
    if qp_form == "primal" and not isinstance(kernel, Linear):
        raise ValueError(f"qp_form='primal' needs the linear kernel, got kernel {kernel.name!r}")
    tol = v.check_tol(tol)
    tol = DEFAULT_TOL[solver] if tol is None else tol
    max_iter = v.check_max_iter(max_iter)
    time_budget = v.check_time_budget(time_budget)
    if alpha0 is not None:
        alpha0 = np.asarray(alpha0, dtype=float)
        if alpha0.shape != (len(X),) or not np.isfinite(alpha0).all():
            raise ValueError(f"alpha0 must be {len(X)} finite numbers, got shape {alpha0.shape}")
    v.check_warm_start(warm_start, alpha0, solver)

    lazy = ((solver == "smo" and not trace and JIT)
            or (solver in ("newton", "psvm") and isinstance(kernel, Linear)))
    problem = build_problem(X, y_pm, kernel, C, loss, bias, materialize=not lazy)
    if math.isinf(C) and not _separable(problem, kernel):
        raise NotSeparableError(f"The data are {NOT_SEPARABLE} ({kernel.label}): the hard "
                                "margin (C = ∞) has no solution. Use a finite C (soft margin) "
                                "or another kernel.")

    t0 = time.perf_counter()
    clock = {"deadline": math.inf if time_budget is None else t0 + time_budget,
             "time_budget": time_budget}
    run, matched, carried = None, None, None
    if warm_start is not None:
        if warm_start.classes.tolist() != classes.tolist():
            raise ValueError(f"warm_start was fit on classes {warm_start.classes.tolist()}, "
                             f"y has {classes.tolist()}; expected the same two labels")
        why = _warm.compatible(problem, warm_start)
        if why is not None:
            raise ValueError(f"warm_start does not fit this problem: {why}")
        if trace or not JIT:    # the readable solver: from α₀, G computed from it
            state = _warm.warm_state(problem, warm_start)
            alpha0 = None if state is None else state.alpha0
        else:
            how = dict(tol=tol, max_iter=max_iter, wss=wss,
                       refine_tol=REFINE_TOL if polish else None, **clock)
            if _carries(warm_start):    # refit and certificate in one call (checked.py)
                columns = Columns(problem)
                done = refit_checked(problem, warm_start, columns, polish=polish, **how)
                if done is not None:
                    done, *carried = done
                    carried.append(columns)   # [first, the polish, columns]
            else:
                done = _warm.refit(problem, warm_start, **how)
            if done is not None:
                run, sol, matched = done.run, {"alpha": done.alpha}, (done.p, done.s)
    if run is None:
        run = _run(problem, solver, kernel, tol, max_iter, trace, wss, alpha0, qp_form,
                   clock)
        if solver == "psvm":  # another problem (α of either sign, b from the solver)
            sol = finalize_proximal(problem, run.alpha, run.b)
        else:
            sol = {"alpha": without_residues(run.alpha)}
    diag = {"w_primal": run.w_primal, "b_primal": run.b_primal}
    if run.refined_iter:   # a warm refit's steps past tol (`warmstart.refit`)
        diag["refined_iter"] = run.refined_iter
    ran = run.converged
    if solver == "psvm":
        cert = certify_proximal(problem, sol)
    else:
        diag["solver_alpha"] = sol["alpha"]
        start = (warm_start,) if carried is not None else _carried(problem, warm_start, matched)
        sol, cert, diag["polished"], ex, age = _checked(problem, sol["alpha"], polish and ran,
                                                        start, carried)
        if polish and solver == "smo" and not trace and ran and not cert.passed:
            # too many free SVs to polish, or a wrong active set: SMO itself goes on, from
            # its α, to a tolerance below the certificate's
            more = _smo_fast.solve(problem, tol=REFINE_TOL, wss=wss, alpha0=sol["alpha"],
                                   max_iter=max(1, (max_iter or _smo.default_max_iter(
                                       problem.n)) - run.n_iter), **clock)
            diag["refined_iter"] = more.n_iter
            run = run.but(n_iter=run.n_iter + more.n_iter, stop=more.stop, status=more.status,
                          **({} if more.converged else {"max_iter": more.max_iter}))
            diag["solver_alpha"] = without_residues(more.alpha)
            ran = run.converged
            sol, cert, diag["polished"], ex, age = _checked(problem, diag["solver_alpha"],
                                                            ran, None)
        diag["expansion"], diag["expansion_age"] = ex, age
    elapsed = time.perf_counter() - t0
    if math.isfinite(C) and not _finite(sol, solver):
        raise ValueError(f"C = {C!r} is too large for solver {solver!r} on this data: its numbers "
                         "overflow (α, b or the objectives are not finite). Use a smaller C, or "
                         "math.inf (the hard margin) with smo or qp.")
    converged = bool(ran and cert.passed)
    status = engine_status(cert, run)
    if solver != "psvm":   # the objectives as the certificate recomputed them (ξ that is 0
        sol["primal_objective"], sol["dual_objective"] = cert.primal, cert.dual  # to rounding)
    if converged:          # ξ within the certificate's tolerance is 0 (slide 36: on the margin)
        _zero_within(sol["xi"], TOL)
    diagnostics = FitDiagnostics(certificate=cert, stop=run.stop, solver_status=run.status,
                                 max_iter=run.max_iter, **diag)
    model = SVMModel(
        X=X, y=y_pm, classes=classes, kernel=kernel, C=C, loss=loss, bias=bias, solver=solver,
        tol=tol, n_iter=run.n_iter, converged=converged, status=status,
        time_s=elapsed, wss=wss if solver == "smo" else None, trace=run.trace,
        trace_truncated=run.trace_truncated, alpha0=run.alpha0, diagnostics=diagnostics,
        columns=run.columns, **sol)
    if not converged:      # the warning carries the model: a page words it from its diagnostics
        warnings.warn(ConvergenceWarning(f"{solver}: {status}", model=model), stacklevel=2)
    return model


@njit(cache=True, nogil=True)
def _zero_within(xi, tol):
    """xi[xi <= tol] = 0 in place (finalize's own array): numpy's mask and masked store
    were ~8 µs of a warm refit after one click, compiled ~1 (issue 31)."""
    for i in range(len(xi)):
        if xi[i] <= tol:
            xi[i] = 0.0


def _checked(problem, alpha: np.ndarray, polish: bool, start=None, carried=None):
    """(finalize's fields, the certificate, polished?, the expansion, its age) for the
    solver's α (no residues): the kernel expansion recomputed from X (`certify.expansion`,
    never the solver's gradient; after an edit carried from the previous model's,
    `checked.carried_checked`: start = (model, p, s)) and the certificate of α. polish:
    when α fails it, the exact solve on its support vectors (`polish.py`) is tried and kept if
    its α passes (its sums: the expansion plus the columns of what it moved). carried: (first,
    the polish, columns) when the warm refit made that carried check, and the polish if due,
    already (`checked.refit_checked`; start is then (model,))."""
    if carried is not None:
        first, folded, columns = carried
        age = start[0].diagnostics.expansion_age + 1
        if folded is not None:   # α's KKT violation is above TOL: its certificate fails
            done = polished_checked(problem, None, None, columns, folded)
            if done[1].passed:
                return done[0], done[1], True, done[2], age
            sol, cert, ex = first()   # (made only now: see `refit_checked`)
            return sol, cert, False, ex, age
        sol, cert, ex = first()
    elif start is not None:
        columns = Columns(problem)
        model, p, s = start
        sol, cert, ex = carried_checked(problem, alpha, model, p, s,
                                        columns if polish else None)
        age = model.diagnostics.expansion_age + 1
    else:
        columns, keep = Columns(problem), None
        if polish:
            keep = (alpha > 0) & ~at_C_mask(alpha, problem.C_box)
        ex, age = expansion(problem, alpha, columns, keep=keep), 0
        sol, cert = checked(problem, alpha, ex)
    if polish and not cert.passed:
        done = polished_checked(problem, sol, ex, columns)
        if done is not None and done[1].passed:
            return done[0], done[1], True, done[2], age
    return sol, cert, False, ex, age


def _carries(model) -> bool:
    """The model's expansion may be carried through one more edit (it has one, and it was not
    carried MAX_CARRIED times): `_carried`, before the rows are matched."""
    return (model.diagnostics is not None and model.diagnostics.expansion is not None
            and model.diagnostics.expansion_age + 1 < MAX_CARRIED)


def _carried(problem, model, matched=None):
    """(model, p, s) when the expansion can be carried from the model fit before an edit
    (the rows match as the warm start's do, and it was not carried MAX_CARRIED times), else
    None: then it is computed from scratch. matched: (p, s) when the warm start matched the
    rows already (`warmstart.Refit`)."""
    if model is None or not _carries(model):
        return None           # (same kernel, C, loss and bias: `fit` checked warmstart.compatible)
    match = _warm.match_rows(model.X, model.y, problem.X, problem.y) if matched is None \
        else matched
    return None if match is None else (model, *match)


def _finite(sol: dict, solver: str) -> bool:
    """b and the objectives are finite, and so is α: a non-finite αᵢ makes the SVM dual
    Σα − ½αᵀQα non-finite (psvm's objectives are others: its α is checked)."""
    return (math.isfinite(sol["b"]) and math.isfinite(sol["primal_objective"])
            and math.isfinite(sol["dual_objective"])
            and (solver != "psvm" or bool(np.isfinite(sol["alpha"]).all())))


def _separable(problem, kernel) -> bool:
    """The hard-margin check. First a certificate: with the free bias, a hard-margin SMO run
    that meets m(α) − M(α) ≤ tol < 1 has a finite α whose h gives every yᵢh(xᵢ) ≥ 1 − tol, so
    h/(1 − tol) separates the data. Only when a short run does not converge is the linear
    program of `separability.py` solved (scipy.optimize, ~0.5 s to import: a first fit on
    the separable book data must not pay for it)."""
    if problem.equality and JIT:
        run = _smo_fast.solve(problem, tol=0.5, max_iter=100 * problem.n + 1000)
        if run.converged:
            return True
    from .separability import is_separable

    K = problem.K
    if K is None:
        K = kernel_matrix(kernel, problem.X) + (1.0 if problem.bias == "augmented" else 0.0)
    return is_separable(K, problem.y, problem.equality)


def _run(problem, solver, kernel, tol, max_iter, trace, wss, alpha0, qp_form, clock):
    y, C_box = problem.y, problem.C_box
    if solver == "smo":
        # the start actually used (feasible) is what the model keeps: replays begin there
        a0 = alpha0 if alpha0 is None else _smo.feasible_start(alpha0, y, C_box)
        if not problem.materialized:
            run = _smo_fast.solve(problem, tol=tol, max_iter=max_iter, wss=wss, alpha0=a0,
                                  **clock)
        else:
            run = _smo.smo(problem.Q, y, C_box, tol=tol, max_iter=max_iter, wss=wss,
                           alpha0=a0, trace=trace, **clock)
        return run.but(alpha0=a0)
    if solver == "qp":
        if qp_form == "primal":
            return _qp.qp_primal(problem.X, y, problem.C, loss=problem.loss, bias=problem.bias,
                                 tol=tol, max_iter=max_iter)
        return _qp.qp_dual(problem.Q, y, C_box, equality=problem.equality, tol=tol,
                           max_iter=max_iter)
    if solver == "sga":
        a0 = None if alpha0 is None else np.clip(alpha0, 0.0, C_box)
        return _sga.sga(problem.K_eff, y, C_box, tol=tol, max_iter=max_iter, alpha0=a0,
                        trace=trace, **clock).but(alpha0=a0)
    if solver == "newton":
        if isinstance(kernel, Linear):
            # SVM-Primal (slide 39) on x′ = (x, 1), X′ never formed
            return _newton.newton_linear(problem.X, y, problem.C, tol=tol, max_iter=max_iter,
                                         trace=trace)
        return _newton.newton(problem.K, y, problem.C, kernel_form=True, tol=tol,
                              max_iter=max_iter, trace=trace)
    if solver == "psvm":
        if isinstance(kernel, Linear):
            return _psvm.psvm_linear(problem.X, y, problem.C)
        return _psvm.psvm_kernel(problem.K - 1.0, y, problem.C)  # K without the augmented +1
    raise AssertionError(solver)  # unreachable: validated above


def replay_smo(model: SVMModel) -> np.ndarray:
    """α rebuilt from an SMO model's trace (the UI's step-through replays the same way), then
    reported as `finalize` reports it (rounding residues ≤ support_threshold set to 0), so
    that it equals the solver's α, model.diagnostics.solver_alpha, exactly (model.alpha too,
    unless the polish replaced it: model.diagnostics.polished)."""
    if model.trace is None:
        raise ValueError("this model has no trace; fit with trace=True")
    alpha = _smo.replay(model.trace, len(model.y), model.alpha0)
    alpha[alpha <= support_threshold(alpha)] = 0.0
    return alpha
