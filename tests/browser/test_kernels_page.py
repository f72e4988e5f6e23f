"""The Kernels page in Chromium: it takes the Playground's points, draws the 3-D feature space
(WebGL), and answers a change of c or of the function within the budget."""

from __future__ import annotations

import time

import numpy as np
import pytest
from widgets import choose

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import feature_maps as fm
from ui.kernels import text as KT
from ui.shared.fitting import SMO_TOL, smo_max_iter
from ui.shared.numbers import fmt_num

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
#: 2 s of budget per computation, and the page's run and drawing around it on a loaded machine
ANSWER_S = 15


def open_kernels_with_the_book_nonlinear_data(page):
    page.goto(page.app_url + "/?v=1&d=nonlinear")          # the Playground, by its link
    page.locator(".svmlab-canvas[data-draws]").wait_for()
    page.locator(NAV, has_text="Kernels").click()
    page.get_by_text("Nonlinear: a bump no line separates (slide 25): n = 30 points, C = 4"
                     ).wait_for()
    d = datasets.nonlinear()
    m = se.fit(d.X, d.y, kernel=se.Polynomial(2, 0.0), C=4.0, tol=SMO_TOL,
               max_iter=smo_max_iter(d.n))
    page.get_by_text(f"Preimage: {KT.preimage_equation(fm.feature_plane(m))}").wait_for()


def test_the_playgrounds_points_lifted_into_feature_space(page):
    open_kernels_with_the_book_nonlinear_data(page)
    scene = page.locator(".js-plotly-plot .gl-container canvas").first   # the 3-D scatter
    scene.wait_for()
    assert scene.bounding_box()["width"] > 200
    page.get_by_text("has three coordinates: this is the whole feature space").wait_for()
    t0 = time.monotonic()
    page.get_by_text("c = 1", exact=True).click()
    page.get_by_text("has six coordinates").wait_for(timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S
    page.get_by_text("K(x1, x2) = (x1ᵀx2 + 1)²").wait_for()
    assert page.get_by_text("✓ equal to rounding").count() == 1
    assert not page.js_errors


def test_a_non_kernel_shows_its_negative_eigenvalue(page):
    open_kernels_with_the_book_nonlinear_data(page)
    X = datasets.nonlinear().X
    lam = np.linalg.eigvalsh(gram.gram_matrix(se.Polynomial(2, -1.0), X))
    t0 = time.monotonic()
    choose(page, "Function", "polynomial (xᵀz + c)^q with c < 0 — not a kernel")
    warn = page.get_by_text(f"Mercer check: not positive semi-definite: λ_min = {fmt_num(lam[0])}")
    warn.wait_for(timeout=ANSWER_S * 1000)
    assert time.monotonic() - t0 < ANSWER_S
    page.get_by_text("cvxopt stopped without an answer").wait_for()
    assert not page.js_errors
