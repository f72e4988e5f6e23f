"""The Generalisation page in Chromium: opened by its own URL, it shows the split's accuracies
and the cross-validation grid with the engine's numbers, and answers a new seed within the
budget."""

from __future__ import annotations

import time
import warnings

import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine import model_selection as ms
from ui.generalisation import compute as GC

pytestmark = pytest.mark.browser

#: 2 s of budget per computation, and the page's run and drawing around it on a loaded machine
ANSWER_S = 15


def test_split_and_grid_with_the_engines_numbers(page):
    page.goto(page.app_url + "/generalisation")
    page.get_by_text("The chosen model, on all 200 points").wait_for()
    d = datasets.moons(n=200, noise=0.3, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        grid = ms.cross_validate(d.X, d.y, "gaussian", GC.DEFAULT_CS, GC.DEFAULT_SIGMAS,
                                 k=GC.DEFAULT_K, budget_s=600)
        r = ms.split_and_fit(d.X, d.y, se.Gaussian(0.05), 1000.0, seed=0)
    metric = page.locator("[data-testid=stMetric]").filter(has_text="test accuracy")
    assert f"{100 * r.test_accuracy:.1f} %" in metric.inner_text()
    i, j = grid.best
    best = f"{100 * grid.mean_accuracy[i, j]:.1f} %"
    cell = page.locator(".js-plotly-plot text", has_text=best)   # the heatmaps' cell labels
    assert cell.count() >= 1
    page.get_by_text("overfitting").first.wait_for()
    t0 = time.monotonic()
    seed = page.locator("[data-testid=stSidebar] [data-testid=stNumberInput]").filter(
        has_text="seed (split and folds)")
    seed.locator("[data-testid=stNumberInputStepUp]").click()   # seed 0 → 1
    page.get_by_text("points held out, seed 1.").wait_for(timeout=ANSWER_S * 1000)
    page.get_by_text("The chosen model, on all 200 points").wait_for(timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S
    assert not page.js_errors
