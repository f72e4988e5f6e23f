"""The formula blocks the pages show cannot drift from the engine (issue 27, "Must show").

For every setting (loss × bias × kernel × solver) the engine accepts, the engine's own
problem is built (``build_problem``: the matrices and the box its solvers get) and the shown
text is read: it must state exactly that upper bound (C, or none), the equality Σαᵢyᵢ = 0
exactly when the engine imposes it, and exactly the kernel terms the engine adds (+1 for the
folded bias, δᵢⱼ/(2C) for quadratic loss, each measured on the matrices, not assumed).
Compare solvers prints ``ui.shared.formulas.problem_block``; the Step-through prints
``ui.step_through.text``'s lines from a recorded run (checked here on D2's runs).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine.problem import build_problem, kernel_matrix
from svm_engine.solvers.qp import primal_qp_matrices
from ui.shared import formulas as FM
from ui.shared.numbers import fmt_num, fmt_tex
from ui.shared.settings import Settings
from ui.step_through import record, snapshot
from ui.step_through import text as W
from ui.step_through.coordinate import coordinate_state

KERNELS = {"linear": se.Linear(), "polynomial": se.Polynomial(degree=2, coef0=1.0),
           "gaussian": se.Gaussian(sigma=1.0)}
#: the matrix each solver is handed (svm_engine/api.py, ``_run``): the dual solvers get
#: K_eff (Q = (yyᵀ)∘K_eff), the primal Newton gets K (its loss term is the primal's own)
MATRIX = {"smo": "K_eff", "sga": "K_eff", "qp": "K_eff", "newton": "K"}


def engine_terms(problem, kernel, X, matrix: str) -> dict:
    """What the engine adds to the plain kernel, measured on its matrices."""
    plain = kernel_matrix(kernel, X)
    K = problem.K
    M = problem.K_eff if matrix == "K_eff" else K
    extra = M - plain
    ones = bool(np.allclose(K - plain, 1.0))
    assert ones or np.allclose(K - plain, 0.0)
    diag = np.diag(M - K)
    assert np.allclose(M - K - np.diag(diag), 0.0)      # only the diagonal differs
    assert np.allclose(diag, diag[0])
    return {"plus_one": ones, "diag": float(diag[0]), "extra": extra}


def settings_grid():
    for loss in ("hinge", "quadratic"):
        for bias in ("free", "augmented"):
            for kname in KERNELS:
                for solver, form in (("smo", "dual"), ("sga", "dual"), ("qp", "dual"),
                                     ("qp", "primal"), ("newton", "dual"), ("psvm", "dual")):
                    for C in (1.0, 4.0, math.inf):
                        yield loss, bias, kname, solver, form, C


def accepted(loss, bias, kname, solver, form, C) -> bool:
    try:
        se.check_combination(KERNELS[kname], loss, bias, solver, C)
    except ValueError:
        return False
    return not (solver == "qp" and form == "primal" and kname != "linear")


CASES = [c for c in settings_grid() if accepted(*c)]


def test_the_grid_covers_every_solver_and_both_losses():
    assert {c[3] for c in CASES} == {"smo", "sga", "qp", "newton", "psvm"}
    assert {(c[0], c[1]) for c in CASES} == {(lo, b) for lo in ("hinge", "quadratic")
                                             for b in ("free", "augmented")}


@pytest.mark.parametrize("loss,bias,kname,solver,form,C", CASES)
def test_the_shown_problem_states_the_engines_bound_and_kernel(loss, bias, kname, solver,
                                                               form, C):
    kernel = KERNELS[kname]
    ds = datasets.d2()
    text = FM.problem_block(solver, kernel, C, loss, bias, form)
    if solver == "psvm":
        assert text is None  # another problem: the page keeps PSVM's own docstring
        return
    problem = build_problem(ds.X, np.where(ds.y > 0, 1.0, -1.0), kernel, C, loss, bias)
    if solver == "qp" and form == "primal":
        # (w, b, ξ) as the engine's QP has them: its P, G rows read back
        X = ds.X
        P, _, G, _ = primal_qp_matrices(X, problem.y, C, loss, bias)
        n, d = X.shape
        cons = text.split("s.t.")[1].splitlines()[0]
        assert ("ξᵢ ≥ 0" in cons) == (G.shape[0] == 2 * n)
        assert ("− ξᵢ" in cons) == (P.shape[0] == d + 1 + n)
        assert ("b²" in text) == (P[d, d] == 1.0) == (not problem.equality)
        assert ("ξᵢ²" in text) == (P.shape[0] > d + 1 and P[d + 1, d + 1] > 0)
        return
    t = engine_terms(problem, kernel, ds.X, MATRIX[solver])
    kline = next(line for line in text.splitlines() if "K(xᵢ, xⱼ) +" in line or
                 line.strip().startswith("K(x, z)"))
    # +1 exactly when the engine's matrix has it; δᵢⱼ/(2C) exactly when its diagonal does
    assert ("K(xᵢ, xⱼ) + 1" in text) == t["plus_one"]
    assert (FM.DIAG_TERM in kline) == (t["diag"] > 0)
    if t["diag"] > 0:
        assert f"{FM.DIAG_TERM} = {fmt_num(t['diag'])} on the diagonal" in text
        assert t["diag"] == pytest.approx(1.0 / (2.0 * C))
    # the plain kernel, its family and numbers
    base = next(line.strip() for line in text.splitlines() if line.strip().startswith("K(x, z)"))
    assert base == FM.base_kernel(kernel)
    if solver == "newton":
        assert "α = 2Cξ ≥ 0" in text and "≤ C" not in text
        return
    # the dual: the box the solvers get (C_box) and the equality (problem.equality)
    cons = next(line for line in text.splitlines() if "s.t." in line)
    if math.isinf(problem.C_box):
        assert "αᵢ ≥ 0" in cons and "≤" not in cons
        assert "no upper bound" in text
    else:
        assert "0 ≤ αᵢ ≤ C" in cons and problem.C_box == C
        assert f"C = {fmt_num(C)}" in text
    assert ("Σᵢ αᵢyᵢ = 0" in cons) == problem.equality
    assert "K_eff" not in text  # the name K̃ is defined on the block where it is used
    if "K̃" in text:
        assert "K̃(xᵢ, xⱼ) = K(xᵢ, xⱼ) +" in text


# ------------------------------------------------------------------ the Step-through

STEP_CASES = [(solver, loss, kname) for solver in ("smo", "sga") for loss in ("hinge", "quadratic")
              for kname in KERNELS] + [("newton", "quadratic", k) for k in KERNELS]


def step_run(solver, loss, kname):
    ds = datasets.d2()
    s = Settings.from_dataset(ds.settings).replace(loss=loss, kernel=kname, degree=2, coef0=1.0,
                                                   sigma=1.0)
    return record.build_run(ds.X, ds.y, s, solver)


@pytest.mark.parametrize("solver,loss,kname", STEP_CASES)
def test_the_step_through_states_the_engines_bound_and_kernel(solver, loss, kname):
    run = step_run(solver, loss, kname)
    problem = build_problem(run.X, run.y, run.kernel, run.C, run.loss, run.bias)
    t = engine_terms(problem, run.kernel, run.X, MATRIX[solver])
    open_box = math.isinf(problem.C_box)
    if solver == "newton":
        text = W.newton_text(run)
        if kname == "linear":
            assert "H = I + 2CS" in text and "β" not in text
        else:  # slide 41's kernel form, in β
            assert "v = Σ yᵢKᵢ" in text and "H = K + 2CS" in text and "H = I" not in text
            rows = dict(W.newton_lines(snapshot.step_record(run, 1), run, 1))
            assert "‖βₜ − βₜ₋₁‖ (slide 41)" in rows
            assert not any("wₜ" in r or "(w)" in r for r in rows)
        assert ("+ 1" in text or "x′ = (x, 1)" in text) == t["plus_one"]
        assert "purple" not in W.decision_key("newton", open_box=open_box)
        return
    if solver == "smo":
        rec = snapshot.step_record(run, 1)
        lines = W.smo_formulas(rec)
        i, j = rec["i"], rec["j"]
        eta = (problem.K_eff[i, i] + problem.K_eff[j, j] - 2 * problem.K_eff[i, j])
        eta_line = next(x for x in lines if x.startswith(r"\eta ="))
        assert eta_line.endswith(f"= {fmt_tex(eta)}") and rec["eta"] == pytest.approx(eta)
        assert f"{fmt_tex(problem.K_eff[i, i])} + " in eta_line  # the K̃ values themselves
    else:
        state, rec = coordinate_state(run, 1)
        lines = W.sga_coordinate_formulas(rec)
        eta_line = next(x for x in lines if x.startswith(r"\eta_{1}"))
        assert eta_line.endswith(f"= {fmt_tex(1.0 / problem.K_eff[0, 0])}")
        sweep = W.sga_sweep_text(run)
        assert ("δᵢⱼ/(2C)" in sweep) == (t["diag"] > 0)
        assert ("no upper bound" in sweep) == open_box
        assert ("lines 13–14" in W.sga_clip_note(run.loss, run.C)) == open_box
    text = " ".join(lines)
    # K̃ defined on the block exactly when the engine's matrix is not K itself
    assert (r"\frac{\delta_{ij}}{2C}" in text) == (t["diag"] > 0)
    assert (r"\tilde K = K + 1" in text) == t["plus_one"]
    # the box: C where the engine bounds α, "no upper bound" where it does not
    assert ("no upper bound" in text) == open_box
    assert (r"\min(C" in text or "[0, C]" in text) == (not open_box)
    assert ("purple: α = C" in W.decision_key(solver, open_box=open_box)) == (not open_box)
