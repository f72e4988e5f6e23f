"""Issue 27, items 1–4: what Compare solvers and the Step-through show for quadratic loss
(k = 2) and for Newton with a kernel, read from the pages under AppTest.

k = 2's dual has K̃ = K + δᵢⱼ/(2C) and αᵢ ≥ 0 only (slides 20, 27); slide 41's Newton works in
β with v = Σ yᵢKᵢ, S = Σ KᵢKᵢᵀ, H = K + 2CS. The expected numbers come from the engine's own
matrices (``build_problem``), not from the page's text module.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from svm_engine import datasets
from svm_engine.problem import build_problem
from svm_engine.solvers import sga as sga_module
from tests.plotly_json import start_page
from tests.test_page_step_through import click, set_step, start, table, tex_lines
from ui.shared.numbers import fmt_tex
from ui.shared.settings import Settings, settings_to_kernel
from ui.step_through import record, snapshot

COMPARE = str(Path(__file__).resolve().parents[1] / "pages" / "4_compare_solvers.py")


def shown_text(at) -> str:
    return "\n".join(str(e.value) for e in (*at.markdown, *at.caption, *at.code, *at.info,
                                            *at.latex))


def test_item1_compare_solvers_shows_the_k2_dual():
    at = start_page(COMPARE, "cmp", "d2", timeout=300)
    at.radio(key="cmp.loss").set_value("quadratic").run()
    assert not at.exception
    blocks = [str(c.value) for c in at.code]
    duals = [b for b in blocks if b.startswith("Dual")]
    assert len(duals) >= 2  # SMO/cvxopt (free b) and SGA (b folded in)
    for b in duals:
        cons = next(line for line in b.splitlines() if "s.t." in line)
        assert "αᵢ ≥ 0" in cons and "≤ C" not in cons and "≤" not in cons
        assert "K_eff" not in b
        assert "K̃(xᵢ, xⱼ) = K(xᵢ, xⱼ) +" in b and "δᵢⱼ/(2C) = 0.5 on the diagonal" in b
        assert ("Σᵢ αᵢyᵢ = 0" in cons) == ("free b" in b.splitlines()[0])
    assert any("K(xᵢ, xⱼ) + 1 + δᵢⱼ/(2C)" in b for b in duals)  # SGA's folded bias
    assert any("K(xᵢ, xⱼ) + δᵢⱼ/(2C)" in b for b in duals)      # SMO's free b
    assert "K_eff" not in shown_text(at)


def _d2_quadratic(solver):
    ds = datasets.d2()
    s = dict(Settings.from_dataset(ds.settings))
    s["loss"] = "quadratic"
    run = record.build_run(ds.X, ds.y, s, solver)
    return run, build_problem(ds.X, run.y, settings_to_kernel(s), run.C, "quadratic", run.bias)


def test_item2_smo_step_shows_the_ktilde_values_and_no_C_box():
    at = start("d2", loss="quadratic")
    set_step(at, 3)
    run, problem = _d2_quadratic("smo")
    rec = snapshot.step_record(run, 3)
    i, j = rec["i"], rec["j"]
    Kt = problem.K_eff
    tex = tex_lines(at)
    eta = next(t for t in tex if t.startswith(r"\eta ="))
    assert r"\tilde K(x_{" in eta
    assert (f"= {fmt_tex(Kt[i, i])} + {fmt_tex(Kt[j, j])} - 2\\cdot {fmt_tex(Kt[i, j])} = "
            f"{fmt_tex(Kt[i, i] + Kt[j, j] - 2 * Kt[i, j])}") in eta
    assert any(r"\tilde K = K + \frac{\delta_{ij}}{2C}" in t for t in tex)
    joined = " ".join(tex)
    assert r"\min(C" not in joined and r"(C = \infty)" not in joined
    assert "no upper bound" in joined
    assert "purple: α = C" not in player_key(at)


def player_key(at) -> str:
    from tests.test_page_step_through import player_payload
    return player_payload(at)["text"]["decision_key"]


def test_item2_and_3_sga_coordinate_step_explains_eta_and_the_clip():
    at = start("d2", loss="quadratic", solver="sga")
    at.radio(key="stp.sga_mode").set_value("coordinate").run()
    click(at, "stp.next")
    click(at, "stp.next")
    _, problem = _d2_quadratic("sga")
    tex = tex_lines(at)
    eta = next(t for t in tex if t.startswith(r"\eta_{2}"))
    assert eta == r"\eta_{2} = \frac{1}{\tilde K(x_{2}, x_{2})} = " + fmt_tex(
        1 / problem.K_eff[1, 1])
    plain = problem.K[1, 1] - 1.0   # K(x₂, x₂) without the folded bias's +1
    assert (rf"\tilde K(x_{{2}}, x_{{2}}) = K(x_{{2}}, x_{{2}}) + 1 + \frac{{1}}{{2C}} = "
            rf"{fmt_tex(plain)} + 1 + 0.5 = {fmt_tex(problem.K_eff[1, 1])}") in tex
    joined = " ".join(tex)
    assert "[0, C]" not in joined and "no upper bound" in joined
    captions = " ".join(c.value for c in at.caption)
    assert "lines 13–14" in captions and "another answer for k = 2" in captions
    assert "purple: α = C" not in captions


def test_item3_sga_sweep_text_and_engine_docstring():
    at = start("d2", loss="quadratic", solver="sga")
    click(at, "stp.next")
    text = shown_text(at)
    assert "clip αₖ to [0, C]" not in text and "no upper bound" in text
    assert "lines 13–14" in text
    doc = sga_module.__doc__
    assert "slide 33, lines 2–5" not in doc
    assert "no upper bound" in doc and "slides 20,\n27" in doc


def test_item4_newton_with_a_kernel_shows_slide_41():
    at = start("d2", solver="newton", kernel="gaussian")
    click(at, "stp.next")
    text = shown_text(at)
    for part in ("v = Σ yᵢKᵢ", "S = Σ KᵢKᵢᵀ", "∇ = (K + 2CS)β − 2Cv", "H = K + 2CS",
                 "β ← β − ηH⁻¹∇", "‖βₜ − βₜ₋₁‖"):
        assert part in text, part
    for part in ("v = Σ yᵢxᵢ", "H = I + 2CS", "w ← w", "purple: α = C"):
        assert part not in text, part
    rows = table(at)
    assert "‖βₜ − βₜ₋₁‖ (slide 41)" in rows and "‖∇J(β)‖ before the step" in rows
    assert not any("wₜ" in r or "J(w)" in r for r in rows)
    run = record.build_run(*_d2_data(), _gauss(), "newton")
    dbeta = np.linalg.norm(run.newton_w[1] - run.newton_w[0])
    assert float(rows["‖βₜ − βₜ₋₁‖ (slide 41)"].replace("−", "-")) == pytest.approx(dbeta,
                                                                                    rel=1e-3)


def _d2_data():
    ds = datasets.d2()
    return ds.X, ds.y


def _gauss():
    s = dict(Settings.from_dataset(datasets.d2().settings))
    s.update(kernel="gaussian", loss="quadratic")
    return s
