"""The Kernels page under streamlit's AppTest: what it shows, checked against the engine."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import feature_maps as fm
from tests.plotly_json import chart_specs, start_page
from tests.plotly_json import page_ok as ok
from tests.shown_numbers import parse_num
from ui.serving import budget
from ui.shared.fitting import SMO_TOL, smo_max_iter
from ui.shared.numbers import fmt_num

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "5_kernels.py")
TIMEOUT = 300


def start(source: str | None = None, **gen) -> AppTest:
    return start_page(PAGE, "ker", source, timeout=TIMEOUT, **gen)




def chart_by_role(at: AppTest, role: str) -> dict:
    for spec in chart_specs(at):
        if any(t.get("meta", {}).get("role") == role for t in spec["data"]):
            return spec
    raise AssertionError(f"no chart with a trace of role {role!r}")


def traces(spec: dict, role: str) -> list[dict]:
    return [t for t in spec["data"] if t.get("meta", {}).get("role") == role]


def markdown(at: AppTest) -> list[str]:
    return [str(m.value) for m in at.markdown]


def solver_table(at: AppTest):
    return next(d.value for d in at.dataframe if "steps with η ≤ 0" in d.value.columns)


TERM = re.compile(r"(^|[−+]) ?(\d+\.\d+)(?:·(x1²|x1x2|x2²|x1|x2))?")


def equation_terms(text: str) -> dict[str, float]:
    """'1.000·x1² − 0.250·x1x2 + 3.000 = 0' → {'x1²': 1.0, 'x1x2': -0.25, '': 3.0}."""
    lhs, rhs = text.split(" = ")
    assert rhs == "0", text
    out = {}
    for sign, mag, name in TERM.findall(lhs.replace(" ", "")):
        out[name] = -float(mag) if sign == "−" else float(mag)
    assert lhs.count("·") == sum(1 for k in out if k), text    # every term was read
    return out


def test_d1_lifted_by_the_homogeneous_map_with_its_plane_and_preimage():
    at = start()
    d = datasets.d1()
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, 0.0), C=4.0, tol=SMO_TOL,
               max_iter=smo_max_iter(len(d.X)))
    plane = fm.feature_plane(m)
    (shown,) = [s for s in markdown(at) if s.startswith("Preimage: **")]
    terms = equation_terms(shown.split("**")[1])
    for coef, name in zip(plane.conic(), ("x1²", "x1x2", "x2²", "x1", "x2", ""), strict=True):
        # every coefficient to the 3 decimals shown, signs the conic's; a 0.000 is left out
        assert terms.get(name, 0.0) == pytest.approx(coef, abs=5e-4 + 1e-12), (name, shown)
        assert (name in terms) == (abs(coef) >= 5e-4), (name, shown)
    lift = chart_by_role(at, "plane")
    pts = traces(lift, "points")
    assert sum(len(t["x"]) for t in pts) == 14
    phi = fm.quadratic_map(d.X)
    for t in pts:        # each class's points at φ(x) = (x1², √2·x1x2, x2²)
        idx = np.array(t["customdata"]) - 1
        np.testing.assert_allclose(np.column_stack([t["x"], t["y"], t["z"]]), phi[idx],
                                   rtol=1e-12)
    scene = lift["layout"]["scene"]
    assert [scene[f"{a}axis"]["title"]["text"] for a in "xyz"] == ["x1²", "√2·x1x2", "x2²"]
    # Plotly's default eye (1.25, 1.25, 1.25) cut the cube's corners and the z title off in
    # the page's column (issue 32): the camera stands farther back
    eye = scene["camera"]["eye"]
    assert np.hypot(eye["x"], eye["y"]) > 1.25 * np.sqrt(2) * 1.3
    curve = traces(lift, "curve")[0]   # the lifted boundary lies in the plane
    C3 = np.column_stack([curve["x"], curve["y"], curve["z"]])
    np.testing.assert_allclose(C3 @ plane.w + plane.b, 0, atol=1e-8)
    pre = traces(chart_by_role(at, "preimage"), "preimage")[0]
    np.testing.assert_allclose(m.decision_function(np.column_stack([pre["x"], pre["y"]])), 0,
                               atol=1e-8)
    assert any("this is the whole feature space" in str(c.value) for c in at.caption)


def test_identity_for_two_chosen_points():
    at = start()
    at.radio(key="ker.c").set_value(1.0).run()
    at.selectbox(key="ker.i").set_value(2).run()
    at.selectbox(key="ker.j").set_value(9).run()
    ok(at)
    X = datasets.d1().X
    k = (X[2] @ X[9] + 1.0) ** 2
    (line,) = [s for s in markdown(at) if s.startswith("K(x3, x10)")]
    assert f"(x3ᵀx10 + 1)² = **{fmt_num(k, 15)}**" in line and "✓ equal to rounding" in line
    rows = next(d.value for d in at.dataframe if "coordinate" in d.value.columns)
    assert list(rows["coordinate"])[:6] == list(fm.INHOMOGENEOUS_NAMES)
    phi = fm.quadratic_map(X[[2, 9]], 1.0)
    assert float(rows["φ(x)"].iloc[3]) == pytest.approx(phi[0, 3], rel=1e-5)
    assert parse_num(rows["φ(x)·φ(z)"].iloc[-1]) == pytest.approx(k, rel=1e-14)


def test_inhomogeneous_view_is_a_projection_that_keeps_the_plane():
    at = start("nonlinear")
    at.radio(key="ker.c").set_value(1.0).run()
    ok(at)
    lift = chart_by_role(at, "plane")
    assert lift["layout"]["scene"]["xaxis"]["title"]["text"] == "w_φᵀφ(x) / ‖w_φ‖"
    assert any("has six coordinates" in str(c.value) for c in at.caption)
    d = datasets.nonlinear()
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, 1.0), C=4.0, tol=SMO_TOL,
               max_iter=smo_max_iter(len(d.X)))
    plane = fm.feature_plane(m)
    u1 = np.concatenate([t["x"] for t in traces(lift, "points")])
    idx = np.concatenate([t["customdata"] for t in traces(lift, "points")]) - 1
    # the first axis is wᵀφ(x)/‖w‖: the signed distance to the plane, shifted by b/‖w‖
    np.testing.assert_allclose(u1, (plane.decision(d.X[idx]) - plane.b)
                               / np.linalg.norm(plane.w), rtol=1e-6, atol=1e-9)


def test_gram_matrix_eigenvalues_and_mercer_for_the_gaussian():
    at = start()
    X = datasets.d1().X
    K = se.Gaussian(1.0)(X, X)
    spec = chart_by_role(at, "gram")
    heat = traces(spec, "gram")[0]
    np.testing.assert_allclose(np.array(heat["z"]), K, rtol=1e-12)
    xaxis, yaxis = spec["layout"]["xaxis"], spec["layout"]["yaxis"]
    assert xaxis["range"] == [0.5, 14.5] and yaxis["range"] == [14.5, 0.5]  # the 14 cells only
    assert xaxis["ticktext"] == yaxis["ticktext"] == [f"x{i}" for i in range(1, 15)]
    assert xaxis["tickvals"] == list(range(1, 15))
    eig = traces(chart_by_role(at, "eigenvalues"), "eigenvalues")[0]
    np.testing.assert_allclose(eig["y"], np.linalg.eigvalsh(K), atol=1e-12)
    (good,) = [str(s.value) for s in at.success]
    assert good.startswith("Mercer check: positive semi-definite up to rounding")
    table = solver_table(at)
    assert list(table["solver"]) == ["cvxopt QP"] + ["SMO"] * 6
    duals = [parse_num(d) for d in table["dual Σα − ½αᵀQα"]]
    assert max(duals) - min(duals) <= 1e-6
    assert table["answer"].iloc[0] == "cvxopt status: optimal"    # a concave dual: its maximum
    eta = list(table["steps with η ≤ 0"])
    assert eta[0] == "–" and eta[1].isdigit() and eta[2:] == ["not traced"] * (len(eta) - 2)
    text = " ".join(markdown(at))
    assert "all with the same dual objective" in text
    said = "The random starts keep no trace of their steps (“not traced” in the table)" in text
    assert said == (len(eta) > 2)


def test_a_non_kernel_shows_its_negative_eigenvalue_and_what_the_solvers_do():
    at = start("circles", n=40)
    at.selectbox(key="ker.fn").select("negative_c").run()
    ok(at)
    (warn,) = [str(w.value) for w in at.warning]
    d = datasets.circles(n=40, noise=0.1, seed=0)   # the page's generator defaults
    K = gram.gram_matrix(se.Polynomial(2, -1.0), d.X)
    lam = np.linalg.eigvalsh(K)
    assert warn.startswith(f"Mercer check: not positive semi-definite: λ_min = {fmt_num(lam[0])}"
                           f" < {fmt_num(-gram.mercer_check(K).tolerance, 2)} (")
    eig = traces(chart_by_role(at, "eigenvalues"), "eigenvalues")[0]
    assert eig["meta"]["negative"] == int(np.sum(lam < -gram.mercer_check(K).tolerance)) > 0
    table = solver_table(at)
    qp = table.iloc[0]
    assert qp["answer"].startswith("cvxopt stopped: ValueError")
    smo = table.iloc[1:]
    assert (smo["answer"] == "KKT point").all() and int(smo["steps with η ≤ 0"].iloc[0]) > 0
    text = " ".join(markdown(at))
    assert "the dual is not concave" in text and "τ = 1·10⁻¹²" in text
    # the function's label with a real minus sign
    assert "**polynomial (inhomogeneous)  K(x,z) = (−1 + xᵀz)^2** on the 40 points" in text
    found = re.search(r"with (\d+) different dual objectives", text)
    assert found and int(found.group(1)) >= 2        # non-convex: the start decides
    assert "cvxopt stopped without an answer" in text


def test_cvxopts_optimal_on_a_non_concave_dual_is_worded_as_a_kkt_point_only():
    at = start()                                   # D1
    at.selectbox(key="ker.fn").select("sigmoid").run()
    ok(at)
    X = datasets.d1().X
    K = gram.gram_matrix(gram.Sigmoid(1.0, -1.0), X)   # the page's default κ and c
    # the premise: tanh on D1 is not concave on Σαᵢyᵢ = 0, and cvxopt still says "optimal"
    assert gram.conditional_eigenvalues(K)[0] < -gram.mercer_check(K).tolerance
    qp = solver_table(at).iloc[0]
    assert qp["answer"] == ("cvxopt status: optimal (of a non-concave dual: a KKT point, not "
                            "certainly the maximum)")
    assert "cvxopt did return (cvxopt status: optimal" in " ".join(markdown(at))


def test_a_non_kernel_whose_dual_is_still_concave_leaves_cvxopts_optimum_alone():
    """(xᵀz + c)¹ with c < 0: K = XXᵀ + c·11ᵀ has a negative eigenvalue, but the constant
    cancels on Σαᵢyᵢ = 0, so the dual is concave and cvxopt's optimum is its maximum."""
    at = start()
    at.selectbox(key="ker.fn").select("negative_c").run()
    at.slider(key="ker.degree").set_value(1).run()
    ok(at)
    K = gram.gram_matrix(se.Polynomial(1, -1.0), datasets.d1().X)
    assert np.linalg.eigvalsh(K)[0] < -gram.mercer_check(K).tolerance    # not a kernel …
    assert gram.conditional_eigenvalues(K)[0] >= -gram.mercer_check(K).tolerance  # … concave
    text = " ".join(markdown(at))
    assert "*conditionally* positive semi-definite" in text
    assert solver_table(at).iloc[0]["answer"] == "cvxopt status: optimal"
    assert "cvxopt did return" not in text and "one optimal value, as a concave dual has" in text


def test_sigma_and_degree_side_by_side():
    at = start()
    titles = [s["layout"].get("title", {}).get("text") for s in chart_specs(at)]
    assert [t for t in titles if t and t.startswith("σ = ")] == ["σ = 0.1", "σ = 0.3", "σ = 1",
                                                                 "σ = 3"]
    X, y = datasets.d1().X, datasets.d1().y
    m = se.fit(X, y, kernel=se.Gaussian(0.1), C=4.0, tol=SMO_TOL, max_iter=smo_max_iter(14))
    assert any(str(c.value).startswith(f"{m.n_support} support vectors of 14, training "
                                       f"accuracy {100 * m.training_accuracy:.1f} %")
               for c in at.caption)
    assert at.radio(key="ker.family").options == ["Gaussian, σ = 0.1, 0.3, 1, 3",
                                                  "polynomial (xᵀz + 1)^q, q = 1, 2, 3, 5"]
    at.radio(key="ker.family").set_value("polynomial").run()
    ok(at)
    titles = [s["layout"].get("title", {}).get("text") for s in chart_specs(at)]
    assert [t for t in titles if t and t.startswith("q = ")] == ["q = 1", "q = 2", "q = 3",
                                                                 "q = 5"]


def test_too_many_points_is_an_error_that_says_what_to_change():
    at = start("blobs", n=400)
    errors = [str(e.value) for e in at.error]
    assert errors == ["This page takes at most 300 points (these are 400): its Gram matrix has "
                      "n² entries and SMO runs on it six times. Choose a dataset with fewer "
                      "points, or remove points in the Playground."]
    assert not chart_specs(at)


def test_a_run_stopped_at_the_budget_is_an_error_not_a_traceback(monkeypatch):
    def stopped(*args, **kwargs):
        raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")

    monkeypatch.setattr(budget, "run", stopped)
    at = start("moons", n=30)   # points no other test fits: nothing cached
    ok(at)
    errors = [str(e.value) for e in at.error]
    assert len(errors) == 3 and all(e.endswith("Try fewer points or a smaller C.")
                                    for e in errors)
    assert any(s.startswith("K(x1, x2)") for s in markdown(at))   # no fit needed: still there


def test_smo_starts_cut_by_their_time_limit_are_not_served_from_the_cache(monkeypatch):
    from ui.kernels import compute as KC

    def smo_rows() -> int:
        at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
        for key, value in {"source": "blobs", "gen.n": 30, "gen.seed": 4323}.items():
            at.session_state["ker." + key] = value       # points no other test fits
        ok(at.run())
        table = next(d.value for d in at.dataframe if "steps with η ≤ 0" in d.value.columns)
        return int((table["solver"] == "SMO").sum())

    monkeypatch.setattr(KC, "STARTS_BUDGET_S", 0.0)     # no start after the first
    assert smo_rows() == 1
    monkeypatch.setattr(KC, "STARTS_BUDGET_S", 60.0)    # the same request, time enough
    assert smo_rows() == KC.STARTS


def test_a_concave_dual_is_said_to_have_one_optimal_value_not_one_maximiser():
    """PSD gives one optimal value; D1's optimal α are not unique (Worked example 1)."""
    text = " ".join(markdown(start()))
    assert "one maximum" not in text
    assert "one optimal value" in text and "Not always one maximiser" in text
