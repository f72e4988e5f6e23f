"""Words and formulas for one step of the Step-through page (pure; no streamlit).

Markdown strings, and LaTeX strings for ``st.latex``, with the step's numbers filled in.
Symbols as on the slides and in seed 004 (α, C, η, L, H, Eₜ = h(xₜ) − yₜ); point indices
1-based (x₁ … xₙ).
"""

from __future__ import annotations

import math

from ui.shared.tables import fmt_num

MINUS = "\u2212"


def num(v, digits: int = 4) -> str:
    """A number for markdown: the numbers panel's own format (``tables.fmt_num``)."""
    return fmt_num(v, digits)


def tex(v, digits: int = 4) -> str:
    """A number for LaTeX."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return r"\text{–}"
    v = float(v)
    if math.isinf(v):
        return r"\infty" if v > 0 else r"-\infty"
    s = f"{v:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\cdot 10^{{{int(exp)}}}"
    return s


def ptex(v, digits: int = 4) -> str:
    """A number for LaTeX, in parentheses when negative (for '+ (−0.5)')."""
    s = tex(v, digits)
    return f"({s})" if s.startswith("-") else s


#: separates the lines of ``latex_block`` (a line break with a little space)
LATEX_LINE_SEP = r" \\[6pt] "


def latex_block(lines: list[str]) -> str:
    """Several LaTeX lines as one centred block (one element on the page, not one each)."""
    return r"\begin{gathered}" + LATEX_LINE_SEP.join(lines) + r"\end{gathered}"


def sign(v: float) -> str:
    return "+1" if v > 0 else "-1"


def pt(i: int) -> str:
    """x₄-style name (1-based) for markdown."""
    return f"x{_subscript(int(i) + 1)}"


def _subscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def decision_key(solver: str, coordinate: bool = False) -> str:
    """The key to the scatter plot's marks (it has no legend: see step_figures)."""
    who = {"smo": "the pair (i, j)", "sga": "the updated point", "newton": ""}[solver]
    if solver == "sga" and not coordinate:
        who = ""
    viol = "yᵢh(xᵢ) < 1" if solver == "newton" else "violates its KKT condition"
    return (
        "Solid: h(x) = 0; dashed: h(x) = ±1; dotted grey: h(x) = 0 before this step. "
        "● class +1, ■ class −1; rings: support vectors (black: 0 < α < C, purple: α = C)"
        + (f"; thick green rings: {who}" if who else "")
        + f"; orange ◇: {viol}; ×: misclassified."
    )


# ---------------------------------------------------------------------------- SMO


def smo_why(sel: dict, rec: dict, tol: float) -> str:
    """Why this pair (markdown), from ``step_state.selection_numbers`` and the record."""
    i, j = sel["i"], sel["j"]
    head = (
        f"**i = {i + 1}** ({pt(i)}): the largest −yₜ∇ₜf over I_up, "
        f"−yᵢ∇ᵢf = **{num(sel['minus_yG_i'])}** = m(α).  \n"
    )
    if sel["rule"] == "max_violating_pair":
        body = (
            f"**j = {j + 1}** ({pt(j)}): the smallest −yₜ∇ₜf over I_low, "
            f"−yⱼ∇ⱼf = **{num(sel['minus_yG_j'])}** = M(α).  \n"
        )
        rule = (
            "Rule: **maximal violating pair** (Keerthi et al. 2001; the lecture's "
            "“strongest gradient” pair)."
        )
    else:
        body = (
            f"**j = {j + 1}** ({pt(j)}): among t ∈ I_low with −yₜ∇ₜf < m, the largest gain "
            f"bₜ²/aₜ (bₜ = m + yₜ∇ₜf, aₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ); −yⱼ∇ⱼf = "
            f"{num(sel['minus_yG_j'])}.  \n"
        )
        rule = "Rule: **second order** (LIBSVM; Fan, Chen & Lin 2005): the pair that lowers f most."
    gap = (
        f"Gap m(α) − M(α) = {num(sel['m'])} − ({num(sel['M'])}) = **{num(sel['gap'])}** "
        f"> tol = {num(tol)}: not optimal yet, so SMO takes this step.  \n"
    )
    return rule + "  \n" + head + body + gap


def candidates_rows(rec: dict) -> list[dict]:
    """The second-order rule's top candidates j and their gains (1-based)."""
    return [
        {"j": int(j) + 1, "point": pt(j), "gain bₜ²/aₜ": float(g)}
        for j, g in rec.get("candidates", [])
    ]


def smo_formulas(rec: dict) -> list[str]:
    """The step's formulas (Platt 1998 / seed 004) with the numbers, as LaTeX lines."""
    i, j = rec["i"] + 1, rec["j"] + 1
    yi, yj = rec["yi"], rec["yj"]
    C = rec["C"]
    Cs = tex(C)
    lines = [
        rf"\eta = K(x_{{{i}}},x_{{{i}}}) + K(x_{{{j}}},x_{{{j}}}) - 2K(x_{{{i}}},x_{{{j}}})"
        rf" = {tex(rec['eta'])}",
        rf"E_{{{i}}} = h(x_{{{i}}}) - y_{{{i}}} = {tex(rec['Ei'])},\qquad "
        rf"E_{{{j}}} = h(x_{{{j}}}) - y_{{{j}}} = {tex(rec['Ej'])}",
        rf"\alpha_{{{j}}}^{{\text{{unc}}}} = \alpha_{{{j}}} + \frac{{y_{{{j}}}"
        rf"(E_{{{i}}} - E_{{{j}}})}}{{\eta}} = {tex(rec['aj_old'])} + "
        rf"\frac{{({sign(yj)})({tex(rec['Ei'])} - {ptex(rec['Ej'])})}}{{{tex(rec['eta'])}}}"
        rf" = {tex(rec['aj_unclipped'])}",
    ]
    if yi != yj:
        lines += [
            rf"y_{{{i}}} \ne y_{{{j}}}:\quad L = \max(0,\ \alpha_{{{j}}} - \alpha_{{{i}}}) = "
            rf"{tex(rec['L'])}",
            rf"H = \min(C,\ C + \alpha_{{{j}}} - \alpha_{{{i}}}) = {tex(rec['H'])}"
            rf"\qquad (C = {Cs})",
        ]
    else:
        lines += [
            rf"y_{{{i}}} = y_{{{j}}}:\quad L = \max(0,\ \alpha_{{{i}}} + \alpha_{{{j}}} - C) = "
            rf"{tex(rec['L'])}",
            rf"H = \min(C,\ \alpha_{{{i}}} + \alpha_{{{j}}}) = {tex(rec['H'])}"
            rf"\qquad (C = {Cs})",
        ]
    clip = r"\text{clipped}" if rec.get("clipped") else r"\text{inside }[L, H]"
    lines += [
        rf"\alpha_{{{j}}}^{{\text{{new}}}} = \operatorname{{clip}}(\alpha_{{{j}}}^{{\text{{unc}}}},"
        rf" L, H) = {tex(rec['aj_new'])}\quad ({clip})",
        rf"\alpha_{{{i}}}^{{\text{{new}}}} = \alpha_{{{i}}} + y_{{{i}}}y_{{{j}}}(\alpha_{{{j}}}"
        rf" - \alpha_{{{j}}}^{{\text{{new}}}}) = {tex(rec['ai_old'])} + ({sign(yi * yj)})"
        rf"({tex(rec['aj_old'])} - {ptex(rec['aj_new'])}) = {tex(rec['ai_new'])}",
    ]
    return lines


def smo_summary(rec: dict) -> str:
    """One line for the status: 'pair (4, 13): α₄ 0 → 0.0437, α₁₃ 0 → 0.0437 (clipped)'."""
    i, j = rec["i"], rec["j"]
    return (
        f"pair (i, j) = ({i + 1}, {j + 1}): α{_subscript(i + 1)} {num(rec['ai_old'])} → "
        f"{num(rec['ai_new'])}, α{_subscript(j + 1)} {num(rec['aj_old'])} → "
        f"{num(rec['aj_new'])}" + (" (clipped to [L, H])" if rec.get("clipped") else "")
    )


# ---------------------------------------------------------------------------- SGA


def sga_coordinate_formulas(rec: dict) -> list[str]:
    """Slide 33, lines 12–14, with the numbers (the kernel includes the +1 of x′ = (x, 1))."""
    k = rec["k"] + 1
    C = rec["C"]
    lines = [
        rf"\eta_{{{k}}} = \frac{{1}}{{K(x_{{{k}}}, x_{{{k}}})}} = {tex(rec['eta'])}",
        rf"\frac{{\partial J}}{{\partial \alpha_{{{k}}}}} = 1 - y_{{{k}}}\sum_i \alpha_i y_i"
        rf" K(x_i, x_{{{k}}}) = 1 - ({sign(rec['y'])})({tex(rec['g_before'])})"
        rf" = {tex(rec['grad'])}",
        rf"\alpha_{{{k}}} \leftarrow \alpha_{{{k}}} + \eta_{{{k}}}\frac{{\partial J}}"
        rf"{{\partial \alpha_{{{k}}}}} = {tex(rec['a_old'])} + {tex(rec['eta'])}\cdot"
        rf"{ptex(rec['grad'])} = {tex(rec['a_unclipped'])}",
        rf"\text{{clip to }}[0, C],\ C = {tex(C)}:\quad \alpha_{{{k}}} = {tex(rec['a_new'])}"
        + (r"\quad(\text{clipped})" if rec.get("clipped") else ""),
    ]
    return lines


SGA_SWEEP_TEXT = (
    "One **sweep** of SVM-Dual (slide 33, lines 10–16): for k = 1, …, n in turn, "
    "αₖ ← αₖ + ηₖ(1 − yₖ Σᵢ αᵢyᵢK(xᵢ, xₖ)) with ηₖ = 1/K(xₖ, xₖ), then clip αₖ to [0, C]; "
    "each new αₖ is used at once for the next k. The kernel is K(x, z) + 1 because b is "
    "folded into w (x′ = (x, 1), slide 30), so there is no Σαᵢyᵢ = 0 constraint and b = Σαᵢyᵢ. "
    "Stop when ‖αₜ − αₜ₋₁‖ ≤ ε (line 17)."
)


# ------------------------------------------------------------------------- Newton

NEWTON_TEXT = (
    "One **Newton iteration** of SVM-Primal (quadratic loss, slides 37–39; kernel form "
    "slide 41): the violators yᵢh(xᵢ) < 1 give v = Σ yᵢxᵢ and S = Σ xᵢxᵢᵀ; "
    "∇ = w − 2Cv + 2CSw, H = I + 2CS, and w ← w − ηH⁻¹∇. The step size η starts at 1 and is "
    "halved until J(w) decreases. α = 2Cξ links the primal to the dual."
)


def newton_lines(rec: dict) -> list[tuple[str, str]]:
    return [
        ("violators yᵢh(xᵢ) < 1 used by this step", str(rec["n_violators"])),
        ("‖∇J(w)‖ before the step", num(rec["grad_norm"])),
        ("step size η", num(rec["step"])),
        ("‖wₜ − wₜ₋₁‖ (stop when ≤ ε)", num(rec["step_norm"])),
        ("J(w) after the step", num(rec["primal_trace"], 8)),
    ]


def polish_text(run_model, final) -> str:
    """What happens after the last step when the run's own α is not exact to the digits the
    certificate asks for (issue 16 item 3: the Playground shows that final model)."""
    return (f"The run stops at its tolerance (b = {num(run_model.b)}). The Playground then solves "
            "the KKT conditions exactly on these support vectors and shows the result: "
            f"b = {num(final.b)}, primal = dual = {num(final.dual_objective)}, certified "
            "(KKT to 1e-6, primal = dual to 1e-6).")
