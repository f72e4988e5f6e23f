"""Click latency of the Playground canvas (a script, not a test).

Starts the app, opens a 200-point RBF dataset (moons, Gaussian kernel σ = 1, C = 1, SMO),
clicks empty places in the plot with headless Chromium and prints p50/p95 of

- click → point drawn  (button released → the new point painted), and
- click → refit drawn  (button released → the figure refitted on that point painted),

read from the performance marks the canvas keeps in ``window.__svmlabPerf``.
Goals: point drawn p50 ≤ 50 ms; refit drawn p50 ≤ 150 ms and p95 ≤ 250 ms.

    .venv/bin/python benchmarks/bench_latency.py [--clicks 25] [--gap 0.4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from appserver import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

QUERY = "v=1&d=moons&n=200&noise=0.2&seed=0&k=gaussian&s=1&l=hinge&C=1&b=free&sv=smo"
GOALS = {"point drawn": (50, None), "refit drawn": (150, 250)}

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=25)
    ap.add_argument("--gap", type=float, default=0.4, help="seconds between refit and next click")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    with AppServer() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(f"{url}/?{QUERY}", timeout=120_000)
        page.wait_for_function(
            "(() => { const r = document.querySelector('.svmlab-canvas');"
            " return r && Number(r.dataset.draws) >= 1 && r.dataset.nPoints === '200'; })()",
            timeout=120_000,
        )
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
                    f"Number(document.querySelector('.svmlab-canvas').dataset.fitSeq) >= {seq + 1}"
                    f" && window.__svmlabPerf.refitDrawn.length >= {i}",
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
        n_points = page.evaluate("document.querySelector('.svmlab-canvas').dataset.nPoints")
        browser.close()

    rows = {
        "point drawn": perf["pointDrawn"],
        "refit drawn": perf["refitDrawn"],
        "  refit settled": perf["refitSettled"],
        "  refit data arrived": perf["refitArrived"],
        "  Plotly.react": perf["reactMs"][-args.clicks :],
    }
    fits = perf.get("fits", [])
    if fits:
        ms = [f.get("solver_ms", float("nan")) for f in fits]
        stalled = sum(1 for f in fits if f.get("converged") is False)
        rows["  (solver time)"] = ms
    else:
        stalled = 0
    print(f"{args.clicks} clicks on a 200-point RBF dataset (moons, σ = 1, C = 1, SMO); "
          f"{n_points} points at the end")
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
    if stalled:
        print(f"note: SMO hit the Playground's iteration cap on {stalled} of {len(fits)} refits")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
