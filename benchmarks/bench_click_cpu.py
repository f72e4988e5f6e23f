"""Server CPU per Playground click, from real Chromium clicks (a script, not a test).

Starts the app (or uses ``--url`` with ``--pid``), opens the 200-point Gaussian problem of
``bench_latency.py`` (moons, σ = 1, C = 1, SMO), clicks ``--clicks`` empty spots ``--gap`` s
apart as a student would, waits until the page is idle again (the full figure drawn and the
session's sync of the points done) and prints the server's own CPU time (user + system of the
server process and every process it started, psutil) per click, next to the same
server's CPU while idle over as long a time (subtracted). Goal (issue 15): ≤ 20 ms per click.

    .venv/bin/python benchmarks/bench_click_cpu.py [--clicks 25] [--gap 2.0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from appserver import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402
from bench_class import ServerMeter  # noqa: E402
from bench_latency import EMPTY_SPOT, open_playground  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

GOAL_MS = 20.0


def tree_cpu(root: int) -> float:
    """CPU seconds of the server and every process it started (bench_class's meter: psutil,
    reaped children included)."""
    return ServerMeter(root).cpu()


def idle(page) -> bool:
    return page.evaluate(
        "(() => { const r = document.querySelector('.svmlab-canvas'); const s = r.__state;"
        " return Number(r.dataset.fullSeq) >= s.seq && s.fitSeq >= s.seq && !s.inFlight"
        " && !s.sendTimer; })()"
    )


def wait_idle(page, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not idle(page):
        if time.monotonic() > deadline:
            raise RuntimeError("the page did not become idle")
        time.sleep(0.05)


def run(url: str, pid: int, args) -> float:
    rng = random.Random(args.seed)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        open_playground(page, url)
        for _ in range(3):  # warm-up: first-time code paths on server and browser
            page.mouse.click(*page.evaluate(EMPTY_SPOT, [rng.random(), rng.random()]))
            time.sleep(args.gap)
        wait_idle(page)
        time.sleep(1.0)
        c0, t0 = tree_cpu(pid), time.monotonic()
        time.sleep(args.clicks * args.gap)
        idle_rate = (tree_cpu(pid) - c0) / (time.monotonic() - t0)
        syncs0 = int(page.evaluate("document.querySelector('.svmlab-canvas').dataset.syncs"))
        c0, t0 = tree_cpu(pid), time.monotonic()
        for _ in range(args.clicks):
            spot = page.evaluate(EMPTY_SPOT, [rng.random(), rng.random()])
            if spot is None:
                raise RuntimeError("no empty spot left to click")
            page.mouse.click(*spot)
            time.sleep(args.gap)
        wait_idle(page)
        time.sleep(0.5)
        used = tree_cpu(pid) - c0 - idle_rate * (time.monotonic() - t0)
        syncs = int(page.evaluate("document.querySelector('.svmlab-canvas').dataset.syncs"))
        browser.close()
    per_click = 1000 * used / args.clicks
    print(f"clicks {args.clicks}, {args.gap:g} s apart; session syncs {syncs - syncs0}")
    print(f"server idle CPU {1000 * idle_rate:.1f} ms/s (subtracted)")
    verdict = "met" if per_click <= GOAL_MS else "MISSED"
    print(f"server CPU per click: {per_click:.1f} ms   (goal ≤ {GOAL_MS:g} ms: {verdict})")
    return per_click


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=25)
    ap.add_argument("--gap", type=float, default=2.0, help="seconds between clicks")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--url", help="a running app (default: start one)")
    ap.add_argument("--pid", type=int, help="its server's pid (with --url)")
    args = ap.parse_args()
    if args.url:
        if not args.pid:
            ap.error("--url needs --pid")
        run(args.url.rstrip("/"), args.pid, args)
        return
    server = AppServer(timeout=180)
    url = server.start()
    try:
        run(url, server.proc.pid, args)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
