"""The Kernels page's tables and sentences (pure: numbers in, rows and words out)."""

from __future__ import annotations

from svm_engine import feature_maps as fm
from ui.kernels.compute import STARTS, STARTS_TOL, FeatureView, GramStudy
from ui.shared.tables import fmt_num


def plane_rows(fv: FeatureView) -> list[dict]:
    """w_φ coordinate by coordinate, beside the feature it weighs."""
    return [{"feature": name, "w_φ": fmt_num(float(w), 5)}
            for name, w in zip(fv.plane.names, fv.plane.w)] + [
        {"feature": "b", "w_φ": fmt_num(fv.plane.b, 5)}]


def identity_rows(chk: fm.IdentityCheck) -> list[dict]:
    """φ(x), φ(z) and their products, coordinate by coordinate; the sum is φ(x)ᵀφ(z)."""
    rows = [{"coordinate": name, "φ(x)": fmt_num(float(a), 6), "φ(z)": fmt_num(float(b), 6),
             "φ(x)·φ(z)": fmt_num(float(a * b), 6)}
            for name, a, b in zip(fm.feature_names(chk.c), chk.phi_x, chk.phi_z)]
    rows.append({"coordinate": "sum = φ(x)ᵀφ(z)", "φ(x)": "", "φ(z)": "",
                 "φ(x)·φ(z)": f"{chk.by_map:.15g}"})
    return rows


def identity_sentence(chk: fm.IdentityCheck, i: int, j: int) -> str:
    verdict = "✓ equal to rounding" if chk.holds else "✗ they differ by more than rounding"
    return (f"K(x{i}, x{j}) = (x{i}ᵀx{j} + {chk.c:g})² = **{chk.by_kernel:.15g}**; "
            f"φ(x{i})ᵀφ(x{j}) = **{chk.by_map:.15g}**; difference {chk.difference:.2g} "
            f"(rounding allows {chk.allowed:.2g}): {verdict}.")


def curvature_sentence(study: GramStudy) -> str:
    """What the eigenvalues mean for the dual (the free bias sees K only on Σβᵢ = 0)."""
    tol = study.check.tolerance
    cm = study.conditional_min
    if study.check.psd:
        return ("Every eigenvalue is ≥ 0 (to rounding): the dual Σα − ½αᵀQα is concave, "
                "one maximum, and every solver finds it.")
    where = (f"On the plane Σαᵢyᵢ = 0, where the dual lives, the smallest curvature is "
             f"{cm:.4g}")
    if cm >= -tol:
        return (where + " ≥ 0: the constant part of K cancels there, so this dual is still "
                "concave (the function is *conditionally* positive semi-definite).")
    witness = "" if study.witness is None else (
        f" The eigenvector v of λ_min gives vᵀKv = {study.witness:.4g} < 0, which "
        "‖Σᵢvᵢφ(xᵢ)‖² could never be: no feature map φ exists.")
    return (where + " < 0: the dual is not concave, it can have several local maxima, and cvxopt's "
            "method (which needs a convex QP) does not apply." + witness)


def solver_rows(study: GramStudy) -> list[dict]:
    """One row per run (numbers as numbers: the page formats the columns; None = no value)."""
    q = study.qp
    rows = [{"solver": "cvxopt QP", "start": None, "answer": q.message, "dual": q.dual,
             "KKT gap m − M": q.kkt_gap, "steps": q.n_iter, "steps with η ≤ 0": None}]
    for k, r in enumerate(study.starts):
        rows.append({"solver": "SMO", "start": "α = 0" if k == 0 else f"random {k}",
                     "answer": "KKT point" if r.converged else r.message, "dual": r.dual,
                     "KKT gap m − M": r.kkt_gap, "steps": r.n_iter,
                     "steps with η ≤ 0": r.eta_nonpositive})
    return rows


def solver_sentence(study: GramStudy) -> str:
    duals = study.distinct_duals
    runs = len(study.starts)
    conv = sum(r.converged for r in study.starts)
    first = study.starts[0]
    head = (f"SMO reached a KKT point (m − M ≤ {STARTS_TOL:g}) from {conv} of {runs} starts"
            if conv else f"SMO did not reach a KKT point from any of its {runs} starts")
    if runs < STARTS:
        head += f" (the other {STARTS - runs} did not fit in the time budget)"
    if not duals:
        return head + "."
    if len(duals) == 1:
        tail = (f", all with the same dual objective {duals[0]:.8g}: "
                + ("one optimum, as a concave dual has." if study.check.psd else
                   "on these points no second maximum showed up, but nothing guarantees it."))
    else:
        listed = ", ".join(f"{d:.6g}" for d in duals)
        tail = (f", with {len(duals)} different dual objectives ({listed}):"
                " the problem is not convex, and SMO's answer depends on where it starts.")
    eta = ("" if not first.eta_nonpositive else
           f" From α = 0, {first.eta_nonpositive} of its {first.steps_recorded} recorded steps "
           "met η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ ≤ 0 (the objective is not convex along that pair's line): "
           "Platt's step divides by η, so SMO replaced η by τ = 1e-12, as LIBSVM does, and "
           "jumped to an end of the segment [L, H].")
    return head + tail + eta + _qp_sentence(study)


def _qp_sentence(study: GramStudy) -> str:
    q = study.qp
    if study.check.psd:
        return ""
    if q.alpha is None:
        return (" cvxopt stopped without an answer: each interior-point step factorises "
                "(Cholesky) a matrix built from P = Q, positive definite for sure only when the "
                "QP is convex; here it was not, and cvxopt reports it as a rank error.")
    return (f" cvxopt did return ({q.message}, dual {q.dual:.8g}): a method for convex problems "
            "run on one that is not; its answer is at best a KKT point, not certainly the "
            "maximum.")


def panel_title(family: str, panel) -> str:
    return f"σ = {panel.value:g}" if family == "gaussian" else f"q = {int(panel.value)}"


def panel_caption(panel) -> str:
    m = panel.model
    return (f"{m.n_support} support vectors of {len(m.y)}, training accuracy "
            f"{m.training_accuracy:.3f}, margin 1/‖w‖ = {m.margin:.3g} (in feature space)")
