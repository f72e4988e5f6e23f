"""The Generalisation page under streamlit's AppTest: what it shows, checked against the
engine's own split and cross-validation."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from svm_engine import model_selection as ms
from tests.plotly_json import chart_specs, start_page
from tests.plotly_json import page_ok as ok
from ui.generalisation import compute as GC
from ui.serving import budget

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "6_generalisation.py")
TIMEOUT = 300


def start(**gen) -> AppTest:
    return start_page(PAGE, "gnl", timeout=TIMEOUT, **gen)




def heatmap(at: AppTest, which: str) -> dict:
    for s in chart_specs(at):
        for t in s["data"]:
            if t.get("meta", {}).get("role") == "cv" and t["meta"]["which"] == which:
                return s
    raise AssertionError(f"no {which} heatmap")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def text(at: AppTest) -> str:
    return " ".join(str(m.value) for m in (*at.markdown, *at.caption, *at.warning))


def moons():
    d = datasets.moons(n=200, noise=0.3, seed=0)    # the page's default points
    return d.X, d.y


def test_split_shows_overfitting_at_small_sigma_and_large_c():
    at = start()
    X, y = moons()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        r = ms.split_and_fit(X, y, se.Gaussian(0.05), 1000.0, test_fraction=0.3, seed=0)
    shown = metrics(at)
    assert shown["training accuracy"] == f"{100 * r.train_accuracy:.1f} %" == "100.0 %"
    assert shown["test accuracy"] == f"{100 * r.test_accuracy:.1f} %"
    assert r.test_accuracy < 0.8
    assert "**overfitting**" in text(at) and "A larger σ" in text(at)
    split = next(s for s in chart_specs(at)
                 if any(t.get("meta", {}).get("role") == "test" for t in s["data"]))
    tests = [t for t in split["data"] if t.get("meta", {}).get("role") == "test"]
    assert sum(len(t["x"]) for t in tests) == len(r.test) == 60
    wrong = next(t for t in split["data"] if t.get("meta", {}).get("role") == "test_wrong")
    assert len(wrong["x"]) == round((1 - r.test_accuracy) * 60)


def test_a_smoother_model_generalises():
    at = start()
    at.select_slider(key="gnl.C").set_value(1.0).run()
    at.select_slider(key="gnl.sigma").set_value(1.0).run()
    ok(at)
    X, y = moons()
    r = ms.split_and_fit(X, y, se.Gaussian(1.0), 1.0, seed=0)
    assert metrics(at)["test accuracy"] == f"{100 * r.test_accuracy:.1f} %"
    (said,) = [str(m.value) for m in at.markdown if str(m.value).startswith("Training accuracy")]
    assert "The two are close" in said and "overfitting" not in said


def test_cv_heatmap_best_cell_and_chosen_model():
    at = start()
    X, y = moons()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        grid = ms.cross_validate(X, y, "gaussian", GC.DEFAULT_CS, GC.DEFAULT_SIGMAS,
                                 k=GC.DEFAULT_K, seed=0, budget_s=600)
    cv = heatmap(at, "held-out")
    z = np.array([[np.nan if v is None else v for v in row] for row in cv["data"][0]["z"]])
    np.testing.assert_allclose(z, grid.mean_accuracy, atol=1e-12)
    i, j = grid.best
    (rect,) = cv["layout"]["shapes"]
    assert (rect["x0"] + 0.5, rect["y0"] + 0.5) == (j, i)
    train = heatmap(at, "training")["data"][0]["z"]
    np.testing.assert_allclose(np.array(train, float), grid.mean_train_accuracy, atol=1e-12)
    best = f"C = {grid.Cs[i]:g}, σ = {grid.values[j]:g}"
    titles = [s["layout"].get("title", {}).get("text", "") for s in chart_specs(at)]
    assert f"The chosen model, on all 200 points: {best}" in titles
    t = text(at)
    assert f"The best cell, {best}, scores {100 * grid.mean_accuracy[i, j]:.1f} %" in t
    flexible = f"At C = {max(GC.DEFAULT_CS):g}, σ = {min(GC.DEFAULT_SIGMAS):g}"
    assert f"{flexible} (the most flexible cell)" in t and "**overfitting**" in t
    cells = len(GC.DEFAULT_CS) * len(GC.DEFAULT_SIGMAS)
    assert f"all {cells} cells done ({cells * GC.DEFAULT_K} fits" in t


def test_polynomial_grid_columns_are_degrees():
    at = start(n=60)
    at.radio(key="gnl.family").set_value("polynomial").run()
    ok(at)
    cols = heatmap(at, "held-out")["layout"]["xaxis"]["ticktext"]
    assert cols == [f"q = {q}" for q in GC.DEFAULT_DEGREES]
    assert "k-fold cross-validation over C × degree" in [str(h.value) for h in at.header][1]


def test_a_grid_stopped_at_its_budget_says_which_cells_were_done(monkeypatch):
    monkeypatch.setattr(GC, "CV_BUDGET_S", 1e-12)   # the page passes it to the worker
    at = start(n=80)
    (warn,) = [str(w.value) for w in at.warning]
    cells = len(GC.DEFAULT_CS) * len(GC.DEFAULT_SIGMAS)
    assert "stopped at the" in warn and f"0 of {cells} cells done;" in warn
    assert "use fewer values or fewer points, or fewer folds" in warn
    titles = [s["layout"].get("title", {}).get("text", "") for s in chart_specs(at)]
    assert not any(t.startswith("The chosen model") for t in titles)


def test_a_grid_over_the_work_cap_is_refused_with_what_to_change():
    at = start(n=2000)
    errors = [str(e.value) for e in at.error]
    cells, k = len(GC.DEFAULT_CS) * len(GC.DEFAULT_SIGMAS), GC.DEFAULT_K
    n_train = 2000 - 2000 // k
    assert any(f"{cells} cells × {k} folds × {n_train} training points = "
               f"{cells * k * n_train:,} is over the limit of 40,000" in e
               for e in errors), errors
    assert metrics(at)["training accuracy"]   # the split above still answers


def test_empty_grid_and_stopped_runs_are_errors(monkeypatch):
    at = start(n=90)
    at.multiselect(key="gnl.Cs").set_value([]).run()
    ok(at)
    assert [str(e.value) for e in at.error] == ["Choose at least one C value and one σ."]

    def stopped(*args, **kwargs):
        raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")

    monkeypatch.setattr(budget, "run", stopped)
    at = start(n=110)      # points no other test fits: nothing cached
    errors = [str(e.value) for e in at.error]
    assert len(errors) == 2 and all("Try fewer points, fewer grid values" in e for e in errors)


@pytest.mark.parametrize("k", [5])
def test_folds_follow_the_widget(k):
    at = start(n=60)
    at.number_input(key="gnl.k").set_value(k).run()
    ok(at)
    assert heatmap(at, "held-out")["layout"]["title"]["text"] == (
        f"held-out accuracy (mean over {k} folds)")


def test_a_grid_cut_by_its_time_limit_is_not_served_from_the_cache(monkeypatch):
    def page(n: int) -> AppTest:
        at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
        at.session_state["gnl.gen.n"] = n
        return ok(at.run())

    cells = len(GC.DEFAULT_CS) * len(GC.DEFAULT_SIGMAS)
    monkeypatch.setattr(GC, "CV_BUDGET_S", 1e-12)       # the time limit hit at once
    at = page(70)                                       # points no other test fits
    (warn,) = [str(w.value) for w in at.warning]
    assert f"0 of {cells} cells done" in warn
    monkeypatch.setattr(GC, "CV_BUDGET_S", 60.0)        # the same request, time enough
    at = page(70)
    assert not [str(w.value) for w in at.warning if "stopped at the" in str(w.value)]
    assert f"all {cells} cells done" in text(at)


def test_the_verdict_agrees_with_both_accuracies_shown():
    """σ = 5, C = 0.01 on the moons: training 75.0 %, test 88.3 % (a lucky split). The page
    said "Both are low: underfitting" beside a test accuracy above every cross-validated
    cell; the words must fit both numbers: the training accuracy is low, the test one is not."""
    at = start()
    at.select_slider(key="gnl.C").set_value(0.01).run()
    at.select_slider(key="gnl.sigma").set_value(5.0).run()
    ok(at)
    shown = metrics(at)
    train = float(shown["training accuracy"].removesuffix(" %")) / 100
    test = float(shown["test accuracy"].removesuffix(" %")) / 100
    assert train < 0.8 <= test                    # the case of the issue (the page's numbers)
    words = text(at)
    assert "Both are low" not in words
    assert "training accuracy is low" in words and "underfitting" in words
    assert "higher than the training accuracy" in words
