"""The Kernels page's tables and sentences (pure: numbers in, rows and words out)."""

from __future__ import annotations

from svm_engine import feature_maps as fm
from svm_engine.solvers.smo import TAU
from ui.kernels.compute import STARTS, STARTS_BUDGET_S, STARTS_TOL, FeatureView, GramStudy
from ui.shared.numbers import MISSING, fmt_num, fmt_pct, fmt_setting, linear_combination

#: The conic's terms, in the order of `FeaturePlane.conic`'s coefficients (A, …, F).
CONIC_TERMS = ("x1²", "x1x2", "x2²", "x1", "x2", "")
#: The solver table's last column for a run that kept no trace of its steps.
NOT_TRACED = "not traced"


def preimage_equation(plane: fm.FeaturePlane, decimals: int = 3) -> str:
    """The plane's preimage as the book writes an equation: "0.512·x1² − 0.100·x1x2 + … = 0"
    (the signs and digits of ``numbers.hyperplane_equation``; terms that print as 0 left out)."""
    terms = zip(plane.conic(), CONIC_TERMS, strict=True)
    return linear_combination(terms, decimals, drop_zeros=True) + " = 0"


def plane_rows(fv: FeatureView) -> list[dict]:
    """w_φ coordinate by coordinate, beside the feature it weighs."""
    return [{"feature": name, "w_φ": fmt_num(float(w), 5)}
            for name, w in zip(fv.plane.names, fv.plane.w)] + [
        {"feature": "b", "w_φ": fmt_num(fv.plane.b, 5)}]


def mercer_verdict(chk) -> str:
    """What a gram.MercerCheck found, in words, with its numbers."""
    lam, tol = fmt_num(chk.min_eigenvalue), fmt_num(-chk.tolerance, 2)
    if not chk.symmetric:
        return (f"not symmetric (max |Kᵢⱼ − Kⱼᵢ| = {fmt_num(chk.asymmetry, 3)}): not a kernel "
                "matrix")
    if not chk.psd:
        return (f"not positive semi-definite: λ_min = {lam} < {tol} ({chk.n_negative} negative "
                "eigenvalue(s)), so this function is not a Mercer kernel: one set of points is "
                "enough to show it")
    return (f"positive semi-definite up to rounding: λ_min = {lam} ≥ {tol}. Consistent with a "
            "Mercer kernel on these points; proving it needs every finite set (a feature map "
            "does that)")


def identity_rows(chk: fm.IdentityCheck) -> list[dict]:
    """φ(x), φ(z) and their products, coordinate by coordinate; the sum is φ(x)ᵀφ(z)."""
    rows = [{"coordinate": name, "φ(x)": fmt_num(float(a), 6), "φ(z)": fmt_num(float(b), 6),
             "φ(x)·φ(z)": fmt_num(float(a * b), 6)}
            for name, a, b in zip(fm.feature_names(chk.c), chk.phi_x, chk.phi_z)]
    rows.append({"coordinate": "sum = φ(x)ᵀφ(z)", "φ(x)": "", "φ(z)": "",
                 "φ(x)·φ(z)": fmt_num(chk.by_map, 15)})
    return rows


def identity_sentence(chk: fm.IdentityCheck, i: int, j: int) -> str:
    verdict = "✓ equal to rounding" if chk.holds else "✗ they differ by more than rounding"
    return (f"K(x{i}, x{j}) = (x{i}ᵀx{j} + {fmt_setting(chk.c)})² = "
            f"**{fmt_num(chk.by_kernel, 15)}**; φ(x{i})ᵀφ(x{j}) = **{fmt_num(chk.by_map, 15)}**; "
            f"difference {fmt_num(chk.difference, 2)} (rounding allows "
            f"{fmt_num(chk.allowed, 2)}): {verdict}.")


def curvature_sentence(study: GramStudy) -> str:
    """What the eigenvalues mean for the dual (the free bias sees K only on Σβᵢ = 0)."""
    tol = study.check.tolerance
    cm = study.conditional_min
    if study.check.psd:
        return ("Every eigenvalue is ≥ 0 (to rounding): the dual Σα − ½αᵀQα is concave, so "
                "it has one optimal value and every solver reaches it. Not always one "
                "maximiser: when K is only semi-definite several α can share that value "
                "(D1's three optimal α in Worked example 1 give the same w, b and objective).")
    where = (f"On the plane Σαᵢyᵢ = 0, where the dual lives, the smallest curvature is "
             f"{fmt_num(cm)}")
    if cm >= -tol:
        return (where + " ≥ 0: the constant part of K cancels there, so this dual is still "
                "concave (the function is *conditionally* positive semi-definite).")
    witness = "" if study.witness is None else (
        f" The eigenvector v of λ_min gives vᵀKv = {fmt_num(study.witness)} < 0, which "
        "‖Σᵢvᵢφ(xᵢ)‖² could never be: no feature map φ exists.")
    return (where + " < 0: the dual is not concave, it can have several local maxima, and cvxopt's "
            "method (which needs a convex QP) does not apply." + witness)


def qp_answer(study: GramStudy) -> str:
    """cvxopt's status; on a dual that is not concave, also what its "optimal" is worth."""
    q = study.qp
    if q.alpha is None or study.concave:
        return q.message
    if q.converged:
        return q.message + " (of a non-concave dual: a KKT point, not certainly the maximum)"
    return q.message + " (of a non-concave dual)"


def eta_steps(r) -> str:
    """An SMO run's steps with η ≤ 0: counted in its trace; the random starts keep none."""
    if r.eta_nonpositive is None:
        return NOT_TRACED
    if r.steps_recorded < r.n_iter:
        return f"{r.eta_nonpositive} in the first {r.steps_recorded:,}"
    return str(r.eta_nonpositive)


def solver_rows(study: GramStudy) -> list[dict]:
    """One row per run, every number as the page prints it ("–": the run has no value)."""
    q = study.qp
    rows = [{"solver": "cvxopt QP", "start": MISSING, "answer": qp_answer(study),
             "dual Σα − ½αᵀQα": fmt_num(q.dual, 8), "KKT gap m − M": fmt_num(q.kkt_gap, 2),
             "steps": q.n_iter, "steps with η ≤ 0": MISSING}]
    for k, r in enumerate(study.starts):
        rows.append({"solver": "SMO", "start": "α = 0" if k == 0 else f"random {k}",
                     "answer": "KKT point" if r.converged else r.message,
                     "dual Σα − ½αᵀQα": fmt_num(r.dual, 8), "KKT gap m − M": fmt_num(r.kkt_gap, 2),
                     "steps": r.n_iter, "steps with η ≤ 0": eta_steps(r)})
    return rows


def solver_sentence(study: GramStudy) -> str:
    duals = study.distinct_duals
    runs = len(study.starts)
    conv = sum(r.converged for r in study.starts)
    first = study.starts[0]
    head = (f"SMO reached a KKT point (m − M ≤ {fmt_num(STARTS_TOL)}) from {conv} of {runs} "
            "starts"
            if conv else f"SMO did not reach a KKT point from any of its {runs} starts")
    if runs < STARTS:
        head += f" (the other {STARTS - runs} did not fit in the time budget)"
    if not duals:
        return head + "."
    if len(duals) == 1:
        tail = (f", all with the same dual objective {fmt_num(duals[0], 8)}: "
                + ("one optimal value, as a concave dual has (the α reaching it need not "
                   "be one)." if study.concave else
                   "on these points no second maximum showed up, but nothing guarantees it."))
    else:
        listed = ", ".join(fmt_num(d, 6) for d in duals)
        tail = (f", with {len(duals)} different dual objectives ({listed}):"
                " the problem is not convex, and SMO's answer depends on where it starts.")
    eta = ("" if not first.eta_nonpositive else
           f" From α = 0, {first.eta_nonpositive} of its {first.steps_recorded} recorded steps "
           "met η = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ ≤ 0 (the objective is not convex along that pair's line): "
           f"Platt's step divides by η, so SMO replaced η by τ = {fmt_num(TAU)}, as LIBSVM "
           "does, and jumped to an end of the segment [L, H].")
    untraced = ("" if runs < 2 else
                f" The random starts keep no trace of their steps (“{NOT_TRACED}” in the "
                "table): a trace costs about half a run, and every run must start within "
                f"{fmt_setting(STARTS_BUDGET_S)} s.")
    return head + tail + eta + untraced + _qp_sentence(study)


def _qp_sentence(study: GramStudy) -> str:
    q = study.qp
    if study.concave:
        return ""
    if q.alpha is None:
        return (" cvxopt stopped without an answer: each interior-point step factorises "
                "(Cholesky) a matrix built from P = Q, positive definite for sure only when the "
                "QP is convex; here it was not, and cvxopt reports it as a rank error.")
    return (f" cvxopt did return ({q.message}, dual {fmt_num(q.dual, 8)}): a method for convex "
            "problems run on one that is not; its answer is at best a KKT point, not certainly "
            "the maximum.")


def panel_title(family: str, panel) -> str:
    return f"σ = {fmt_setting(panel.value)}" if family == "gaussian" else f"q = {int(panel.value)}"


def panel_caption(panel) -> str:
    m = panel.model
    return (f"{m.n_support} support vectors of {len(m.y)}, training accuracy "
            f"{fmt_pct(m.training_accuracy)}, margin 1/‖w‖ = {fmt_num(m.margin, 3)} (in "
            f"feature space; the book's δ*, the planes h = ±1 are 2/‖w‖ = "
            f"{fmt_num(2 * m.margin, 3)} apart)")


def sigma_gamma_note(sigmas) -> str:
    """The Gaussian written with σ (the chapter) and with γ (the kernel lecture, scikit-learn):
    γ = 1/(2σ²), for every σ the page shows."""
    pairs = ", ".join(f"σ = {fmt_setting(s)} ↔ γ = {fmt_num(1 / (2 * s * s))}" for s in sigmas)
    return ("The Gaussian kernel here is exp(−‖x − z‖²/(2σ²)), as in the chapter; the kernel "
            "lecture (Odobez) and scikit-learn write exp(−γ‖x − z‖²) with γ = 1/(2σ²): "
            + pairs + ".")
