"""The Regression page's modules (ui/regression/compute.py, figures.py): the answer is the
engine's fit, the rows and the figure say the same thing, refusals name what to change."""

import numpy as np
import pytest

import svm_engine as se
from ui.regression import compute as R
from ui.regression import figures as F
from ui.shared.numbers import fmt_num


@pytest.fixture(scope="module")
def answer():
    x, t = R.generated("sine", 40, 0.3, 1)
    return x, t, R.run(x, t, {"C": 2.0, "epsilon": 0.15, "sigma": 0.7}, "sine")


def test_the_answer_is_the_engines_fit(answer):
    x, t, a = answer
    m = se.fit_svr(x, t, se.Gaussian(sigma=0.7), C=2.0, epsilon=0.15)
    assert a.model.converged and a.model.solver == "smo"
    np.testing.assert_allclose(a.model.f_train, m.f_train, atol=1e-12)
    np.testing.assert_allclose(a.fitted, m.predict(a.grid), atol=1e-12)
    np.testing.assert_allclose(a.truth, np.sin(a.grid))
    assert a.grid[0] < x.min() and a.grid[-1] > x.max() and len(a.grid) == R.CURVE_POINTS
    assert a.model.trace is not None                 # the page draws SMO's progress


def test_rows_and_summary(answer):
    _, t, a = answer
    m = a.model
    rows = R.point_rows(m)
    assert len(rows) == len(t)
    for i in (0, 7, 25):
        r = rows[i]
        assert r["t − y(x)"] == pytest.approx(t[i] - m.f_train[i])
        assert r["ξ"] == m.xi[i] and r["ξ̂"] == m.xi_hat[i]
        assert r["where"] == R.WHERE[m.category[i]]
    sm = R.summary(m)
    assert sm["support vectors"] == sm["on the edge"] + sm["outside"] == len(m.support)
    assert sm["Σξ + Σξ̂"] == pytest.approx(m.xi.sum() + m.xi_hat.sum())
    assert abs(sm["Σ(a − â)"]) < 1e-9 and sm["gap"] == pytest.approx(m.duality_gap)


def test_the_figure_draws_tube_fit_slacks_and_support_vectors(answer):
    _, t, a = answer
    m = a.model
    fig = F.fit_figure(a)
    by_role = {}
    for tr in fig["data"]:
        by_role.setdefault((tr.get("meta") or {}).get("role"), []).append(tr)
    np.testing.assert_allclose(by_role["tube_high"][0]["y"], a.fitted + m.epsilon)
    np.testing.assert_allclose(by_role["tube_low"][0]["y"], a.fitted - m.epsilon)
    assert by_role["tube_high"][0]["fill"] == "tonexty"
    kinds = {tr["meta"]["kind"]: tr for tr in by_role["points"]}
    assert sum(len(tr["x"]) for tr in kinds.values()) == len(t)
    assert len(kinds["outside"]["x"]) == len(m.outside) and len(kinds["edge"]["x"]) == len(
        m.on_edge)
    # one segment per slack, from tᵢ to the tube's edge on its side
    segs = {tr["name"]: tr for tr in by_role["slack"]}
    up = segs["ξ (above the tube)"]
    i = int(np.flatnonzero(m.xi > 0)[0])
    k = 3 * list(np.flatnonzero(m.xi > 0)).index(i)
    assert up["y"][k:k + 2] == pytest.approx([m.t[i], m.f_train[i] + m.epsilon])
    # each slack's value in the hover of its segment (no text on the plot to hide points)
    assert up["text"][k:k + 3] == [f"ξ{_sub(i + 1)} = {fmt_num(m.xi[i])}"] * 2 + [None]
    low = segs["ξ̂ (below the tube)"]
    j = int(np.flatnonzero(m.xi_hat > 0)[0])
    assert low["text"][0] == f"ξ̂{_sub(j + 1)} = {fmt_num(m.xi_hat[j])}"
    assert not [tr for tr in fig["data"] if tr.get("mode") == "text"]
    # ξ, ξ̂ and y(x) in three colours; seed 002's a, â in the legend; the legend above the plot
    (fit,) = by_role["fit"]
    assert len({fit["line"]["color"], up["line"]["color"], low["line"]["color"]}) == 3
    names = [tr.get("name", "") for tr in fig["data"]]
    assert "α" not in "".join(names) and any("a or â = C" in n for n in names)
    legend = fig["layout"]["legend"]
    assert legend["yanchor"] == "bottom" and legend["y"] >= 1
    x0, x1 = fig["layout"]["xaxis"]["range"]
    assert x0 < m.X.min() < m.X.max() < x1


def _sub(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def test_a_point_beyond_the_pages_range_is_named():
    x, t = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 0.5])
    assert R.point_refusal(x, t) is None
    assert R.point_refusal(x, np.array([0.0, 1001.0, -5000.0])).startswith(
        "Point 2 has t = 1001: this page takes |x| and |t| up to 1000")
    assert R.point_refusal(np.array([0.0, -1000.0, np.inf]), t).startswith("Point 3 has x = ∞")
    with pytest.raises(ValueError, match="Point 1 has x = 2000"):
        R.run(np.array([2000.0, 0.0]), np.array([0.0, 1.0]), {})


def test_progress_figure_is_smos_trace(answer):
    _, _, a = answer
    fig = F.progress_figure(a.model)
    n = len(a.model.trace.gap)
    assert n <= F.MAX_CURVE and fig["data"][0]["y"].tolist() == a.model.trace.gap.tolist()
    x, t = R.generated("sine", 100, 0.3, 2)             # a longer run: thinned, the last kept
    long = R.run(x, t, {"C": 1000.0, "sigma": 0.3, "epsilon": 0.01}).model
    fig = F.progress_figure(long)
    gap, it = fig["data"][0]["y"], fig["data"][0]["x"]
    assert len(long.trace.gap) > F.MAX_CURVE and len(gap) == F.MAX_CURVE
    assert it[-1] == len(long.trace.gap) and gap[-1] == long.trace.gap[-1]
    np.testing.assert_array_equal(gap, long.trace.gap[it - 1])
    qp = R.run(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 0.0]), {"solver": "qp"})
    assert F.progress_figure(qp.model) is None and qp.model.converged


def test_refusals_name_what_to_change():
    assert "at least 2 points" in R.refusal(1, R.check_settings({}))
    assert "generate fewer points" in R.refusal(R.MAX_POINTS + 1, R.check_settings({}))
    with pytest.raises(ValueError, match="at most 300"):
        R.run(np.arange(301.0), np.zeros(301), {})
    with pytest.raises(ValueError, match="epsilon must be"):
        R.check_settings({"epsilon": -1.0})
    with pytest.raises(ValueError, match="solver"):
        R.check_settings({"solver": "newton"})


def test_smo_stops_itself_before_the_workers_budget():
    """An ill-conditioned problem (cubic kernel, C = 10⁴ on 300 points) needs far more SMO
    steps than the budget allows: the answer comes back, not converged, saying why. (A
    0.2 s budget here; the page runs the same problem with the default one:
    tests/test_page_regression.py.)"""
    x, t = R.generated("step", R.MAX_POINTS, 0.1, 3)
    a = R.run(x, t, {"kernel": "polynomial", "degree": 3, "C": 1e4, "epsilon": 0.01},
              time_budget=0.2)
    assert not a.model.converged and "time budget" in a.model.status
    assert "smaller C" in a.model.status
