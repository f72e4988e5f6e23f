"""Take it away, in Chromium: the Playground's plot saved as PNG and SVG with its title and
settings (the toolbar's two buttons, ui/browser/plot_export.js), the model downloaded as JSON
and shown as scikit-learn code (ui/playground/takeaway_panel.py). The files are read back and
checked against the engine's fit of the same points."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from canvas_page import D2, open_app

from svm_engine import datasets, export
from ui.shared import fitting
from ui.shared import palette as P
from ui.shared.settings import Settings

pytestmark = pytest.mark.browser

SETTINGS = "linear kernel · hinge loss (k = 1) · C = 1 · free b · SMO · n = 18"


def rgb(hex_color: str) -> str:
    """A palette colour as the browser writes it in an SVG's style: rgb(r, g, b)."""
    return "rgb({}, {}, {})".format(*(int(hex_color[k:k + 2], 16) for k in (1, 3, 5)))


def save(page, title_part: str, tmp_path, name: str):
    page.hover(".svmlab-canvas .js-plotly-plot")
    with page.expect_download() as d:
        page.locator(f".modebar-btn[data-title*='{title_part}']").click()
    path = tmp_path / name
    d.value.save_as(path)
    return d.value.suggested_filename, path


def test_the_plot_saves_as_png_and_svg_with_title_and_settings(page, tmp_path):
    open_app(page, D2)
    titles = page.evaluate("[...document.querySelectorAll('.svmlab-canvas .modebar-btn')]"
                           ".map(b => b.getAttribute('data-title'))")
    assert "Download plot as a png" not in titles          # Plotly's own button is replaced
    name, svg = save(page, "as SVG", tmp_path, "plot.svg")
    assert name == "svm_lab.svg"
    text = svg.read_text()
    assert text.startswith("<svg") and datasets.d2().title in text
    assert SETTINGS in text
    # the points are in the image, in their class colours (10 of +1, 8 of −1, plus the legend)
    assert text.count(f"fill: {rgb(P.BLUE)}") >= 10
    assert text.count(f"fill: {rgb(P.VERMILLION)}") >= 8
    assert not page.locator(".svmlab-canvas .gtitle").count()        # no title on screen
    name, png = save(page, "as PNG", tmp_path, "plot.png")
    head = png.read_bytes()[:24]
    assert name == "svm_lab.png" and head[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", head[16:24])
    size = page.evaluate("(() => { const l = document.querySelector('.svmlab-canvas')"
                         ".__state.plot._fullLayout; return [l.width, l.height]; })()")
    assert (w, h) == (2 * size[0], 2 * (size[1] + 64))     # at scale 2, the title's band on top
    assert not page.js_errors, page.js_errors


def test_the_model_downloads_as_json_and_shows_as_scikit_learn_code(page, tmp_path):
    open_app(page, D2)
    page.locator("[data-testid=stButtonGroup]").get_by_text("Import / export",
                                                            exact=True).click()
    button = page.get_by_role("button", name="Download the model (JSON)")
    with page.expect_download() as d:
        button.click()
    path = tmp_path / "model.json"
    d.value.save_as(path)
    assert d.value.suggested_filename == "svm_lab_model_book_d2_non_separable_slide_21.json"
    back = export.from_json(path.read_text())
    ds = datasets.d2()
    model = fitting.fit_points(ds.X, ds.y, Settings.parse(
        {"kernel": "linear", "loss": "hinge", "C": 1.0, "bias": "free", "solver": "smo"})).model
    G = np.random.default_rng(0).uniform(-1, 7, size=(200, 2))
    np.testing.assert_array_equal(back.decision_function(G), model.decision_function(G))
    assert back.settings["C"] == 1.0 and back.converged
    code = page.locator("[data-testid=stCode]").first
    code.get_by_text("from sklearn.svm import SVC").wait_for()
    assert "clf = SVC(C=1.0, kernel=\"linear\", tol=1e-8)" in code.inner_text()
    code.hover()
    page.get_by_role("button", name="Copy to clipboard").first.wait_for()
    assert not page.js_errors, page.js_errors
