"""Click latency of the Playground canvas (a script, not a test).

Starts the app, opens a 200-point RBF dataset (moons, Gaussian kernel σ = 1, C = 1, SMO),
clicks empty places in the plot with headless Chromium and prints p50/p95 of

- click → point drawn  (button released → the new point painted), and
- click → refit drawn  (button released → the refit on that point painted, by whichever path
  came first: the fit endpoint's answer on the canvas layer, or the session's full figure),

read from the performance marks the canvas keeps in ``window.__svmlabPerf``, with the parts:
the endpoint's round trip and its own server time, the JS time to paint its answer, the
session's figure arriving and being painted (Plotly.react), and the solver's time.
Goals: point drawn p50 ≤ 50 ms; refit drawn p50 ≤ 150 ms and p95 ≤ 250 ms. Each click comes
``--gap`` s after the previous click's full figure was painted.

Step-through section (same server, same 200-point set, loaded through the Playground's link and
opened with the Step-through page's default "The Playground's points"): presses **Next** in
the SMO step player (``ui/browser/step_player.js``: stepping runs in the browser, no server round
trip)
and prints p50/p95 of

- next → counter shown  (button released → the player's counter shows k + 1), and
- next → step redrawn   (button released → the frame that paints all four panels of the
  player (the scatter plot, the (αᵢ, αⱼ) box, the α bars, the curves' marker) for step k + 1),

measured in the page with ``requestAnimationFrame``: each panel carries ``data-step`` once it
shows that step. The player's own marks are printed too (``window.__svmlabStepPerf``: press →
painted frame, and the ms of work per redraw). Goal: step redrawn p50 ≤ 100 ms. The presses
come ``--gap`` s apart (the server's panels, which follow each step after 250 ms, may render
between presses) and once more ``--step-slow-gap`` s apart (they have settled before each
press). Reference, same run: the same press on a one-button Streamlit app whose fragment
shows only the counter (the floor of any step that goes through Streamlit on this machine).

    .venv/bin/python benchmarks/bench_latency.py [--clicks 25] [--gap 0.4] [--only step]
        [--step-slow-gap 1.5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from appserver import CHROMIUM, CHROMIUM_ARGS, AppServer, free_port  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

QUERY = "v=1&d=moons&n=200&noise=0.2&seed=0&k=gaussian&s=1&l=hinge&C=1&b=free&sv=smo"
GOALS = {
    "point drawn": (50, None),
    "refit drawn": (150, 250),
    "next → step redrawn": (100, None),
}



def open_playground(page, url: str, drawn: bool = True) -> None:
    """Open the Playground on QUERY's 200 points and wait for them (and, with ``drawn``,
    for Plotly's first figure)."""
    page.goto(f"{url}/?{QUERY}", timeout=120_000)
    page.wait_for_function(
        "(() => { const r = document.querySelector('.svmlab-canvas');"
        + (" return r && Number(r.dataset.draws) >= 1" if drawn else " return r")
        + " && r.dataset.nPoints === '200'; })()",
        timeout=120_000,
    )


EMPTY_SPOT = """([fx, fy]) => {
  // a spot at fraction (fx, fy) of the plot area, nudged away from existing points
  const st = document.querySelector('.svmlab-canvas').__state;
  const r = st.plot.querySelector('.nsewdrag').getBoundingClientRect();
  const fl = st.plot._fullLayout, xr = fl.xaxis.range, yr = fl.yaxis.range;
  const px = (p) => [r.left + (p[0] - xr[0]) / (xr[1] - xr[0]) * r.width,
                     r.top + (yr[1] - p[1]) / (yr[1] - yr[0]) * r.height];
  for (let k = 0; k < 200; k++) {
    const x = r.left + 20 + ((fx + 0.137 * k) % 1) * (r.width - 40);
    const y = r.top + 20 + ((fy + 0.291 * k) % 1) * (r.height - 40);
    if (st.points.every((p) => { const q = px(p); return Math.hypot(q[0] - x, q[1] - y) > 16; }))
      return [x, y];
  }
  return null;
}"""


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def report(rows: dict[str, list[float]]) -> bool:
    """Print n, p50, p95, max per row and the goal verdicts; True when every goal is met."""
    print(f"{'':24s} {'n':>4s} {'p50 ms':>8s} {'p95 ms':>8s} {'max ms':>8s}   goal")
    ok = True
    for name, vals in rows.items():
        if not vals:
            print(f"{name:24s} no samples")
            ok = False
            continue
        p50, p95 = statistics.median(vals), pct(vals, 0.95)
        goal = GOALS.get(name)
        verdict = ""
        if goal:
            g50, g95 = goal
            met = p50 <= g50 and (g95 is None or p95 <= g95)
            ok &= met
            verdict = f"p50 ≤ {g50}" + (f", p95 ≤ {g95}" if g95 else "") + (
                "  met" if met else "  MISSED"
            )
        print(f"{name:24s} {len(vals):4d} {p50:8.1f} {p95:8.1f} {max(vals):8.1f}   {verdict}")
    return ok


def bench_playground(browser, url: str, args) -> bool:
    """Click → point drawn and click → refit drawn on the Playground canvas."""
    rng = random.Random(args.seed)
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    open_playground(page, url)
    # click 0 is a warm-up (first-time code paths on server and browser), not measured
    for i in range(args.clicks + 1):
        if i == 1:
            page.evaluate("for (const k in window.__svmlabPerf) __svmlabPerf[k].length = 0")
        spot = page.evaluate(EMPTY_SPOT, [rng.random(), rng.random()])
        if spot is None:
            raise RuntimeError("no empty spot left to click")
        seq = int(page.evaluate("document.querySelector('.svmlab-canvas').dataset.seq"))
        page.mouse.click(*spot)
        try:
            page.wait_for_function(
                "(() => { const d = document.querySelector('.svmlab-canvas').dataset;"
                f" return Number(d.fullSeq) >= {seq + 1}"  # (the session syncs at a pause)
                f" && window.__svmlabPerf.refitDrawn.length >= {i}; }})()",
                timeout=60_000,
            )
        except Exception:
            state = page.evaluate(
                "({...document.querySelector('.svmlab-canvas').dataset,"
                " perf: Object.fromEntries(Object.entries(window.__svmlabPerf)"
                ".map(([k, v]) => [k, v.length]))})"
            )
            page.screenshot(path="test-results/bench_failure.png", full_page=True)
            raise RuntimeError(f"click {i} at {spot} was not refitted: {state}") from None
        time.sleep(args.gap)
    perf = page.evaluate("window.__svmlabPerf")
    info = page.evaluate(
        "(() => { const r = document.querySelector('.svmlab-canvas');"
        " return {n: r.dataset.nPoints, endpoint: r.dataset.endpoint}; })()"
    )
    page.close()

    rows = {
        "point drawn": perf["pointDrawn"],
        "refit drawn": perf["refitDrawn"],
        "  endpoint round trip": perf["endpointMs"],
        "  endpoint server time": perf["serverMs"],
        "  layer painted (JS)": perf["overlayMs"],
        "  full figure drawn": perf["fullDrawn"],
        "  Plotly.react": perf["reactMs"],
    }
    fits = perf.get("fits", [])
    if fits:
        rows["  (solver time)"] = [f.get("solver_ms", float("nan")) for f in fits]
    stalled = sum(1 for f in fits if f.get("converged") is False)
    sources = perf.get("refitSource", [])
    print(f"{args.clicks} clicks on a 200-point RBF dataset (moons, σ = 1, C = 1, SMO); "
          f"{info['n']} points at the end; fit endpoint: {info['endpoint']}")
    ok = report(rows)
    print(f"refit drawn first by: endpoint {sources.count('endpoint')}, "
          f"the page's own answer {sources.count('page')}")
    if stalled:
        print(f"note: SMO hit the Playground's iteration cap on {stalled} of {len(fits)} refits")
    return ok


# ----------------------------------------------------------------------- Step-through

STEP_PANELS = ("decision", "box", "alpha", "curves")
PLAYER = ".svmlab-player"
PLAYER_NEXT = PLAYER + " button[data-act=next]"
PLAYER_COUNTER = PLAYER + " [data-role=counter]"

STEP_PROBE = """([panels, counterSel, buttonSel]) => {
  // On a click on Next: t0, then every animation frame until the counter shows k + 1 and
  // every panel's data-step names step k + 1 (the frame in which the last one is drawn).
  if (window.__stepPerf) return;
  const perf = window.__stepPerf = {counter: [], drawn: [], pending: null};
  const counter = () => {
    const m = document.querySelector(counterSel);
    return m ? m.textContent.replace(/,/g, '').split('/').map((v) => Number(v.trim())) : [NaN, NaN];
  };
  const step = (name) => {  // set by ui/browser/step_player.js when the panel shows the step
    const g = document.querySelector('.svmlab-player [data-panel=' + name + ']');
    return g && g.dataset.step !== undefined ? Number(g.dataset.step) : undefined;
  };
  document.addEventListener('click', (e) => {
    if (!e.target.closest(buttonSel)) return;
    const [k, T] = counter();
    const job = {t0: performance.now(), want: Math.min(k + 1, T), counterAt: null};
    perf.pending = job;
    const poll = () => {
      if (perf.pending !== job) return;
      const now = performance.now();
      if (job.counterAt === null && counter()[0] === job.want) job.counterAt = now;
      if (job.counterAt !== null && panels.every((c) => step(c) === job.want)) {
        perf.counter.push(job.counterAt - job.t0);
        perf.drawn.push(now - job.t0);
        perf.pending = null;
        return;
      }
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, true);
}"""


def press_next(page, presses: int, gap: float) -> dict:
    """Press Next ``presses`` + 1 times (the first is a warm-up) and return the samples."""
    page.evaluate(
        "window.__stepPerf && (__stepPerf.counter.length = 0, __stepPerf.drawn.length = 0);"
        "window.__svmlabStepPerf.drawn.length = 0; window.__svmlabStepPerf.work.length = 0"
    )
    for i in range(presses + 1):
        page.locator(PLAYER_NEXT).click()
        try:
            page.wait_for_function(f"window.__stepPerf.drawn.length >= {i + 1}", timeout=60_000)
        except Exception:
            page.screenshot(path="test-results/bench_step_failure.png", full_page=True)
            raise RuntimeError(f"press {i + 1} was not redrawn") from None
        time.sleep(gap)
    perf = page.evaluate(
        "({counter: __stepPerf.counter, drawn: __stepPerf.drawn,"
        " own: __svmlabStepPerf.drawn, work: __svmlabStepPerf.work})"
    )
    return {
        "next → counter shown": perf["counter"][1:],
        "next → step redrawn": perf["drawn"][1:],
        "  player: press → painted": perf["own"][1:],
        "  player: work per redraw": perf["work"][1:],
    }


def bench_step_through(browser, url: str, args) -> tuple[bool, float]:
    """Next → step redrawn in the Step-through page's SMO player, for the Playground's
    200-point set. Returns (goal met, p50 of step redrawn at --gap)."""
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    open_playground(page, url, drawn=False)  # the Playground holds the 200 points
    # the menu entry as st.navigation titles it (app.py), not a pages/ directory listing
    page.locator('[data-testid="stSidebarNav"] a', has_text="Step-through").click(timeout=120_000)
    page.locator(f"{PLAYER} [data-panel=curves][data-step='0']").wait_for(timeout=120_000)
    page.locator(f"{PLAYER} [data-panel=decision][data-step='0']").wait_for(timeout=120_000)
    total = int(page.locator(PLAYER_COUNTER).inner_text().replace(",", "").split("/")[1])
    if total < args.clicks + 1:
        raise RuntimeError(f"the recorded run has {total} steps; need {args.clicks + 1}")
    page.evaluate(STEP_PROBE, [list(STEP_PANELS), PLAYER_COUNTER, PLAYER_NEXT])
    fast = press_next(page, args.clicks, args.gap)
    page.locator(f"{PLAYER} button[data-act=first]").click()  # back to step 0 (a jump)
    page.locator(f"{PLAYER} [data-panel=box][data-step='0']").wait_for()
    time.sleep(args.step_slow_gap)
    slow = press_next(page, args.clicks, args.step_slow_gap)
    page.close()
    print(f"{args.clicks} presses of Next in the Step-through page's SMO player, the same "
          f"200-point set (SMO, {total} recorded steps), {args.gap} s apart")
    ok = report(fast)
    print(f"the same, {args.step_slow_gap} s apart (the server's panels settle in between)")
    ok &= report(slow)
    return ok, statistics.median(fast["next → step redrawn"])


FLOOR_APP = """import streamlit as st

st.set_page_config(layout="wide")
ss = st.session_state
ss.setdefault("k", 0)


def step():
    ss["k"] += 1


@st.fragment
def stepper():
    st.button("Next", key="stp.next", on_click=step)
    st.metric("Step", f"{ss['k']} / 100000")


stepper()
"""


def bench_floor(browser, args) -> list[float]:
    """Next → counter shown on a one-button fragment app (its own server, a temp folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "floor.py").write_text(FLOOR_APP)
        port = free_port()
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", "floor.py",
                "--server.headless", "true", "--server.port", str(port),
                "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
            ],  # fmt: skip
            cwd=tmp,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise RuntimeError("the floor app did not start") from None
                    time.sleep(0.25)
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.goto(url, timeout=120_000)
            page.locator(".st-key-stp-next button").wait_for(timeout=120_000)
            page.evaluate(STEP_PROBE, [[], '[data-testid="stMetricValue"]', ".st-key-stp-next"])
            for i in range(args.clicks + 1):
                page.locator(".st-key-stp-next button").click()
                page.wait_for_function(f"window.__stepPerf.drawn.length >= {i + 1}", timeout=60_000)
                time.sleep(args.gap)
            floor = page.evaluate("__stepPerf.counter")[1:]
            page.close()
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    return floor


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=25)
    ap.add_argument("--gap", type=float, default=0.4, help="seconds between refit and next click")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("playground", "step"), help="run one section only")
    ap.add_argument("--step-slow-gap", type=float, default=1.5,
                    help="seconds between presses in the second Step-through series")
    args = ap.parse_args()

    ok = True
    with AppServer() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        if args.only in (None, "playground"):
            ok &= bench_playground(browser, url, args)
        if args.only in (None, "step"):
            if args.only is None:
                print()
            met, step_p50 = bench_step_through(browser, url, args)
            ok &= met
            floor = bench_floor(browser, args)
            print(f"{'reference: floor':24s} {len(floor):4d} {statistics.median(floor):8.1f} "
                  f"{pct(floor, 0.95):8.1f} {max(floor):8.1f}   (one-button fragment app)")
            print(f"step redrawn / floor, p50: {step_p50 / statistics.median(floor):.1f}×")
        browser.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
