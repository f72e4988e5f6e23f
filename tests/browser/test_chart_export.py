"""Take it away, beyond the Playground, in Chromium: a page's chart (the Kernels page's Gram
matrix, drawn by ui/browser/chart.js) and the Step-through's step player save as PNG and SVG
from their toolbars' two buttons (ui/browser/plot_export.js), with the title and the settings
line on top of the image and never on the screen. The step player's image holds the shading
and lines it draws on canvases over and under the Plotly plot, and says which step it shows."""

from __future__ import annotations

import re
import struct

import pytest

from svm_engine import datasets

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
GRAM = ".st-key-ker-fig-gram .svmlab-chart"
PLAYER = ".svmlab-player"


def save(page, plot: str, title_part: str, tmp_path, name: str):
    """Press the toolbar button of ``plot`` whose title has ``title_part``; the saved file's
    suggested name and its path."""
    page.hover(plot)
    with page.expect_download() as d:
        page.locator(f"{plot} .modebar-btn[data-title*='{title_part}']").click()
    path = tmp_path / name
    d.value.save_as(path)
    return d.value.suggested_filename, path


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def svg_words(text: str) -> str:
    """The SVG's text as one line: its elements' contents, one space between (a title or a
    settings line of a narrow plot takes more than one line)."""
    return " ".join(re.sub(r"<[^>]+>", " ", text).replace("&amp;", "&").split())


def says_in_order(text: str, settings: str) -> bool:
    """Every part of the settings line, in order, in the SVG's words."""
    words, at = svg_words(text), 0
    for part in settings.split(" · "):
        at = words.find(part, at)
        if at < 0:
            return False
    return True


def svg_size(text: str) -> tuple[float, float]:
    m = re.match(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', text)
    return float(m[1]), float(m[2])


def plot_size(page, plot: str) -> tuple[int, int]:
    return tuple(page.evaluate(f"(() => {{ const l = document.querySelector('{plot}')"
                               "._fullLayout; return [l.width, l.height]; })()"))


def test_a_pages_chart_saves_as_svg_and_png_with_its_title_and_settings(page, tmp_path):
    page.goto(page.app_url + "/kernels")
    label = page.locator("[data-testid=stMarkdown] strong", has_text="Gaussian").first
    label.wait_for(timeout=120_000)
    page.wait_for_function(f"document.querySelector('{GRAM}') && "
                           f"document.querySelector('{GRAM}').dataset.draws")
    d1 = datasets.d1()
    settings = f"{d1.title}, n = {d1.n} · {label.inner_text()} · C = 4"   # the page's words
    titles = page.evaluate(f"[...document.querySelectorAll('{GRAM} .modebar-btn')]"
                           ".map(b => b.getAttribute('data-title'))")
    assert not [t for t in titles if t and t.startswith("Download plot")], titles  # Plotly's own
    name, svg = save(page, GRAM, "as SVG", tmp_path, "gram.svg")
    assert name == "svm_lab_ker_fig_gram.svg"
    text = svg.read_text()
    assert text.startswith("<svg")
    assert "Kᵢⱼ = K(xᵢ, xⱼ)" in svg_words(text)         # the figure's own title, on top
    assert says_in_order(text, settings), (settings, svg_words(text)[:300])
    assert 'class="hm"' in text                         # the matrix (a heatmap) is there
    assert page.get_by_text(settings).count() == 0     # the line is only in the image
    w, h = plot_size(page, GRAM)
    sw, sh = svg_size(text)
    assert sw == w and sh >= h + 64                    # the title's band on top
    name, png = save(page, GRAM, "as PNG", tmp_path, "gram.png")
    assert name == "svm_lab_ker_fig_gram.png"
    assert png_size(png) == (round(2 * sw), round(2 * sh))     # the same image, at scale 2
    assert not page.js_errors, page.js_errors


def test_the_step_players_image_has_its_canvas_layers_and_its_step(page, tmp_path):
    page.goto(page.app_url + "/")
    page.locator(NAV, has_text="Step-through").click()
    counter = page.locator(f"{PLAYER} [data-role=counter]")
    counter.wait_for()
    page.wait_for_function(f"(() => {{ const r = document.querySelector('{PLAYER}');"
                           " return r && r.__state && r.__state.dec.ready; })()")
    for _ in range(3):
        page.locator(f"{PLAYER} button[data-act=next]").click()
    page.wait_for_function(f"document.querySelector('{PLAYER} [data-panel=decision]')"
                           ".dataset.step === '3'")
    T = int(counter.inner_text().split("/")[1].replace(",", ""))
    decision = f"{PLAYER} [data-panel=decision] .sp-plot"
    name, svg = save(page, decision, "as SVG", tmp_path, "step.svg")
    assert name == "svm_lab_smo_step_decision.svg"
    text = svg.read_text()
    words = svg_words(text)
    assert text.startswith("<svg") and "SMO, step by step: the decision function h(x)" in words
    d1 = datasets.d1()
    assert says_in_order(text, f"{d1.title} · n = {d1.n} · kernel linear · C = ∞ (hard margin)"
                               f" · loss hinge (k = 1) · free b · SMO · step 3 of {T}"), words
    # the shading (under) and the lines (over) are pictures in the image, in their places
    layers = re.findall(r'<image [^>]*href="data:image/png;base64,', text)
    assert len(layers) == 2, len(layers)
    sw, sh = svg_size(text)
    box = [float(v) for v in re.search(r'<image [^>]*?y="([\d.]+)" width="([\d.]+)" '
                                       r'height="([\d.]+)"', text).groups()]
    assert box[0] == sh - plot_size(page, decision)[1]   # below the band, where it is shown
    name, png = save(page, decision, "as PNG", tmp_path, "step.png")
    assert name == "svm_lab_smo_step_decision.png"
    assert png_size(png) == (round(2 * sw), round(2 * sh))
    curves = f"{PLAYER} [data-panel=curves] .sp-plot"
    name, svg = save(page, curves, "as SVG", tmp_path, "curves.svg")
    assert name == "svm_lab_smo_step_curves.svg" and f"step 3 of {T}" in svg_words(svg.read_text())
    assert not page.js_errors, page.js_errors
