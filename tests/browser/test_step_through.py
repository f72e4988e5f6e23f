"""The Step-through page in Chromium: Next redraws the pair and the (αᵢ, αⱼ) box; play/pause.

Each chart is a ``ui.step_plot`` element: its plot div carries ``data-step`` once Plotly has
drawn that step, and Plotly keeps the drawn figure on the div (``gd.data``, ``gd.layout``),
so the tests read what is on the screen. They wait on that visible state, never on sleeps,
except for the one check that needs time to pass (pause: the counter stays put).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from svm_engine import datasets
from ui import step_state as S
from ui.state import settings_from_dataset

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
COUNTER = '[data-testid="stMetricValue"]'


def plot(name: str) -> str:
    return f".st-key-stp-fig-{name} .svmlab-stepplot"


def open_step_through(page):
    page.goto(page.app_url + "/")
    # the menu as app.py's st.navigation titles it, then the page the way a user opens it
    page.locator(NAV, has_text="Step-through").click()
    page.locator(f"{plot('decision')}[data-step='0']").wait_for()
    page.locator(f"{plot('curves')}[data-step='0']").wait_for()
    assert re.fullmatch(r"0 / \d+", counter_text(page))


def counter_text(page) -> str:
    return page.locator(COUNTER).inner_text().strip()


def counter(page) -> tuple[int, int]:
    k, T = (int(v.replace(",", "")) for v in counter_text(page).split("/"))
    return k, T


def wait_step(page, k: int, charts=("decision", "box")):
    """Until the counter shows k and the given charts have drawn step k."""
    cond = " && ".join(
        f"(document.querySelector(\"{plot(c)}\") || {{dataset: {{}}}}).dataset.step === '{k}'"
        for c in charts
    )
    page.wait_for_function(
        f"(() => {{ const m = document.querySelector('{COUNTER}');"
        f" return m && m.textContent.trim().startsWith('{k} /') && {cond}; }})()"
    )


DRAWN = """(sel) => {
  // what Plotly has drawn in a chart: layout.meta and the traces by meta.role (_fullData:
  // the traces as drawn, typed arrays decoded)
  const gd = document.querySelector(sel);
  const byRole = {};
  gd._fullData.forEach((t) => {
    const role = t.meta && t.meta.role;
    if (role) byRole[role] = {x: Array.from(t.x || []), y: Array.from(t.y || [])};
  });
  return {meta: gd.layout.meta, traces: byRole,
          markers: gd.querySelectorAll('.scatterlayer .point').length};
}"""


def drawn(page, name: str) -> dict:
    return page.evaluate(DRAWN, plot(name))


def d1_run():
    ds = datasets.d1()
    return ds, S.build_run(ds.X, ds.y, settings_from_dataset(ds.settings), "smo")


def test_next_five_times_moves_the_pair_and_the_box(page):
    open_step_through(page)
    assert "Book D1" in page.locator("text=/n = 14/").first.inner_text()
    ds, run = d1_run()
    assert counter(page)[1] == run.n_steps
    seen = []
    for k in range(1, 6):
        page.locator(".st-key-stp-next button").click()
        wait_step(page, k, charts=("decision", "box", "alpha", "curves"))
        dec, box = drawn(page, "decision"), drawn(page, "box")
        r = S.step_record(run, k)
        pair = [r["i"] + 1, r["j"] + 1]
        # the highlighted pair on the scatter plot is this step's (i, j) …
        assert dec["meta"] == {"role": "decision", "step": k, "pair": pair}
        hl = dec["traces"]["highlight"]
        np.testing.assert_allclose(np.c_[hl["x"], hl["y"]], ds.X[[r["i"], r["j"]]])
        # … and the box diagram shows its old and new (αᵢ, αⱼ)
        assert box["meta"] == {"role": "box", "step": k, "pair": pair}
        old, new = box["traces"]["old"], box["traces"]["new"]
        assert (old["x"][0], old["y"][0]) == pytest.approx((r["ai_old"], r["aj_old"]))
        assert (new["x"][0], new["y"][0]) == pytest.approx((r["ai_new"], r["aj_new"]))
        assert box["markers"] >= 2  # the old and the new point are painted
        seen.append((tuple(pair), old["x"][0], old["y"][0], new["x"][0], new["y"][0]))
    assert all(a != b for a, b in zip(seen, seen[1:])), "a step left the box unchanged"
    assert len({s[0] for s in seen}) >= 2, "the highlighted pair never changed"
    assert not page.js_errors


def choose_speed(page, label: str):
    page.locator(".st-key-stp-speed").click()
    page.get_by_role("option", name=label, exact=True).click()
    page.wait_for_function(
        f"document.querySelector('.st-key-stp-speed input').value === '{label}'"
    )


def play_label(page) -> str:
    return page.locator(".st-key-stp-play button").inner_text()


def test_play_runs_and_pause_stops(page):
    open_step_through(page)
    _, T = counter(page)
    choose_speed(page, "1 step/s")  # T = 11 steps: about 9 s left after step 2
    page.locator(".st-key-stp-play button").click()
    page.locator(".st-key-stp-play button", has_text="Pause").wait_for()
    # play runs: the counter and the charts advance with no further clicks
    wait_step(page, 1)
    wait_step(page, 2)
    page.locator(".st-key-stp-play button").click()  # pause
    page.locator(".st-key-stp-play button", has_text="Play").wait_for()
    k_paused, _ = counter(page)
    assert 2 <= k_paused < T
    page.wait_for_timeout(3_500)  # three and a half ticks at 1 step/s
    assert counter(page) == (k_paused, T)
    assert page.locator(f"{plot('box')}").get_attribute("data-step") == str(k_paused)
    assert "Play" in play_label(page)
    assert not page.js_errors


def test_play_stops_by_itself_at_the_last_step(page):
    open_step_through(page)
    _, T = counter(page)
    choose_speed(page, "20 steps/s")
    page.locator(".st-key-stp-play button").click()
    wait_step(page, T, charts=("decision", "box", "curves"))
    page.locator(".st-key-stp-play button", has_text="Play").wait_for()
    assert counter(page) == (T, T)
    assert not page.js_errors
