"""The Regression page under streamlit's AppTest: what its figure, its numbers and its
messages show, against the engine's ε-SVR and scikit-learn's SVR recomputed here."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.svm import SVR
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine.datasets_regression import curve
from tests.plotly_json import component_figure
from tests.plotly_json import page_ok as ok
from ui.regression.page_state import Regression

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "8_regression.py")
TIMEOUT = 300



def start() -> AppTest:
    return ok(AppTest.from_file(PAGE, default_timeout=TIMEOUT).run())


def points(at: AppTest) -> pd.DataFrame:
    (df,) = [d.value for d in at.dataframe if "ξ̂" in d.value.columns]
    return df


def numbers(at: AppTest) -> dict:
    (t,) = at.table
    return t.value["value"].to_dict()


def latex_value(at: AppTest, marker: str) -> float:
    (text,) = [x.value for x in at.latex if marker in x.value]
    return float(re.findall(r"= (-?[0-9.e+-]+)", text.replace("\\end{aligned}", ""))[-1])


def figure(at: AppTest) -> dict:
    """The figure the page sends to its click plot (typed arrays decoded)."""
    return component_figure(at, "rg.plot")


def test_default_fit_is_the_engines_and_scikit_learns():
    at = start()
    d = curve("sine", n=30, noise=0.2, seed=0)
    m = se.fit_svr(d.x, d.t, se.Gaussian(sigma=1.0), C=10.0, epsilon=0.2)
    ref = SVR(kernel="rbf", gamma=0.5, C=10.0, epsilon=0.2, tol=1e-10).fit(d.x[:, None], d.t)
    df = points(at)
    assert len(df) == 30
    np.testing.assert_allclose(df["y(x)"], ref.predict(d.x[:, None]), atol=1e-4)
    np.testing.assert_allclose(df["ξ"], m.xi, atol=1e-12)
    np.testing.assert_allclose(df["ξ̂"], m.xi_hat, atol=1e-12)
    assert latex_value(at, "b = ") == pytest.approx(ref.intercept_[0], abs=1e-4)
    assert latex_value(at, r"\min") == pytest.approx(m.primal_objective, rel=1e-5)
    assert latex_value(at, r"\max") == pytest.approx(m.dual_objective, rel=1e-5)
    nums = numbers(at)
    assert nums["support vectors: aᵢ > 0 or âᵢ > 0"] == f"{len(m.support)} of 30"
    assert nums["outside the tube: aᵢ = C or âᵢ = C"] == str(len(m.outside))
    assert nums["on the tube's edge: |tᵢ − y(xᵢ)| = ε"] == str(len(m.on_edge))
    (msg,) = [s.value for s in at.success]
    assert "SMO" in msg and "converged: KKT conditions hold" in msg
    fig = figure(at)
    (fit,) = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "fit"]
    np.testing.assert_allclose(fit["y"], m.predict(np.array(fit["x"])), atol=1e-9)
    outside = [t for t in fig["data"] if (t.get("meta") or {}).get("kind") == "outside"]
    assert len(outside[0]["x"]) == len(m.outside)
    assert set(df["where"]) <= {"inside the tube", "on the tube's edge (SV)",
                                "outside the tube (SV, at C)"}


def test_the_qp_gives_the_same_function():
    at = start()
    smo = points(at)
    at.radio(key="rg.solver").set_value("qp").run()
    qp = points(ok(at))
    np.testing.assert_allclose(qp["y(x)"], smo["y(x)"], atol=1e-5)
    (msg,) = [s.value for s in at.success]
    assert "QP (cvxopt" in msg
    assert not [c for c in at.get("expandable") if "SMO's progress" in str(c.label)]


def test_settings_move_the_fit():
    at = start()
    at.select_slider(key="rg.epsilon").set_value(0.5).run()
    at.radio(key="rg.kernel").set_value("linear").run()
    at.selectbox(key="rg.function").set_value("linear").run()
    df = points(ok(at))
    d = curve("linear", n=30, noise=0.2, seed=0)
    m = se.fit_svr(d.x, d.t, se.Linear(), C=10.0, epsilon=0.5)
    np.testing.assert_allclose(df["y(x)"], m.f_train, atol=1e-6)
    assert numbers(at)["C, ε"] == "10, 0.5"


def test_placed_points_start_empty_and_fit_from_two():
    at = start()
    at.radio(key="rg.source").set_value("place").run()
    ok(at)          # a step to take, said as such: not a red error
    assert not at.error and any("needs at least 2" in e.value for e in at.info)
    for x, t in ((0.0, 0.0), (1.0, 1.0), (2.0, 0.5)):
        at.number_input(key="rg.add.x").set_value(x).run()
        at.number_input(key="rg.add.t").set_value(t).run()
        at.button(key="rg.add.go").click().run()
    df = points(ok(at))
    assert df[["x", "t"]].to_numpy().tolist() == [[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]]
    at.button(key="rg.undo").click().run()
    assert len(points(ok(at))) == 2
    at.button(key="rg.clear").click().run()
    assert any("0 points so far" in e.value for e in ok(at).info) and not at.error


def test_a_problem_smo_cannot_finish_says_so():
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    # the settings in one run (six widget runs would fit five problems on the way)
    for key, value in {"n": 300, "function": "step", "kernel": "polynomial", "degree": 3,
                       "C": 10000.0, "epsilon": 0.01}.items():
        at.session_state["rg." + key] = value
    ok(at.run())
    assert at.slider(key="rg.n").value == 300 and at.select_slider(key="rg.C").value == 10000
    (w,) = [x.value for x in at.warning]
    assert "not converged" in w and "time budget" in w and "smaller C" in w


def test_a_stopped_fit_says_what_to_change(monkeypatch):
    from ui.serving import budget

    def stopped(*a, **k):
        raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")

    monkeypatch.setattr(budget, "run", stopped)
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.session_state["rg.seed"] = 4321          # data no earlier test cached
    at.run()
    ok(at)
    (err,) = [e.value for e in at.error]
    assert "2 s budget" in err and "fewer points" in err and "larger ε" in err
    assert any("30 points" in c.value for c in at.caption)   # the points are kept


def test_a_fit_cut_by_smos_time_limit_is_not_served_from_the_cache(monkeypatch):
    from ui.regression import compute as R

    def page() -> AppTest:
        at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
        # 300 points: SMO checks its clock every 13,333 steps, and this fit needs ~34,000
        for key, value in {"n": 300, "function": "step", "C": 100.0, "epsilon": 0.2,
                           "seed": 8}.items():
            at.session_state["rg." + key] = value
        return ok(at.run())

    monkeypatch.setattr(R, "SMO_BUDGET_S", 1e-9)       # SMO's time limit hit at once
    at = page()
    (w,) = [x.value for x in at.warning]
    assert "not converged: stopped at the time budget" in w
    monkeypatch.setattr(R, "SMO_BUDGET_S", 60.0)       # the same request, time enough
    at = page()
    assert not at.warning
    (s,) = [x.value for x in at.success]
    assert "converged: KKT conditions hold" in s


@pytest.mark.parametrize("x, t, named", [(1e200, 0.0, "x = 1·10²⁰⁰"),
                                         (0.5, -1e200, "t = −1·10²⁰⁰")])
def test_a_point_far_out_is_refused_by_name_and_kept(x, t, named):
    at = start()
    at.number_input(key="rg.add.x").set_value(x).run()
    at.number_input(key="rg.add.t").set_value(t).run()
    at.button(key="rg.add.go").click().run()
    ok(at)
    (err,) = [e.value for e in at.error]
    assert err.startswith(f"Point 31 has {named}: this page takes |x| and |t| up to 1000")
    assert "Undo last point" in err
    assert not at.success and not [d for d in at.dataframe if "ξ̂" in d.value.columns]
    assert any("31 points" in c.value for c in at.caption)          # the point is kept
    assert Regression.of(at.session_state).added == [(x, t)]
    at.button(key="rg.undo").click().run()                          # and can be taken back
    assert not ok(at).error and len(points(at)) == 30
