"""Words and formulas of the Step-through page (pure; no streamlit): for one step (why this
pair, the update's formulas, the numbers panel, the heading) and for the run (its summary,
the trace's cap, the jump button).

Markdown strings, and LaTeX strings for ``st.latex``, with the step's numbers filled in
(printed by ``ui.shared.numbers``).
Symbols as on the slides and in the KKT/SMO note (α, C, η, L, H, Eₜ = h(xₜ) − yₜ); point indices
1-based (x₁ … xₙ).
"""

from __future__ import annotations

import math

import numpy as np

from ui.shared import formulas as FM
from ui.shared.labels import WSS_LABELS
from ui.shared.numbers import fmt_num, fmt_tex, fmt_tex_factor, hyperplane_equation
from ui.step_through.record import TRACE_CAP
from ui.step_through.snapshot import KKT_TOL

#: separates the lines of ``latex_block`` (a line break with a little space)
LATEX_LINE_SEP = r" \\[6pt] "


def latex_block(lines: list[str]) -> str:
    """Several LaTeX lines as one centred block (one element on the page, not one each)."""
    return r"\begin{gathered}" + LATEX_LINE_SEP.join(lines) + r"\end{gathered}"


def sign(v: float) -> str:
    return "+1" if v > 0 else "-1"


def pt(i: int) -> str:
    """x₄-style name (1-based) for markdown."""
    return f"x{subscript(int(i) + 1)}"


def subscript(n: int) -> str:
    """4 → "₄"."""
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def decision_key(solver: str, coordinate: bool = False, open_box: bool = False) -> str:
    """The key to the scatter plot's marks (it has no legend: see step_figures). ``open_box``:
    α has no upper bound (quadratic loss, hard margin), so no ring means α = C."""
    who = {"smo": "the pair (i, j)", "sga": "the updated point", "newton": ""}[solver]
    if solver == "sga" and not coordinate:
        who = ""
    viol = "yᵢh(xᵢ) < 1" if solver == "newton" else "violates its KKT condition"
    rings = ("rings: support vectors (α > 0; α has no upper bound here)" if open_box else
             "rings: support vectors (thinner black: 0 < α < C, thick purple: α = C)")
    return (
        "Solid: h(x) = 0; dashed: h(x) = ±1; dotted grey: h(x) = 0 before this step. "
        f"● class +1, ■ class −1; {rings}"
        + (f"; thick green rings: {who}" if who else "")
        + f"; orange ◇: {viol}; ×: misclassified."
    )


def open_reason_tex(rec: dict) -> str:
    """Why α has no upper bound in this run, as LaTeX text."""
    if rec.get("loss") == "quadratic":
        return r"k = 2:\ \alpha_t \ge 0\text{ only, no upper bound (slide 27), whatever }C"
    return r"\text{no upper bound: hard margin }(C = \infty)"


# ---------------------------------------------------------------------------- SMO


def smo_why(sel: dict, rec: dict, tol: float) -> str:
    """Why this pair (markdown), from ``step_state.selection_numbers`` and the record."""
    i, j = sel["i"], sel["j"]
    Kn = "K̃" if rec.get("ktex") else "K"  # the matrix SMO works on (K + δ/(2C) for k = 2)
    head = (
        f"**i = {i + 1}** ({pt(i)}): the largest −yₜ∇ₜf over I_up, "
        f"−yᵢ∇ᵢf = **{fmt_num(sel['minus_yG_i'])}** = m(α).  \n"
    )
    if sel["rule"] == "max_violating_pair":
        body = (
            f"**j = {j + 1}** ({pt(j)}): the smallest −yₜ∇ₜf over I_low, "
            f"−yⱼ∇ⱼf = **{fmt_num(sel['minus_yG_j'])}** = M(α).  \n"
        )
        rule = (
            "Rule: **maximal violating pair** (Keerthi et al. 2001; the lecture's "
            "“strongest gradient” pair)."
        )
    else:
        body = (
            f"**j = {j + 1}** ({pt(j)}): among t ∈ I_low with −yₜ∇ₜf < m, the largest gain "
            f"bₜ²/aₜ (bₜ = m + yₜ∇ₜf, aₜ = {Kn}ᵢᵢ + {Kn}ₜₜ − 2{Kn}ᵢₜ); −yⱼ∇ⱼf = "
            f"{fmt_num(sel['minus_yG_j'])}.  \n"
        )
        rule = "Rule: **second order** (LIBSVM; Fan, Chen & Lin 2005): the pair that lowers f most."
    gap = (
        f"Gap m(α) − M(α) = {fmt_num(sel['m'])} − ({fmt_num(sel['M'])}) = "
        f"**{fmt_num(sel['gap'])}** > tol = {fmt_num(tol)}: not optimal yet, so SMO takes this "
        "step.  \n"
    )
    return rule + "  \n" + head + body + gap


def candidates_rows(rec: dict) -> list[dict]:
    """The second-order rule's top candidates j and their gains (1-based)."""
    return [
        {"j": int(j) + 1, "point": pt(j), "gain bₜ²/aₜ": float(g)}
        for j, g in rec.get("candidates", [])
    ]


def smo_formulas(rec: dict) -> list[str]:
    """The step's formulas (Platt 1998 / the KKT/SMO note) with the numbers, as LaTeX lines."""
    i, j = rec["i"] + 1, rec["j"] + 1
    yi, yj = rec["yi"], rec["yj"]
    C = rec["C"]
    Cs = fmt_tex(C)
    ktex = rec.get("ktex", "")
    Kn = r"\tilde K" if ktex else "K"
    Kt = rec.get("Kt")
    nums = (rf" = {fmt_tex(Kt[0][0])} + {fmt_tex_factor(Kt[1][1])} - 2\cdot "
            rf"{fmt_tex_factor(Kt[0][1])}" if Kt else "")
    lines = [rf"{ktex},\quad C = {fmt_tex(rec['C_user'])}"] if ktex else []
    lines += [
        rf"\eta = {Kn}(x_{{{i}}},x_{{{i}}}) + {Kn}(x_{{{j}}},x_{{{j}}}) - 2{Kn}(x_{{{i}}},"
        rf"x_{{{j}}}){nums} = {fmt_tex(rec['eta'])}",
        rf"E_{{{i}}} = h(x_{{{i}}}) - y_{{{i}}} = {fmt_tex(rec['Ei'])},\qquad "
        rf"E_{{{j}}} = h(x_{{{j}}}) - y_{{{j}}} = {fmt_tex(rec['Ej'])}",
        rf"\alpha_{{{j}}}^{{\text{{unc}}}} = \alpha_{{{j}}} + \frac{{y_{{{j}}}"
        rf"(E_{{{i}}} - E_{{{j}}})}}{{\eta}} = {fmt_tex(rec['aj_old'])} + "
        rf"\frac{{({sign(yj)})({fmt_tex(rec['Ei'])} - {fmt_tex_factor(rec['Ej'])})}}"
        rf"{{{fmt_tex(rec['eta'])}}}"
        rf" = {fmt_tex(rec['aj_unclipped'])}",
    ]
    if rec.get("open_box"):  # the box [0, ∞): L and H without C
        lower = (rf"\max(0,\ \alpha_{{{j}}} - \alpha_{{{i}}}) = {fmt_tex(rec['L'])}"
                 if yi != yj else "0")
        upper = ("\\infty" if yi != yj else
                 rf"\alpha_{{{i}}} + \alpha_{{{j}}} = {fmt_tex(rec['H'])}")
        rel = r"\ne" if yi != yj else "="
        lines += [rf"y_{{{i}}} {rel} y_{{{j}}}:\quad L = {lower},\quad H = {upper}",
                  open_reason_tex(rec)]
    elif yi != yj:
        lines += [
            rf"y_{{{i}}} \ne y_{{{j}}}:\quad L = \max(0,\ \alpha_{{{j}}} - \alpha_{{{i}}}) = "
            rf"{fmt_tex(rec['L'])}",
            rf"H = \min(C,\ C + \alpha_{{{j}}} - \alpha_{{{i}}}) = {fmt_tex(rec['H'])}"
            rf"\qquad (C = {Cs})",
        ]
    else:
        lines += [
            rf"y_{{{i}}} = y_{{{j}}}:\quad L = \max(0,\ \alpha_{{{i}}} + \alpha_{{{j}}} - C) = "
            rf"{fmt_tex(rec['L'])}",
            rf"H = \min(C,\ \alpha_{{{i}}} + \alpha_{{{j}}}) = {fmt_tex(rec['H'])}"
            rf"\qquad (C = {Cs})",
        ]
    clip = r"\text{clipped}" if rec.get("clipped") else r"\text{inside }[L, H]"
    lines += [
        rf"\alpha_{{{j}}}^{{\text{{new}}}} = \operatorname{{clip}}(\alpha_{{{j}}}^{{\text{{unc}}}},"
        rf" L, H) = {fmt_tex(rec['aj_new'])}\quad ({clip})",
        rf"\alpha_{{{i}}}^{{\text{{new}}}} = \alpha_{{{i}}} + y_{{{i}}}y_{{{j}}}(\alpha_{{{j}}}"
        rf" - \alpha_{{{j}}}^{{\text{{new}}}}) = {fmt_tex(rec['ai_old'])} + ({sign(yi * yj)})"
        rf"({fmt_tex(rec['aj_old'])} - {fmt_tex_factor(rec['aj_new'])}) = {fmt_tex(rec['ai_new'])}",
    ]
    return lines


def smo_summary(rec: dict) -> str:
    """One line for the status: 'pair (4, 13): α₄ 0 → 0.0437, α₁₃ 0 → 0.0437 (clipped)'."""
    i, j = rec["i"], rec["j"]
    return (
        f"pair (i, j) = ({i + 1}, {j + 1}): α{subscript(i + 1)} {fmt_num(rec['ai_old'])} → "
        f"{fmt_num(rec['ai_new'])}, α{subscript(j + 1)} {fmt_num(rec['aj_old'])} → "
        f"{fmt_num(rec['aj_new'])}" + (" (clipped to [L, H])" if rec.get("clipped") else "")
    )


# ---------------------------------------------------------------------------- SGA


def sga_coordinate_formulas(rec: dict) -> list[str]:
    """Slide 33, lines 12–14, with the numbers: η_k = 1/K̃(x_k, x_k), K̃ the matrix the engine
    builds (K + 1 for x′ = (x, 1), + 1/(2C) on the diagonal for quadratic loss)."""
    k = rec["k"] + 1
    C = rec["C"]
    ktex = rec.get("ktex", "")
    Kn = r"\tilde K" if ktex else "K"
    lines = [rf"{ktex},\quad C = {fmt_tex(rec['C_user'])}"] if ktex else []
    if "K" in rec and ktex:  # the diagonal entry's parts: K, +1 (folded bias), +1/(2C) (k = 2)
        plain = rec["K"][0][0] - (1.0 if rec["aug"] else 0.0)
        syms = [rf"K(x_{{{k}}}, x_{{{k}}})"] + (["1"] if rec["aug"] else []) + (
            [r"\frac{1}{2C}"] if rec["diag"] > 0 else [])
        vals = [fmt_tex(plain)] + (["1"] if rec["aug"] else []) + (
            [fmt_tex(rec["diag"])] if rec["diag"] > 0 else [])
        lines.append(rf"\tilde K(x_{{{k}}}, x_{{{k}}}) = {' + '.join(syms)} = "
                     rf"{' + '.join(vals)} = {fmt_tex(rec['Kt'][0][0])}")
    lines += [
        rf"\eta_{{{k}}} = \frac{{1}}{{{Kn}(x_{{{k}}}, x_{{{k}}})}} = {fmt_tex(rec['eta'])}",
        rf"\frac{{\partial J}}{{\partial \alpha_{{{k}}}}} = 1 - y_{{{k}}}\sum_i \alpha_i y_i"
        rf" {Kn}(x_i, x_{{{k}}}) = 1 - ({sign(rec['y'])})({fmt_tex(rec['g_before'])})"
        rf" = {fmt_tex(rec['grad'])}",
        rf"\alpha_{{{k}}} \leftarrow \alpha_{{{k}}} + \eta_{{{k}}}\frac{{\partial J}}"
        rf"{{\partial \alpha_{{{k}}}}} = {fmt_tex(rec['a_old'])} + {fmt_tex(rec['eta'])}\cdot"
        rf"{fmt_tex_factor(rec['grad'])} = {fmt_tex(rec['a_unclipped'])}",
    ]
    if rec.get("open_box"):
        lines += [rf"\text{{clip to }}[0, \infty):\quad \alpha_{{{k}}} = \max(0,\ "
                  rf"{fmt_tex(rec['a_unclipped'])}) = {fmt_tex(rec['a_new'])}"
                  + (r"\quad(\text{clipped})" if rec.get("clipped") else ""),
                  open_reason_tex(rec)]
    else:
        lines.append(rf"\text{{clip to }}[0, C],\ C = {fmt_tex(C)}:\quad "
                     rf"\alpha_{{{k}}} = {fmt_tex(rec['a_new'])}"
                     + (r"\quad(\text{clipped})" if rec.get("clipped") else ""))
    return lines


def sga_clip_note(loss: str, C: float) -> str:
    """Where the app's SGA departs from slide 33 as printed ("" where it does not)."""
    if loss != "quadratic":
        return ""
    return ("Quadratic loss (k = 2): the dual has αₖ ≥ 0 only, no upper bound (slides 20, 27), "
            "so αₖ is clipped at 0 only. Slide 33 as printed clips at C in lines 13–14 for "
            f"both losses: coding it literally (αₖ ≤ C = {fmt_num(C)}) solves another problem "
            "and gives another answer for k = 2.")


def sga_sweep_text(run) -> str:
    """One sweep of SVM-Dual in words, with the K̃ and the box of this run's setting."""
    terms = " + ".join(FM.kernel_terms(run.kernel, run.C, run.loss, run.bias))
    diag = (" (1/(2C) on the diagonal: quadratic loss, slide 33 line 5)"
            if FM.spec(run.kernel, run.C, run.loss, run.bias).diag > 0 else "")
    clip = ("then set αₖ to max(0, αₖ): for quadratic loss α has no upper bound (slide 27; "
            "slide 33's lines 13–14 clip at C, see below)"
            if FM.box_is_open(run.C, run.loss) else "then clip αₖ to [0, C]")
    return (
        "One **sweep** of SVM-Dual (slide 33, lines 10–16): for k = 1, …, n in turn, "
        "αₖ ← αₖ + ηₖ(1 − yₖ Σᵢ αᵢyᵢK̃(xᵢ, xₖ)) with ηₖ = 1/K̃(xₖ, xₖ) and "
        f"K̃(xᵢ, xⱼ) = {terms}{diag}; {clip}. Each new αₖ is used at once for the next k. "
        "The +1 is there because b is folded into w (x′ = (x, 1), slide 30), so there is no "
        "Σαᵢyᵢ = 0 constraint and b = Σαᵢyᵢ. Stop when ‖αₜ − αₜ₋₁‖ ≤ ε (line 17)."
    )


# ------------------------------------------------------------------------- Newton


def newton_text(run) -> str:
    """One Newton iteration: slide 39's linear form or slide 41's kernel form."""
    if run.linear:
        return (
            "One **Newton iteration** of SVM-Primal (quadratic loss, slides 37–39): the "
            "violators yᵢwᵀx′ᵢ < 1 (x′ = (x, 1)) give v = Σ yᵢx′ᵢ and S = Σ x′ᵢx′ᵢᵀ; "
            "∇ = (I + 2CS)w − 2Cv, H = I + 2CS, and w ← w − ηH⁻¹∇. The step size η starts at "
            "1 and is halved until J(w) decreases. α = 2Cξ links the primal to the dual."
        )
    return (
        "One **Newton iteration** of SVM-Primal-Kernel (quadratic loss, slide 41): with "
        "K = K(xᵢ, xⱼ) + 1 (b folded in, x′ = (x, 1)) and h(xᵢ) = Kᵢᵀβ, the violators "
        "yᵢKᵢᵀβ < 1 give v = Σ yᵢKᵢ and S = Σ KᵢKᵢᵀ; ∇ = (K + 2CS)β − 2Cv, H = K + 2CS, and "
        "β ← β − ηH⁻¹∇. The step size η starts at 1 and is halved until J(β) decreases. "
        "Slide 41 stops on ‖βₜ − βₜ₋₁‖ ≤ ε; the engine stops on √(ΔβᵀKΔβ) ≤ ε (the step of "
        "w′ = Σβᵢφ(x′ᵢ), the same number the linear form measures), because β is not unique "
        "when K is singular. Both are shown. α = 2Cξ links the primal to the dual."
    )


def newton_lines(rec: dict, run=None, k: int = 0) -> list[tuple[str, str]]:
    """The numbers of Newton iteration k; β rows for the kernel form (slide 41)."""
    if run is None or run.linear:
        return [
            ("violators yᵢh(xᵢ) < 1 used by this step", str(rec["n_violators"])),
            ("‖∇J(w)‖ before the step", fmt_num(rec["grad_norm"])),
            ("step size η", fmt_num(rec["step"])),
            ("‖wₜ − wₜ₋₁‖ (stop when ≤ ε)", fmt_num(rec["step_norm"])),
            ("J(w) after the step", fmt_num(rec["primal_trace"], 8)),
        ]
    dbeta = float(np.linalg.norm(run.newton_w[k] - run.newton_w[k - 1]))
    return [
        ("violators yᵢh(xᵢ) < 1 used by this step", str(rec["n_violators"])),
        ("‖∇J(β)‖ before the step", fmt_num(rec["grad_norm"])),
        ("step size η", fmt_num(rec["step"])),
        ("‖βₜ − βₜ₋₁‖ (slide 41)", fmt_num(dbeta)),
        ("√(ΔβᵀKΔβ) (the engine stops when ≤ ε)", fmt_num(rec["step_norm"])),
        ("J(β) after the step", fmt_num(rec["primal_trace"], 8)),
    ]


def polish_text(run_model, final) -> str:
    """What happens after the last step when the run's own α is not exact to the digits the
    certificate asks for (issue 16 item 3: the Playground shows that final model)."""
    return (f"The run stops at its tolerance (b = {fmt_num(run_model.b)}). The Playground then "
            "solves the KKT conditions exactly on these support vectors and shows the result: "
            f"b = {fmt_num(final.b)}, primal = dual = {fmt_num(final.dual_objective)}, certified "
            "(KKT to 1e-6, primal = dual to 1e-6).")


# ------------------------------------------------------------------ the page's panels

def run_summary(run) -> str:
    """"The run took **17** steps (working-set rule: second order (LIBSVM)): converged."."""
    rule = f" (working-set rule: {WSS_LABELS.get(run.wss, run.wss)})" if run.wss else ""
    return (f"The run took **{run.n_iter:,}** {run.step_name}s{rule}"
            + (": converged." if run.model.converged else "."))


def truncation_text(run) -> str:
    """The warning of a run longer than the trace."""
    return (f"This run took {run.n_iter:,} {run.step_name}s; the trace keeps the first "
            f"{TRACE_CAP:,}, so stepping stops at {run.step_name} {run.n_steps:,}. The final "
            "model (after every step) is the one the Playground shows.")


def numbers_rows(run, stt) -> list[tuple[str, str]]:
    """The numbers panel: (quantity, value) of the state after a step."""
    rows = [("b", fmt_num(stt.b, 6))]
    if stt.w is not None:
        rows.insert(0, ("w", "(" + ", ".join(fmt_num(v) for v in np.asarray(stt.w)) + ")"))
        rows.append(("hyperplane", hyperplane_equation(stt.w, stt.b)))
    newton = run.solver == "newton"
    rows += [
        ("dual objective", fmt_num(stt.dual, 8)),
        ("primal objective", fmt_num(stt.primal, 8) if math.isfinite(stt.primal) else "∞"),
        (("‖∇J(w)‖" if run.linear else "‖∇J(β)‖") if newton else "max KKT violation",
         fmt_num(stt.kkt)),
        ("violators yᵢh(xᵢ) < 1" if newton else f"points violating KKT (> {fmt_num(KKT_TOL)})",
         str(len(stt.violators))),
        ("support vectors (α > 0)", str(len(stt.model.support))),
    ]
    return rows


def headline(view, unit: str) -> str:
    """What step k did, for the heading above the plots (``view``: ``view.step_view``)."""
    if view.coord is not None and view.k > 0:
        rec = view.coord
        return (f"sweep {view.sweep}, k = {view.index + 1}: α{subscript(view.index + 1)} "
                f"{fmt_num(rec['a_old'])} → {fmt_num(rec['a_new'])}"
                + (" (clipped)" if rec["clipped"] else ""))
    if view.k > 0:
        return f"{len(view.state.changed)} α changed in this {unit}"
    return "the start: α = 0. Press **Next** (or the → key) to take a step."


def sga_sweep_numbers(run, k: int) -> str:
    """‖αₜ − αₜ₋₁‖ of sweep k and the stopping tolerance."""
    return (f"‖αₜ − αₜ₋₁‖ = **{fmt_num(run.detail['delta_norm'][k])}** "
            f"(ε = {fmt_num(run.model.tol)})")


def jump_texts(solver: str, unit: str, open_box: bool = False) -> tuple[str, str, str]:
    """The jump button's (label, help, what it looks for); ``open_box``: α has no upper
    bound (quadratic loss), so the only bound is 0."""
    if solver == "newton":
        what = "change of the violator set"
        return ("Next violator change",
                f"Jump to the next {unit} where the violators yᵢh(xᵢ) < 1 change", what)
    what = "α hitting 0" if open_box else "α hitting 0 or C"
    return "Next bound change", f"Jump to the next {unit} where an {what}", what
