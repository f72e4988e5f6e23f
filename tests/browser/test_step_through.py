"""The Step-through page in Chromium: the SMO step player (ui/browser/step_player.js) steps in the
browser; the server's panels follow.

Each of the player's panels [data-panel] carries ``data-step`` once it shows that step, and
the player keeps what it drew in ``root.__state.view`` and its state (α, h on the grid) in
``root.__state``. The tests wait on that visible state, never on sleeps, except for the one
check that needs time to pass (pause: the step stays put). Every number is checked against
``ui.step_through.snapshot`` (Python), which the AppTests check against the engine.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine.finalize import support_threshold
from ui.shared import figures as FIG
from ui.shared.fitting import SMO_TOL
from ui.shared.numbers import fmt_num
from ui.shared.settings import DEFAULTS, Settings, effective_C
from ui.step_through import cursor, record, snapshot
from ui.step_through import text as W

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
PLAYER = ".svmlab-player"
COUNTER = PLAYER + " [data-role=counter]"
PANELS = ("decision", "box", "alpha", "curves")
# the Playground's link for 200 moons, Gaussian kernel σ = 1, C = 1, SMO (as the benchmark)
MOONS_QUERY = "v=1&d=moons&n=200&noise=0.2&seed=0&k=gaussian&s=1&l=hinge&C=1&b=free&sv=smo"


def button(page, act: str):
    return page.locator(f"{PLAYER} button[data-act={act}]")


def open_step_through(page, query: str = ""):
    page.goto(page.app_url + "/" + (f"?{query}" if query else ""))
    if query:
        page.locator(".svmlab-canvas[data-draws]").wait_for()
    # the menu as app.py's st.navigation titles it, then the page the way a user opens it
    page.locator(NAV, has_text="Step-through").click()
    wait_step(page, 0)
    assert counter(page)[0] == 0


def counter(page) -> tuple[int, int]:
    text = page.locator(COUNTER).inner_text()
    k, T = (int(v.replace(",", "")) for v in text.split("/"))
    return k, T


def wait_step(page, k: int, panels=PANELS):
    """Until the player's counter shows k and the given panels show step k."""
    cond = " && ".join(
        f"(document.querySelector('{PLAYER} [data-panel={p}]') || {{dataset: {{}}}})"
        f".dataset.step === '{k}'"
        for p in panels
    )
    page.wait_for_function(
        f"(() => {{ const m = document.querySelector('{COUNTER}');"
        f" return m && m.textContent.trim().startsWith('{k} /') && {cond}; }})()"
    )


STATE = """() => {
  const st = document.querySelector('.svmlab-player').__state;
  return {k: st.k, alpha: Array.from(st.alpha), view: st.view, h: Array.from(st.hGrid),
          xs: Array.from(st.R.xs), ys: Array.from(st.R.ys), X: Array.from(st.R.X),
          T: st.R.T, playing: st.playing};
}"""


def player_state(page) -> dict:
    return page.evaluate(STATE)


def grid_h(run, k, xs, ys) -> np.ndarray:
    """h(x) on the player's grid after step k, from Python (rows = ys)."""
    gx, gy = np.meshgrid(xs, ys)
    Z = np.column_stack([gx.ravel(), gy.ravel()])
    return snapshot.state_at(run, k).model.decision_function(Z)


def check_state(page, run, k):
    """What the player holds and drew for step k is ui.step_through.snapshot's step k."""
    got = player_state(page)
    stt = snapshot.state_at(run, k)
    assert got["k"] == k and got["view"]["step"] == k
    np.testing.assert_array_equal(got["alpha"], stt.alpha)  # the recorded numbers, exactly
    np.testing.assert_allclose(got["h"], grid_h(run, k, got["xs"], got["ys"]), rtol=1e-9, atol=1e-9)
    dec = got["view"]["decision"]
    assert dec["violators"] == (stt.violators + 1).tolist()
    assert dec["free"] == (stt.model.free_support + 1).tolist()
    assert dec["bound"] == (stt.model.bound_support + 1).tolist()
    return got


RING_PIXELS = """([x, y]) => {
  // pixels of the canvas under the scatter plot on a circle of radius 21 px around (x, y)
  // in data coordinates: how many are the pair's ring colour (#008762, ui/shared/palette.py GREEN)
  const st = document.querySelector('.svmlab-player').__state;
  const gd = st.dec.plot, fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
  const px = xa._offset + (x - xa.range[0]) / (xa.range[1] - xa.range[0]) * xa._length;
  const py = ya._offset + (ya.range[1] - y) / (ya.range[1] - ya.range[0]) * ya._length;
  const cv = st.dec.under, dpr = cv.width / cv.clientWidth, ctx = cv.getContext('2d');
  let hits = 0;
  for (let a = 0; a < 64; a++) {
    const qx = Math.round((px + 21 * Math.cos(a / 64 * 2 * Math.PI)) * dpr);
    const qy = Math.round((py + 21 * Math.sin(a / 64 * 2 * Math.PI)) * dpr);
    const d = ctx.getImageData(qx, qy, 1, 1).data;
    if (Math.abs(d[0] - 0) < 40 && Math.abs(d[1] - 135) < 40 && Math.abs(d[2] - 98) < 40) hits++;
  }
  return hits;
}"""


def d1_run():
    ds = datasets.d1()
    return ds, record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "smo")


def d1_at_step(page, k: int):
    """The page opened on D1 and `next` clicked k times: (D1, its run, the heading of the
    server's numbers of step k, once it shows)."""
    open_step_through(page)
    ds, run = d1_run()
    for _ in range(k):
        button(page, "next").click()
    wait_step(page, k)
    heading = page.get_by_text(f"Numbers of step {k} / {run.n_steps}:")
    heading.wait_for()
    return ds, run, heading


def test_next_five_times_moves_the_pair_and_the_box(page):
    open_step_through(page)
    assert "Book D1" in page.locator("text=/n = 14/").first.inner_text()
    ds, run = d1_run()
    assert counter(page)[1] == run.n_steps
    check_state(page, run, 0)
    seen = []
    for k in range(1, 6):
        button(page, "next").click()
        wait_step(page, k)
        got = check_state(page, run, k)
        view = got["view"]
        r = snapshot.step_record(run, k)
        pair = [r["i"] + 1, r["j"] + 1]
        # the highlighted pair on the scatter plot is this step's (i, j), painted …
        assert view["decision"]["pair"] == pair
        np.testing.assert_allclose(view["decision"]["highlight"], ds.X[[r["i"], r["j"]]])
        for x in ds.X[[r["i"], r["j"]]]:
            assert page.evaluate(RING_PIXELS, x.tolist()) >= 16, "the ring is not painted"
        # … the box diagram shows its old, unclipped and new (αᵢ, αⱼ), the box in view …
        box = view["box"]
        assert box["step"] == k and box["pair"] == pair
        assert box["old"] == pytest.approx([r["ai_old"], r["aj_old"]], rel=1e-12)
        assert box["new"] == pytest.approx([r["ai_new"], r["aj_new"]], rel=1e-12)
        assert box["unclipped"] == pytest.approx([r["ai_unclipped"], r["aj_unclipped"]], rel=1e-6)
        lo, hi = box["range"]
        if math.isfinite(r["C"]):  # the whole box [0, C]² with a margin
            assert lo <= -0.12 * r["C"] and hi >= 1.12 * r["C"]
        assert lo < 0 < hi         # (C = ∞: the quadrant's corner)
        for a in (*box["old"], *box["new"]):
            assert lo <= a <= hi
        assert box["unclippedVisible"] == all(lo <= a <= hi for a in box["unclipped"])
        svg = page.locator(f"{PLAYER} [data-panel=box] svg")
        assert svg.locator("circle").count() == 1 and svg.locator("polygon").count() == 1
        assert f"Step {k}: the pair" in svg.evaluate("el => el.textContent")
        # … the α bars mark the pair, the curves' marker sits at step k
        assert view["alpha"]["changed"] == sorted(pair)
        assert view["curves"]["k"] == k
        seen.append((tuple(pair), *box["old"], *box["new"]))
    assert all(a != b for a, b in zip(seen, seen[1:])), "a step left the box unchanged"
    assert len({s[0] for s in seen}) >= 2, "the highlighted pair never changed"
    assert not page.js_errors


def test_the_server_panels_follow_the_player(page):
    _, run, heading = d1_at_step(page, 3)
    assert W.smo_summary(snapshot.step_record(run, 3)) in heading.inner_text()
    # the numbers table of step 3 (server) and the player agree on the step
    b_row = page.locator('[data-testid="stTable"] tr', has_text="b").first
    assert fmt_num(run.b[3], 6) in b_row.inner_text()
    button(page, "prev").click()
    page.get_by_text(f"Numbers of step 2 / {run.n_steps}:").wait_for()
    assert counter(page)[0] == 2
    assert not page.js_errors


def test_slider_jump_keys_and_last(page):
    open_step_through(page)
    ds, run = d1_run()
    T = run.n_steps
    page.locator(f"{PLAYER} [data-role=slider]").fill("7")
    wait_step(page, 7)
    check_state(page, run, 7)
    # the slider keeps arrows for itself; the player's keys (← → P J) act with focus in it
    page.locator(PLAYER).focus()
    page.keyboard.press("ArrowLeft")
    wait_step(page, 6)
    check_state(page, run, 6)
    page.keyboard.press("ArrowRight")
    wait_step(page, 7)
    button(page, "first").click()
    wait_step(page, 0)
    nxt = cursor.next_event(cursor.event_steps(run), 0)
    if nxt is None:
        assert button(page, "jump").is_disabled()
    else:
        button(page, "jump").click()
        wait_step(page, nxt)
        check_state(page, run, nxt)
    button(page, "last").click()
    wait_step(page, T)
    got = check_state(page, run, T)
    # the last step shows the engine's fit
    s = record.step_settings(Settings.from_dataset(ds.settings), "smo")
    m = se.fit(ds.X, ds.y, kernel=se.Linear(), C=effective_C(s), wss=s["wss"],
               tol=SMO_TOL, polish=False)  # the Playground's run, before its exact solve
    a = np.array(got["alpha"])
    a[a <= support_threshold(a)] = 0.0
    np.testing.assert_array_equal(a, m.alpha)
    assert button(page, "next").is_disabled() and button(page, "last").is_disabled()
    page.get_by_text(f"Numbers of step {T} / {T}:").wait_for()
    assert not page.js_errors


SHADE_PIXEL = """([x, y]) => {
  // the colour of the canvas under the scatter plot at (x, y) in data coordinates
  const st = document.querySelector('.svmlab-player').__state;
  const gd = st.dec.plot, fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
  const px = xa._offset + (x - xa.range[0]) / (xa.range[1] - xa.range[0]) * xa._length;
  const py = ya._offset + (ya.range[1] - y) / (ya.range[1] - ya.range[0]) * ya._length;
  const cv = st.dec.under, dpr = cv.width / cv.clientWidth;
  const d = cv.getContext('2d').getImageData(Math.round(px * dpr), Math.round(py * dpr), 1, 1).data;
  return [d[0], d[1], d[2]];
}"""


def saturated_cell(h, sign, xs, ys, X, away=0.6):
    """A grid point whose eight neighbours and itself all have sign·h ≥ REGION_ZMAX (the
    shading saturates there), at least `away` from every data point (no marks drawn)."""
    sat = sign * h >= FIG.REGION_ZMAX
    ok = np.ones_like(sat[1:-1, 1:-1])
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            ok &= sat[1 + dr : sat.shape[0] - 1 + dr, 1 + dc : sat.shape[1] - 1 + dc]
    for r, c in np.argwhere(ok) + 1:
        if np.min(np.hypot(X[:, 0] - xs[c], X[:, 1] - ys[r])) >= away:
            return xs[c], ys[r]
    raise AssertionError(f"no saturated grid point with sign {sign}")


def test_the_decision_panel_is_shaded_by_the_sign_of_h(page):
    """ui/browser/canvas2d.js paintGrid with the step player's colouring: h ≥ 2 in the +1 colour,
    h ≤ −2 in the −1 colour (ui/shared/figures.py REGION_COLORSCALE's ends)."""
    open_step_through(page)
    ds, run = d1_run()
    button(page, "last").click()
    wait_step(page, run.n_steps)
    got = check_state(page, run, run.n_steps)
    xs, ys = np.array(got["xs"]), np.array(got["ys"])
    h = np.array(got["h"]).reshape(len(ys), len(xs))
    for sign, end in ((1, -1), (-1, 0)):
        want = np.array([int(FIG.REGION_COLORSCALE[end][1][k : k + 2], 16) for k in (1, 3, 5)])
        pixel = page.evaluate(SHADE_PIXEL, list(saturated_cell(h, sign, xs, ys, ds.X)))
        assert np.abs(np.array(pixel) - want).max() <= 6, (sign, pixel, want)
    assert not page.js_errors


def choose_speed(page, steps_per_s: int):
    page.locator(f"{PLAYER} [data-role=speed]").select_option(str(steps_per_s))


def test_play_runs_and_pause_stops(page):
    open_step_through(page)
    _, T = counter(page)
    choose_speed(page, 1)  # T = 11 steps: about 9 s left after step 2
    button(page, "play").click()
    button(page, "play").filter(has_text="Pause").wait_for()
    # play runs: the counter and the panels advance with no further clicks
    wait_step(page, 1)
    wait_step(page, 2)
    button(page, "play").click()  # pause
    button(page, "play").filter(has_text="Play").wait_for()
    k_paused, _ = counter(page)
    assert 2 <= k_paused < T
    page.wait_for_timeout(3_500)  # three and a half ticks at 1 step/s
    assert counter(page) == (k_paused, T)
    assert page.locator(f"{PLAYER} [data-panel=box]").get_attribute("data-step") == str(k_paused)
    assert not player_state(page)["playing"]
    # the panels follow the paused step (the server never pulls the player back)
    page.get_by_text(f"Numbers of step {k_paused} / {T}:").wait_for()
    page.wait_for_timeout(1_000)
    assert counter(page) == (k_paused, T)
    assert not page.js_errors


def test_play_stops_by_itself_at_the_last_step(page):
    open_step_through(page)
    _, T = counter(page)
    choose_speed(page, 20)
    button(page, "play").click()
    wait_step(page, T)
    button(page, "play").filter(has_text="Play").wait_for()
    assert counter(page) == (T, T)
    page.get_by_text(f"Numbers of step {T} / {T}:").wait_for()
    assert not page.js_errors


def test_gaussian_kernel_and_slack_on_200_points(page):
    """The browser's K (Gaussian), its step-by-step updates of h and its slack segments agree
    with Python on the Playground's 200 moons (σ = 1, C = 1)."""
    open_step_through(page, MOONS_QUERY)
    ds = datasets.moons(n=200, noise=0.2, seed=0)
    s = dict(DEFAULTS, kernel="gaussian", sigma=1.0, C=1.0)
    run = record.build_run(ds.X, ds.y, s, "smo")
    got = player_state(page)
    np.testing.assert_array_equal(np.reshape(got["X"], (-1, 2)), ds.X)
    assert got["T"] == run.n_steps
    k = run.n_steps // 2
    page.locator(f"{PLAYER} [data-role=slider]").fill(str(k))  # a jump: h from α
    wait_step(page, k)
    check_state(page, run, k)
    for _ in range(3):  # steps: h updated by Δαᵢyᵢ K(xᵢ, ·) + Δαⱼyⱼ K(xⱼ, ·) + Δb
        button(page, "next").click()
        k += 1
        wait_step(page, k)
        check_state(page, run, k)
    button(page, "prev").click()
    k -= 1
    wait_step(page, k)
    check_state(page, run, k)
    # slack: a segment from every point with ξ > 0.005 (the Playground's rule)
    page.locator(".st-key-stp-show_slack label").click()
    page.wait_for_function(
        "document.querySelector('.svmlab-player').__state.view.decision.slack.length > 0"
    )
    xi = snapshot.state_at(run, k).model.xi
    assert (
        player_state(page)["view"]["decision"]["slack"] == (np.flatnonzero(xi > 0.005) + 1).tolist()
    )
    assert counter(page)[0] == k  # the rerun for the toggle kept the player's step
    assert not page.js_errors


def test_a_lost_run_is_sent_again_and_a_new_run_resets_the_player(page):
    ds, run, _ = d1_at_step(page, 4)
    # leave the page and forget the run in this tab: the new element asks for it (state
    # "need"), the server sends it again, and the player resumes at the step it reported
    page.locator(NAV, has_text="Playground").click()
    page.locator(".svmlab-canvas[data-draws]").wait_for()
    page.evaluate("window.__svmlabStepRuns.clear()")
    page.locator(NAV, has_text="Step-through").click()
    wait_step(page, 4)
    check_state(page, run, 4)
    # another working-set rule: another run, sent to the player, which starts at step 0
    page.locator(".st-key-stp-wss label", has_text="max violating pair").click()
    s = dict(Settings.from_dataset(ds.settings), wss="max_violating_pair")
    run2 = record.build_run(ds.X, ds.y, s, "smo")
    assert run2.n_steps != run.n_steps
    page.wait_for_function(
        f"document.querySelector('{COUNTER}').textContent.trim() === '0 / {run2.n_steps}'"
    )
    wait_step(page, 0)
    check_state(page, run2, 0)
    button(page, "next").click()
    wait_step(page, 1)
    check_state(page, run2, 1)
    page.get_by_text(f"Numbers of step 1 / {run2.n_steps}:").wait_for()
    assert not page.js_errors
