"""The Worked examples page's SMO step in its (λ₁, λ₂) box, in Chromium: drawn by the step
player's own renderer (ui/browser/step_box.js through box_chart.js) from the numbers the page
sent, named and described in words from those numbers, its PNG and SVG buttons out of the
Tab order as a Plotly toolbar's are, and no request leaving the server."""

from __future__ import annotations

import re
import struct
from urllib.parse import urlparse

import pytest
from axe import run_axe, serious

from svm_engine import datasets
from ui.shared.numbers import fmt_num
from ui.shared.settings import Settings
from ui.step_through import record, snapshot
from ui.worked_examples import examples as E

pytestmark = pytest.mark.browser

BOX = ".svmlab-box"
EXAMPLE = next(e for e in E.EXAMPLES if e.key == "two_point")
WORDS = """(pic) => {
  const id = pic.getAttribute('aria-describedby');
  return {role: pic.getAttribute('role'), name: pic.getAttribute('aria-label'),
          description: id ? document.getElementById(id).textContent : null,
          svgHidden: pic.querySelector('svg').getAttribute('aria-hidden'),
          text: pic.querySelector('svg').textContent,
          circles: pic.querySelectorAll('svg circle').length,
          stars: pic.querySelectorAll('svg polygon').length,
          draws: Number(pic.dataset.draws)};
}"""


def the_step() -> dict:
    d = datasets.two_point()
    run = record.build_run(d.X, d.y, Settings.from_dataset(d.settings), "smo")
    return snapshot.step_record(run, 1)


def open_box(page, seen: list[str]):
    page.on("request", lambda r: seen.append(r.url))
    page.goto(page.app_url + "/worked_examples")
    page.get_by_role("tab", name=EXAMPLE.tab).click()
    page.locator(f"{BOX} .sb-pic svg").wait_for(timeout=180_000)
    page.wait_for_selector("[data-test-script-state=notRunning]", state="attached")
    return page.locator(f"{BOX} .sb-pic")


def test_the_box_is_drawn_named_and_described_from_the_steps_numbers(page):
    seen: list[str] = []
    pic = open_box(page, seen)
    got = pic.evaluate(WORDS)
    r = the_step()
    i, j = r["i"] + 1, r["j"] + 1

    def pt(a, b):
        return f"({fmt_num(r[a])}, {fmt_num(r[b])})"

    assert got["role"] == "figure" and got["svgHidden"] == "true"
    assert got["name"] == f"The (α{i}, α{j}) box of step 1."
    d = got["description"]
    assert d.startswith("Box [0, ∞)²; the pair moves along the line")
    assert f"Old point {pt('ai_old', 'aj_old')}" in d
    assert f"unclipped optimum {pt('ai_unclipped', 'aj_unclipped')}" in d
    assert f"new point {pt('ai_new', 'aj_new')} (not clipped)." in d
    # the picture: the open box (C = ∞), ● old and ★ new, their labels
    assert "Step 1: the pair (" in got["text"] and "the box is open" in got["text"]
    assert got["circles"] == 1 and got["stars"] == 1 and got["draws"] >= 1
    assert "new = unclipped" in got["text"] and "old" in got["text"]
    # nothing of it is a serious axe finding
    found = [f for f in serious(run_axe(page)) if "svmlab-box" in f.html or "sb-" in f.html]
    assert not found, "\n".join(map(str, found))
    host = urlparse(page.app_url).netloc
    assert [u for u in seen if urlparse(u).scheme in ("http", "https")
            and urlparse(u).netloc != host] == []
    assert not page.js_errors, page.js_errors


def test_the_box_saves_as_svg_and_png_with_its_title_and_tab_passes_it_by(page, tmp_path):
    pic = open_box(page, [])
    buttons = page.locator(f"{BOX} button[data-format]")
    assert buttons.count() == 2
    assert [buttons.nth(k).get_attribute("tabindex") for k in range(2)] == ["-1", "-1"]
    # Tab from the example's tab walks past the picture, as past a Plotly chart's toolbar
    page.get_by_role("tab", name=EXAMPLE.tab).focus()
    for _ in range(8):
        page.keyboard.press("Tab")
        assert not page.evaluate(f"!!document.activeElement.closest('{BOX}')")
    width = pic.evaluate("p => Number(p.querySelector('svg').getAttribute('width'))")
    page.hover(BOX)
    with page.expect_download() as d:
        page.locator(f"{BOX} button[data-format=svg]").click()
    assert d.value.suggested_filename == "svm_lab_we_plot_two_point_1.svg"
    d.value.save_as(tmp_path / "box.svg")
    text = (tmp_path / "box.svg").read_text(encoding="utf-8")
    words = " ".join(re.sub(r"<[^>]+>", " ", text).split())  # a long title takes two lines
    assert text.startswith("<svg") and f"{EXAMPLE.number}. {EXAMPLE.title}" in words
    assert "n = 2" in words and "Step 1: the pair (" in words  # the settings, the picture
    with page.expect_download() as d:
        page.locator(f"{BOX} button[data-format=png]").click()
    assert d.value.suggested_filename == "svm_lab_we_plot_two_point_1.png"
    d.value.save_as(tmp_path / "box.png")
    head = (tmp_path / "box.png").read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", head[16:24])
    assert w == 2 * width and h > 2 * 420   # twice the picture, with the title's band on top
    assert not page.js_errors, page.js_errors
