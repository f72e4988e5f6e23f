"""A fit's verdict in a student's words: what failed and what to try, from the engine's typed
diagnostics (``model.diagnostics``: the solver's stop reason and numbers, the certificate's
``Failure``). The engine reports numbers and kinds; the sentences are the pages' own, here,
their numbers printed by ui/shared/numbers.py (the engine's own sentences — the solver's
status, the certificate's summary — are quoted as the engine writes them)."""

from __future__ import annotations

import math

from svm_engine.certify import GAP_RTOL, TOL, FailureKind, summary
from svm_engine.model import ConvergenceWarning
from svm_engine.solvers import registry
from svm_engine.solvers.result import StopReason
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting

#: The solvers as the status sentence names them.
STATUS_NAMES = {s.key: s.message_name for s in registry.SOLVERS}


def status_text(model) -> str:
    """The certificate's summary, or "not converged: what failed — try …" (a model without
    diagnostics, e.g. a loaded one: its own status)."""
    d = getattr(model, "diagnostics", None)
    if d is None:
        return str(model.status)
    cert = d.certificate
    if cert.passed and d.solver_converged:
        return summary(cert)
    problem = failure_text(cert.failure)
    if not d.solver_converged:
        name = STATUS_NAMES.get(model.solver, model.solver)
        if d.stop is StopReason.MAX_ITER and d.max_iter is not None:
            what = (f"{name} stopped at its limit of max_iter = {d.max_iter} iterations "
                    "before meeting its tolerance")
        else:
            what = f"{name} stopped before meeting its tolerance ({d.solver_status})"
        if problem:
            what += f"; {problem}"
    else:
        what = problem
    tries = advice(model.solver, model.kernel, model.C, len(model.y), d.solver_converged,
                   model.bias)
    return f"not converged: {what} — try {tries}"


def warning_text(model) -> str:
    """A non-converged fit as its ConvergenceWarning read: "<solver>: <status_text>"."""
    return f"{model.solver}: {status_text(model)}"


def failure_text(f) -> str:
    """What failed, in plain words ("" for None: nothing failed)."""
    if f is None:
        return ""
    k = f.kind
    if k is FailureKind.NEGATIVE:
        return "some αᵢ are negative or not finite"
    if k is FailureKind.ABOVE_C:
        return f"some αᵢ are above C = {fmt_setting(f.C)}"
    if k is FailureKind.EQUALITY:
        return f"Σαᵢyᵢ = {fmt_num(f.sum_ay, 2)} is not 0"
    if k is FailureKind.BIAS:
        return f"b = {fmt_num(f.b, 6)} is not Σαᵢyᵢ = {fmt_num(f.sum_ay, 6)}"
    if k is FailureKind.ROUNDING:
        return (f"h(x) is a sum of terms up to {fmt_num(f.size, 1)} (kernel values "
                f"{fmt_num(f.kernel_max, 1)}) and cannot be checked to {fmt_setting(TOL)} in "
                "double precision")
    if k is FailureKind.KKT:
        return kkt_text(f)
    if k is FailureKind.GAP:
        return gap_text(f.primal, f.gap_rel)
    if k is FailureKind.OBJECTIVE_ROUNDING:
        return (f"the objectives (~{fmt_num(f.size, 1)}) are smaller than the rounding of "
                f"their terms (~{fmt_num(f.rounding, 1)}): primal and dual cannot be compared "
                f"to {fmt_setting(GAP_RTOL)} in double precision")
    if k is FailureKind.GRADIENT:
        return (f"the gradient of PSVM's objective is {fmt_num(f.value, 1)} of its terms (its "
                "linear system was not solved accurately)")
    raise AssertionError(k)  # every kind is worded above


def kkt_text(f) -> str:
    """The point whose KKT condition fails, and which condition."""
    i, a = f.worst, f.alpha
    yh = f"y·h(x) = {near_one(1.0 + f.r)}"
    if f.quadratic:
        return f"x{i + 1} has α = {fmt_num(a, 3)} but {yh}: quadratic loss needs α = 2Cξ"
    if f.at_zero:
        return f"x{i + 1} has α = 0 but {yh} < 1: it should be a support vector"
    if f.at_C:
        return f"x{i + 1} has α = C but {yh} > 1: it should not be a bound support vector"
    return f"x{i + 1} is a free support vector (0 < α < C) but {yh}, not 1"


def near_one(v: float) -> str:
    """v with enough digits to tell it from 1 (0.9999997, not 1.000)."""
    if not math.isfinite(v):
        return fmt_num(v)
    off = abs(v - 1.0)
    digits = 4 if off == 0 or off >= 1e-3 else min(12, 2 - math.floor(math.log10(off)))
    if abs(v) >= 1e4:
        return fmt_num(v, digits)
    return fmt_fixed(v, digits).rstrip("0").rstrip(".")


def gap_text(primal: float, gap_rel: float) -> str:
    """Primal and dual disagree: by how much, and which way."""
    if not math.isfinite(primal):
        return "primal objective ∞: some point violates the hard margin"
    pct = 100.0 * abs(gap_rel)
    how = f"{fmt_num(pct, 2)} %" if pct >= 0.01 else f"{fmt_num(abs(gap_rel), 1)} (relative)"
    if gap_rel < 0:
        return f"the dual exceeds the primal by {how}: α is not feasible"
    return f"primal and dual differ by {how}"


def advice(solver: str, kernel, C: float, n: int, stopped: bool, bias: str) -> str:
    """What a student can change, in the order worth trying. stopped: the solver met its own
    rule (then a tighter rule may do), else it ran out of iterations. Another solver is
    named only if it solves the same problem (SMO: the free bias only)."""
    tries = []
    if solver == "smo" and stopped:
        tries.append("a smaller tolerance")
    other = "SMO" if bias == "free" else "QP"
    if solver not in ("smo", "psvm") and other.lower() != solver:
        tries.append(other)
    if math.isfinite(C) and C > 1:
        tries.append("a smaller C")
    if getattr(kernel, "name", "") == "polynomial" and getattr(kernel, "degree", 1) > 3:
        tries.append("a lower degree")
    if n > 200:
        tries.append("fewer points")
    if not tries:
        tries.append("more iterations (a larger max_iter)" if not stopped else
                     "rescaled coordinates")
    if len(tries) == 1:
        return tries[0]
    return ", ".join(tries[:-1]) + " or " + tries[-1]


def displayed_gap(model) -> tuple[float, str]:
    """(the duality gap to show, its note). A gap within the certificate's allowance —
    GAP_RTOL of the objectives plus rounding — is shown as 0 (a tiny negative gap is rounding,
    never a result); the note names the tolerance."""
    d = getattr(model, "diagnostics", None)
    gap = float(model.duality_gap)
    if d is None or not math.isfinite(gap):
        return gap, ""
    note = (f"|primal − dual| ≤ {fmt_setting(GAP_RTOL)} × max(|primal|, |dual|) (+ rounding) "
            "is shown as 0")
    if abs(gap) <= d.certificate.gap_allowed:
        return 0.0, note
    return gap, note


def warning_note(caught) -> str | None:
    """The first ConvergenceWarning among caught warnings, worded as `warning_text` when it
    carries its model (an engine fit's do), else its own message; None without one."""
    for w in caught:
        if issubclass(w.category, ConvergenceWarning):
            model = getattr(w.message, "model", None)
            return str(w.message) if model is None else warning_text(model)
    return None
