"""The formula blocks the pages show for a setting (loss × bias × kernel × solver), written
from the engine's own definitions, never re-derived here:

- the box of α: ``svm_engine.problem.box_bound`` (C for hinge loss; none for quadratic loss);
- Σαᵢyᵢ = 0 or not: ``svm_engine.problem.has_equality`` (free bias only);
- the kernel a solver sees: ``svm_engine.problem.KernelSpec.of`` (the kernel's code and
  parameters, +1 for the folded bias x′ = (x, 1), δᵢⱼ/(2C) on the diagonal for quadratic loss).

Compare solvers prints ``problem_block``; the Step-through's LaTeX lines take ``kernel_tex``,
``bound_words`` and ``box_is_open`` from here (tests/test_formulas.py checks every setting
against the matrices ``build_problem`` makes). Pure: no streamlit.
"""

from __future__ import annotations

import math

from svm_engine import kernel_values as kv
from svm_engine.problem import KernelSpec, box_bound, has_equality
from ui.shared.numbers import fmt_num

#: the δ term's and the folded bias's words, as the blocks print them
DIAG_TERM = "δᵢⱼ/(2C)"
KTILDE = "K̃"


def spec(kernel, C: float, loss: str, bias: str) -> KernelSpec:
    """The kernel the engine's dual solvers see (``KernelSpec.of``: the same object)."""
    return KernelSpec.of(kernel, C, loss, bias)


def box_is_open(C: float, loss: str) -> bool:
    """True when α has no upper bound (quadratic loss, or the hard margin C = ∞)."""
    return math.isinf(box_bound(C, loss))


def bound_text(C: float, loss: str) -> str:
    """The bound of every αᵢ as the engine sets it: "0 ≤ αᵢ ≤ C" or "αᵢ ≥ 0"."""
    return "αᵢ ≥ 0" if box_is_open(C, loss) else "0 ≤ αᵢ ≤ C"


def bound_words(C: float, loss: str) -> str:
    """Why the bound is what it is, in words."""
    if loss == "quadratic":
        return (f"quadratic loss (k = 2): αᵢ ≥ 0 only, no upper bound (slides 20, 27); C is in "
                f"{KTILDE}")
    if math.isinf(C):
        return "hard margin (C = ∞): αᵢ ≥ 0 only, no upper bound"
    return f"hinge loss (k = 1): 0 ≤ αᵢ ≤ C, C = {fmt_num(C)} (slide 20)"


def base_kernel(kernel) -> str:
    """K(x, z) of the kernel's code, with its numbers."""
    s = spec(kernel, 1.0, "hinge", "free")
    if s.code == kv.LINEAR:
        return "K(x, z) = xᵀz"
    if s.code == kv.POLYNOMIAL:
        return f"K(x, z) = ({fmt_num(s.coef0)} + xᵀz)^{s.degree}"
    return (f"K(x, z) = exp(−γ‖x − z‖²), γ = 1/(2σ²) = {fmt_num(s.gamma)} "
            f"(σ = {fmt_num(1.0 / math.sqrt(2.0 * s.gamma))})")


def kernel_terms(kernel, C: float, loss: str, bias: str, diag: bool = True) -> list[str]:
    """The terms of the matrix a solver sees: K, then "1" (folded bias), then δᵢⱼ/(2C)
    (quadratic loss; ``diag=False`` for the primal Newton, which uses K itself)."""
    s = spec(kernel, C, loss, bias)
    out = ["K(xᵢ, xⱼ)"]
    if s.augmented:
        out.append("1")
    if diag and s.diag > 0:
        out.append(DIAG_TERM)
    return out


def kernel_lines(kernel, C: float, loss: str, bias: str, diag: bool = True) -> list[str]:
    """Where the dual's kernel comes from, one line each (the name K̃ defined when used)."""
    s = spec(kernel, C, loss, bias)
    terms = kernel_terms(kernel, C, loss, bias, diag)
    lines = []
    if len(terms) > 1:  # the name defined where it is used, each term's reason below it
        lines.append(f"{KTILDE}(xᵢ, xⱼ) = " + " + ".join(terms))
        if s.augmented:
            lines.append("  +1: b folded into w, x′ = (x, 1) (slide 30)")
        if diag and s.diag > 0:
            lines.append(f"  +{DIAG_TERM} = {fmt_num(s.diag)} on the diagonal: quadratic loss "
                         "(slides 20, 27)")
    lines.append(base_kernel(kernel))
    return lines


def kernel_symbol(kernel, C: float, loss: str, bias: str, diag: bool = True) -> str:
    return KTILDE if len(kernel_terms(kernel, C, loss, bias, diag)) > 1 else "K"


def dual_block(kernel, C: float, loss: str, bias: str) -> str:
    """The dual as the engine's dual solvers (SMO, SGA, the cvxopt dual) solve it."""
    Ks = kernel_symbol(kernel, C, loss, bias)
    cons = [bound_text(C, loss)]
    if has_equality(bias):
        cons.append("Σᵢ αᵢyᵢ = 0")
    head = ("Dual (slides 20, 27" + (", 30" if not has_equality(bias) else "") + "), "
            + ("free b" if has_equality(bias) else "b folded into w, no Σαᵢyᵢ = 0") + ":")
    return "\n".join([
        head,
        f"    max_α  Σᵢ αᵢ − ½ Σᵢ Σⱼ αᵢαⱼyᵢyⱼ{Ks}(xᵢ, xⱼ)",
        "    s.t.   " + ",  ".join(cons),
        *("    " + line for line in kernel_lines(kernel, C, loss, bias)),
        "    " + bound_words(C, loss),
    ])


def newton_block(kernel, C: float, bias: str = "augmented") -> str:
    """SVM-Primal (slide 39, linear kernel) or SVM-Primal-Kernel (slide 41): quadratic loss,
    no α in the problem (α = 2Cξ ≥ 0 afterwards)."""
    s = spec(kernel, C, "quadratic", bias)
    if s.code == kv.LINEAR:
        lines = ["Primal, quadratic loss, b folded into w (x′ = (x, 1); slides 36–39):",
                 "    min_w J(w) = ½‖w‖² + C Σᵢ max(0, 1 − yᵢwᵀx′ᵢ)²",
                 "    v = Σ yᵢx′ᵢ,  S = Σ x′ᵢx′ᵢᵀ  (over yᵢwᵀx′ᵢ < 1)",
                 "    ∇ = (I + 2CS)w − 2Cv,  H = I + 2CS,  w ← w − ηH⁻¹∇",
                 "    x′ᵢᵀx′ⱼ = " + " + ".join(kernel_terms(kernel, C, "quadratic", bias,
                                                           diag=False)),
                 "    " + base_kernel(kernel)]
    else:
        Ks = kernel_symbol(kernel, C, "quadratic", bias, diag=False)
        lines = ["Primal in kernel form, quadratic loss (SVM-Primal-Kernel, slide 41):",
                 f"    min_β J(β) = ½βᵀ{Ks}β + C Σᵢ max(0, 1 − yᵢ{Ks}ᵢᵀβ)²",
                 f"    v = Σ yᵢ{Ks}ᵢ,  S = Σ {Ks}ᵢ{Ks}ᵢᵀ  (over yᵢ{Ks}ᵢᵀβ < 1)",
                 f"    ∇ = ({Ks} + 2CS)β − 2Cv,  H = {Ks} + 2CS,  β ← β − ηH⁻¹∇"]
        lines += ["    " + line for line in kernel_lines(kernel, C, "quadratic", bias,
                                                          diag=False)]
    lines.append(f"    no bound on α in the primal; afterwards α = 2Cξ ≥ 0, C = {fmt_num(C)}")
    return "\n".join(lines)


def qp_primal_block(C: float, loss: str, bias: str) -> str:
    """The primal QP in (w, b, ξ) (linear kernel only), as ``solvers.qp`` builds it: no ξ
    for the hard margin, ξᵢ ≥ 0 rows for hinge loss only (implied at the optimum for k = 2)."""
    k = 2 if loss == "quadratic" else 1
    soft = math.isfinite(C)
    wb = "½‖w‖²" if has_equality(bias) else "½(‖w‖² + b²)"
    obj = wb + ((" + C Σᵢ ξᵢ²" if k == 2 else " + C Σᵢ ξᵢ") if soft else "")
    cons = "yᵢ(wᵀxᵢ + b) ≥ 1" + (" − ξᵢ" if soft else "") + (
        ",  ξᵢ ≥ 0" if soft and k == 1 else "")
    last = (f"C = {fmt_num(C)}" + ("; ξᵢ ≥ 0 holds by itself at the optimum for k = 2"
                                   if k == 2 else "")) if soft else "hard margin: C = ∞, no ξ"
    return "\n".join([
        f"Primal (slides 18, 20), k = {k}, "
        + ("free b" if has_equality(bias) else "b folded into w (slide 30)") + ":",
        "    min_(w, b" + (", ξ)" if soft else ")") + f"  {obj}",
        f"    s.t.  {cons}",
        "    K(x, z) = xᵀz" + ("" if has_equality(bias) else " + 1 (x′ = (x, 1))"),
        f"    {last}",
    ])


def problem_block(solver: str, kernel, C: float, loss: str, bias: str,
                  qp_form: str = "dual") -> str | None:
    """The problem a solver row solves for this setting, or None where the engine's solver
    answers another problem (PSVM: its own docstring says which)."""
    if solver in ("smo", "sga") or (solver == "qp" and qp_form == "dual"):
        return dual_block(kernel, C, loss, bias)
    if solver == "qp":
        return qp_primal_block(C, loss, bias)
    if solver == "newton":
        return newton_block(kernel, C, bias)
    return None


# ------------------------------------------------------------------ LaTeX (Step-through)

def kernel_tex(kernel, C: float, loss: str, bias: str) -> str:
    r"""The definition of \tilde K for a LaTeX line ("" when the solver sees K itself)."""
    s = spec(kernel, C, loss, bias)
    terms = ["K"] + (["1"] if s.augmented else []) + (
        [r"\frac{\delta_{ij}}{2C}"] if s.diag > 0 else [])
    return r"\tilde K = " + " + ".join(terms) if len(terms) > 1 else ""
