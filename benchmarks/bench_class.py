"""A class on one box: N students, each a real Streamlit session, clicking the Playground.

Each student is what a browser tab is to the server (``st_client.StreamlitSession``: the page's
HTTP requests, its own websocket ``/_stcore/stream`` and so its own ``st.session_state``) and
clicks as the canvas does (``canvas_client.CanvasClient``: POST ``/api/refit`` with the warm
start, then the session update per ``--sync``; that module's docstring names the functions of
``ui/browser/canvas.js`` it mirrors and the BackMsg fields it sends). All students run on asyncio in
this one process, so the client's own CPU competes with the server's on a small machine: it
is reported. The page is the Playground link with a 200-point Gaussian problem (moons, σ = 1,
C = 1, SMO), as ``bench_latency.py`` uses.

Sections (default: ``cpu`` then ``class``):

- ``cpu``: one student, ``--cpu-clicks`` clicks one at a time after 5 warm-up clicks; the
  server's CPU time (user + system of its process tree, psutil) per click, split into the
  endpoint's part (click → answer) and the session reruns' part. Goal ≤ 20 ms per click.
- ``class``: ``--students`` students, each clicking every ``--interval`` s (evenly staggered)
  for ``--duration`` s: click → answer p50/p95/max, the session reruns' times, errors (HTTP ≠
  200, ``ok`` false, a session update the session did not adopt, a traceback or ``st.error``
  in a rerun, websocket closed, timeouts), clicks done vs planned (late: sent > 100 ms after
  their time), server CPU s and ms per click, server RSS before/after/peak, client CPU.
  Goal (2 cores): 100 students every 2 s for 120 s, p95 ≤ 300 ms, no error.
- ``--idle N``: N sessions load the page and stay; the server's RSS growth per session once
  it settled (goal ≤ 5 MB), the server's CPU while they idle, and whether all N are still
  connected after ``--duration`` s (a heartbeat each answers: ``app_heartbeat`` →
  ``heartbeat_ack``). Goal: 200 sessions.
- ``--find-limit``: ``class`` at 25, 50, 100, 150, 200, ... students (``--steps``) until
  p95 > 300 ms, an error or a late click; prints the largest passing class per core.

The server is started (``tests/browser/appserver.py``) unless ``--url`` names a running one
(``--pid``: its process, for the CPU and memory figures).

    .venv/bin/python benchmarks/bench_class.py                      # the goals: cpu + class
    .venv/bin/python benchmarks/bench_class.py --students 5 --duration 10    # smoke
    .venv/bin/python benchmarks/bench_class.py --idle 200 --duration 60
    .venv/bin/python benchmarks/bench_class.py --find-limit --duration 30
    .venv/bin/python benchmarks/bench_class.py --sync every --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path

import aiohttp
import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from appserver import AppServer  # noqa: E402
from canvas_client import CANVAS, SYNC_IDLE_MS, SYNC_MODES, CanvasClient, Stats  # noqa: E402
from st_client import SessionError, StreamlitSession  # noqa: E402

QUERY = "v=1&d=moons&n=200&noise=0.2&seed=0&k=gaussian&s=1&l=hinge&C=1&b=free&sv=smo"
N_POINTS = 200
GOAL_P95_MS = 300.0
GOAL_CPU_MS = 20.0
GOAL_IDLE_MB = 5.0
LATE_S = 0.1
CONNECT_AT_ONCE = 4  # page loads in parallel while a class connects
WARMUP_CLICKS = 5
IDLE_PROBE_S = 4.0  # the idle server's CPU is measured over this long
CHECKED = 3  # students whose session state is checked after a class run


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": pct(values, 0.5), "p95": pct(values, 0.95),
            "max": max(values) if values else float("nan")}  # fmt: skip


class ServerMeter:
    """CPU seconds (user + system) and RSS (MB) of a process and every process it spawned."""

    def __init__(self, pid: int | None):
        self.proc = psutil.Process(pid) if pid else None

    def _tree(self) -> list[psutil.Process]:
        return [self.proc, *self.proc.children(recursive=True)]

    def cpu(self) -> float:
        if self.proc is None:
            return float("nan")
        total = 0.0
        for p in self._tree():
            try:
                t = p.cpu_times()
            except psutil.NoSuchProcess:
                continue  # its time moves to its parent's children_* when reaped
            total += t.user + t.system + t.children_user + t.children_system  # + reaped ones
        return total

    def rss(self) -> float:
        if self.proc is None:
            return float("nan")
        total = 0
        for p in self._tree():
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return total / 2**20

    async def settled_rss(self, quiet_mb: float = 0.5, limit_s: float = 30.0) -> float:
        """RSS once it stopped moving (3 samples 1 s apart within ``quiet_mb``)."""
        if self.proc is None:
            return float("nan")
        samples = [self.rss()]
        t_end = time.monotonic() + limit_s
        while time.monotonic() < t_end:
            await asyncio.sleep(1.0)
            samples.append(self.rss())
            if len(samples) >= 3 and max(samples[-3:]) - min(samples[-3:]) <= quiet_mb:
                break
        return samples[-1]


def client_cpu() -> float:
    t = psutil.Process().cpu_times()
    return t.user + t.system


# ---------------------------------------------------------------------------- sessions


async def open_sessions(url: str, n: int, stats: Stats) -> tuple[list, list[float]]:
    """n students load the page (CONNECT_AT_ONCE at a time); failures are counted in stats."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    times: list[float] = []

    async def one() -> StreamlitSession | None:
        async with gate:
            s = StreamlitSession(url, QUERY)
            t = time.perf_counter()
            try:
                run = await s.open()
            except (SessionError, aiohttp.ClientError, TimeoutError) as exc:
                stats.error("connect", f"{type(exc).__name__}: {exc}")
                await s.close()
                return None
            times.append(1000 * (time.perf_counter() - t))
            for e in run.errors:
                stats.error("page error", e)
            canvas = s.components.get(CANVAS)
            n_pts = len((canvas.data() or {}).get("points", [])) if canvas else -1
            if n_pts != N_POINTS:
                stats.error("page", f"the canvas has {n_pts} points, not {N_POINTS}")
            return s

    sessions = await asyncio.gather(*(one() for _ in range(n)))
    return [s for s in sessions if s is not None], times


async def close_all(sessions: list) -> None:
    await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)


async def sample_rss(meter: ServerMeter, peak: list[float]) -> None:
    while True:
        peak[0] = max(peak[0], meter.rss())
        await asyncio.sleep(1.0)


# ---------------------------------------------------------------------------- sections


async def run_cpu(url: str, meter: ServerMeter, args) -> dict:
    """Goal 1: server CPU per click, one student, clicks one at a time."""
    stats = Stats()
    sessions, _ = await open_sessions(url, 1, stats)
    if not sessions:
        return {"errors": dict(stats.errors), "examples": stats.examples}
    c = CanvasClient(sessions[0], stats, sync=args.sync, idle_s=args.idle_s,
                     rng=random.Random(args.seed))  # fmt: skip
    try:
        for _ in range(WARMUP_CLICKS):
            await c.answered(c.click())
            await c.settled()
            await asyncio.sleep(0.2)
        a = meter.cpu()
        await asyncio.sleep(IDLE_PROBE_S)  # /proc counts CPU in 10 ms ticks
        idle_ms_per_s = 1000 * (meter.cpu() - a) / IDLE_PROBE_S
        stats = c.stats = Stats()
        endpoint = session = window = 0.0
        t0 = time.perf_counter()
        for _ in range(args.cpu_clicks):
            await asyncio.sleep(0.2)
            a, ta = meter.cpu(), time.perf_counter()
            seq = c.click()
            await c.answered(seq)
            b = meter.cpu()
            await c.settled()
            endpoint += b - a
            session += meter.cpu() - b
            window += time.perf_counter() - ta
        wall = time.perf_counter() - t0
    finally:
        c.stop()
        await close_all(sessions)
    k = args.cpu_clicks
    return {
        "clicks": k, "sync": args.sync, "wall_s": wall,
        "cpu_ms_per_click": 1000 * (endpoint + session) / k,  # gross: idle share included
        "idle_share_ms_per_click": idle_ms_per_s * window / k,  # an idle server's, meanwhile
        "endpoint_cpu_ms": 1000 * endpoint / k, "session_cpu_ms": 1000 * session / k,
        "idle_cpu_ms_per_s": idle_ms_per_s,
        "answer_ms": summary(stats.answer_ms), "server_ms": summary(stats.server_ms),
        "canvas_rerun_ms": summary(stats.canvas_ms),
        "errors": dict(stats.errors), "examples": stats.examples,
    }  # fmt: skip


async def run_class(url: str, meter: ServerMeter, args, n: int) -> dict:
    """n students clicking every args.interval s for args.duration s."""
    stats = Stats()
    t_conn = time.perf_counter()
    sessions, connect_ms = await open_sessions(url, n, stats)
    connect_s = time.perf_counter() - t_conn
    clients = [CanvasClient(s, stats, sync=args.sync, idle_s=args.idle_s,
                            rng=random.Random(args.seed * 10_000 + i))
               for i, s in enumerate(sessions)]  # fmt: skip
    per_student = int(args.duration // args.interval)
    lags: list[float] = []
    peak = [meter.rss()]
    sampler = asyncio.create_task(sample_rss(meter, peak))
    rss0, cpu0, me0 = meter.rss(), meter.cpu(), client_cpu()
    start = time.perf_counter() + 0.5

    async def student(i: int, c: CanvasClient) -> None:
        phase = args.interval * i / max(1, len(clients))
        for k in range(per_student):
            due = start + phase + k * args.interval
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            lags.append(time.perf_counter() - due)
            if not c.s.connected:
                stats.error("websocket closed", str(c.s.closed_reason))
                return
            c.click()
        try:
            await c.settled(timeout=30.0)
        except TimeoutError as exc:
            stats.error("not settled", str(exc))

    try:
        await asyncio.gather(*(student(i, c) for i, c in enumerate(clients)))
        wall = time.perf_counter() - start
        cpu1, me1, rss1 = meter.cpu(), client_cpu(), meter.rss()
        still = sum(s.connected for s in sessions)
        checked = clients[:CHECKED] if args.sync != "never" else []
        for c in checked:  # the sessions adopted the points (after the measured window)
            try:
                msg = await c.check_session()
            except SessionError as exc:
                msg = str(exc)
            if msg:
                stats.error("session state", msg)
    finally:
        sampler.cancel()
        for c in clients:
            c.stop()
        await close_all(sessions)
    done = stats.clicks
    planned = n * per_student
    server_cpu = cpu1 - cpu0
    return {
        "students": n, "interval_s": args.interval, "duration_s": args.duration,
        "sync": args.sync, "idle_s": args.idle_s if args.sync == "idle" else None,
        "connected": len(sessions), "still_connected": still, "connect_s": connect_s,
        "sessions_checked": len(checked),
        "page_load_ms": summary(connect_ms),
        "clicks_planned": planned, "clicks_done": done,
        "late": sum(1 for x in lags if x > LATE_S), "max_lag_ms": 1000 * max(lags, default=0),
        "answered": len(stats.answer_ms), "coalesced": stats.coalesced, "posts": stats.posts,
        "answer_ms": summary(stats.answer_ms), "post_ms": summary(stats.post_ms),
        "server_ms": summary(stats.server_ms),
        "canvas_rerun_ms": summary(stats.canvas_ms),
        "errors": dict(stats.errors), "examples": stats.examples,
        "wall_s": wall, "server_cpu_s": server_cpu,
        "server_cpu_ms_per_click": 1000 * server_cpu / done if done else float("nan"),
        "server_cores_busy": server_cpu / wall,
        "server_rss_mb": {"before": rss0, "after": rss1, "peak": max(peak[0], rss1)},
        "client_cpu_s": me1 - me0, "client_cores_busy": (me1 - me0) / wall,
        "cores": psutil.cpu_count(),
    }  # fmt: skip


async def run_idle(url: str, meter: ServerMeter, args, n: int) -> dict:
    """n sessions load the page and stay: memory per session, and that they stay."""
    stats = Stats()
    first, _ = await open_sessions(url, 1, stats)  # warms the server (imports, caches)
    rss0 = await meter.settled_rss()
    t = time.perf_counter()
    sessions, connect_ms = await open_sessions(url, n, stats)
    connect_s = time.perf_counter() - t
    rss1 = await meter.settled_rss()
    cpu0, t0 = meter.cpu(), time.perf_counter()
    low = len(sessions)
    while time.perf_counter() - t0 < args.duration:
        await asyncio.sleep(min(5.0, max(0.0, args.duration - (time.perf_counter() - t0))))
        low = min(low, sum(s.connected for s in sessions))
    held = time.perf_counter() - t0
    idle_cpu = meter.cpu() - cpu0
    beats = await asyncio.gather(*(s.heartbeat() for s in sessions), return_exceptions=True)
    alive = [b for b in beats if isinstance(b, float)]
    for b in beats:
        if not isinstance(b, float):
            stats.error("heartbeat", str(b))
    rss2 = meter.rss()
    await close_all(sessions + first)
    per = (rss1 - rss0) / len(sessions) if sessions else float("nan")
    return {
        "sessions": n, "connected": len(sessions), "connect_s": connect_s,
        "page_load_ms": summary(connect_ms),
        "rss_mb": {"one_session": rss0, "all_settled": rss1, "after_hold": rss2},
        "mb_per_session": per, "hold_s": held, "min_connected_during_hold": low,
        "alive_at_end": len(alive), "heartbeat_ms": summary(alive),
        "idle_server_cpu_ms_per_s": 1000 * idle_cpu / held,
        "errors": dict(stats.errors), "examples": stats.examples,
    }  # fmt: skip


# ---------------------------------------------------------------------------- report


def fmt_ms(s: dict) -> str:
    if not s["n"]:
        return "—"
    return f"p50 {s['p50']:6.1f}  p95 {s['p95']:6.1f}  max {s['max']:7.1f} ms  (n = {s['n']})"


def print_errors(r: dict) -> None:
    if not r["errors"]:
        print("  errors: none")
        return
    print("  errors: " + ", ".join(f"{k} × {v}" for k, v in r["errors"].items()))
    for k, v in r["examples"].items():
        print(f"    {k}: {v}")


def print_cpu(r: dict) -> bool:
    if "clicks" not in r:
        print_errors(r)
        return False
    # the goal is the click's own cost: what an idle server spends meanwhile (its timers,
    # measured before the clicks) is not the click's, and with --sync idle the window
    # includes the 4 s pause before the sync
    net = r["cpu_ms_per_click"] - r["idle_share_ms_per_click"]
    met = net <= GOAL_CPU_MS and not r["errors"]
    print(f"server CPU per click (1 student, {r['clicks']} clicks one at a time, --sync "
          f"{r['sync']}):")
    print(f"  {net:.1f} ms per click = endpoint {r['endpoint_cpu_ms']:.1f}"
          f" + session reruns {r['session_cpu_ms']:.1f} − an idle server's "
          f"{r['idle_share_ms_per_click']:.1f} meanwhile ({r['idle_cpu_ms_per_s']:.1f} ms/s)   "
          f"goal ≤ {GOAL_CPU_MS:.0f} ms  "
          + ("met" if met else "MISSED"))
    print(f"  click → answer   {fmt_ms(r['answer_ms'])}")
    print(f"  endpoint's own   {fmt_ms(r['server_ms'])}")
    if r["canvas_rerun_ms"]["n"]:
        print(f"  canvas rerun     {fmt_ms(r['canvas_rerun_ms'])}")
    print_errors(r)
    return met


def class_met(r: dict) -> bool:
    return (r["answer_ms"]["p95"] <= GOAL_P95_MS and not r["errors"] and r["late"] == 0
            and r["clicks_done"] == r["clicks_planned"]
            and r["answered"] == r["clicks_done"])  # fmt: skip


def print_class(r: dict) -> bool:
    met = class_met(r)
    sync = r["sync"] + (f" (after {r['idle_s']} s pause)" if r["idle_s"] else "")
    print(f"class: {r['students']} students, a click every {r['interval_s']:g} s each for "
          f"{r['duration_s']:g} s ({r['students'] / r['interval_s']:.1f} clicks/s), "
          f"--sync {sync}")
    print(f"  connected {r['connected']} in {r['connect_s']:.1f} s (page load "
          f"{fmt_ms(r['page_load_ms'])}); still connected at the end: {r['still_connected']}")
    if r["sessions_checked"]:
        print(f"  session state checked on {r['sessions_checked']} students: a full rerun shows "
              "their points" + (" (see errors)" if "session state" in r["errors"] else ""))
    print(f"  clicks {r['clicks_done']} of {r['clicks_planned']} planned, late (> "
          f"{LATE_S * 1000:.0f} ms) {r['late']}, max lag {r['max_lag_ms']:.0f} ms; answered "
          f"{r['answered']} ({r['coalesced']} by a later request), {r['posts']} POSTs")
    print(f"  click → answer   {fmt_ms(r['answer_ms'])}   goal p95 ≤ {GOAL_P95_MS:.0f} ms  "
          + ("met" if met else "MISSED"))
    print(f"  POST → answer    {fmt_ms(r['post_ms'])}")
    print(f"  endpoint's own   {fmt_ms(r['server_ms'])}")
    if r["canvas_rerun_ms"]["n"]:
        print(f"  canvas rerun     {fmt_ms(r['canvas_rerun_ms'])}")
    rss = r["server_rss_mb"]
    print(f"  server CPU {r['server_cpu_s']:.1f} s over {r['wall_s']:.1f} s "
          f"({r['server_cores_busy']:.2f} cores), {r['server_cpu_ms_per_click']:.1f} ms per "
          f"click; RSS {rss['before']:.0f} → {rss['after']:.0f} MB (peak {rss['peak']:.0f})")
    print(f"  client CPU {r['client_cpu_s']:.1f} s ({r['client_cores_busy']:.2f} cores) of "
          f"{r['cores']} cores")
    print_errors(r)
    return met


def print_idle(r: dict) -> bool:
    per = r["mb_per_session"]
    met = (per <= GOAL_IDLE_MB and r["alive_at_end"] == r["sessions"]
           and r["min_connected_during_hold"] == r["sessions"] and not r["errors"])  # fmt: skip
    rss = r["rss_mb"]
    print(f"idle: {r['sessions']} sessions, connected {r['connected']} in "
          f"{r['connect_s']:.1f} s (page load {fmt_ms(r['page_load_ms'])})")
    print(f"  server RSS {rss['one_session']:.0f} MB (1 session) → {rss['all_settled']:.0f} MB "
          f"(+{r['sessions']}, settled) → {rss['after_hold']:.0f} MB after {r['hold_s']:.0f} s: "
          f"{per:.2f} MB per session   goal ≤ {GOAL_IDLE_MB:.0f} MB  "
          + ("met" if met else "MISSED"))
    print(f"  connected throughout: min {r['min_connected_during_hold']}; heartbeat answered "
          f"by {r['alive_at_end']} ({fmt_ms(r['heartbeat_ms'])}); idle server CPU "
          f"{r['idle_server_cpu_ms_per_s']:.1f} ms/s")
    print_errors(r)
    return met


# ---------------------------------------------------------------------------- main


async def amain(args, url: str, meter: ServerMeter) -> tuple[bool, dict]:
    out: dict = {"url": url, "query": QUERY, "measured_at": time.strftime("%Y-%m-%d %H:%M")}
    ok = True
    if args.idle:
        out["idle"] = r = await run_idle(url, meter, args, args.idle)
        return print_idle(r), out
    if args.find_limit:
        rows = []
        for n in args.steps:
            r = await run_class(url, meter, args, n)
            rows.append(r)
            print_class(r)
            print()
            if not class_met(r):
                break
        passed = [r["students"] for r in rows if class_met(r)]
        best = max(passed, default=0)
        cores = psutil.cpu_count()
        if not passed:
            print(f"limit: no step passed (fewer than {args.steps[0]} students at a click every "
                  f"{args.interval:g} s on {cores} cores)")
        else:
            print(f"limit: {best} students pass (p95 ≤ {GOAL_P95_MS:.0f} ms, no error, none late) "
                  f"at a click every {args.interval:g} s: {best / cores:.1f} students per core "
                  f"({cores} cores)" + ("" if len(passed) < len(rows) else
                                        "; every step passed: raise --steps"))  # fmt: skip
        out["find_limit"] = {"steps": rows, "students_passing": best,
                             "students_per_core": best / cores}  # fmt: skip
        return True, out
    if args.cpu_clicks:
        out["cpu"] = r = await run_cpu(url, meter, args)
        ok &= print_cpu(r)
        print()
    if args.students:
        out["class"] = r = await run_class(url, meter, args, args.students)
        ok &= print_class(r)
    return ok, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=100, help="0: skip the class section")
    ap.add_argument("--interval", type=float, default=2.0, help="s between a student's clicks")
    ap.add_argument("--duration", type=float, default=120.0, help="s of clicking (or idling)")
    ap.add_argument("--sync", choices=SYNC_MODES, default="idle",
                    help="when the session hears of the points (see canvas_client.py)")
    ap.add_argument("--idle-s", type=float, default=SYNC_IDLE_MS / 1000,
                    help="the pause before an idle sync (canvas_sync.js SYNC_IDLE_MS)")
    ap.add_argument("--cpu-clicks", type=int, default=30, help="0: skip the CPU section")
    ap.add_argument("--idle", type=int, default=0, metavar="N", help="N idle sessions only")
    ap.add_argument("--find-limit", action="store_true")
    ap.add_argument("--steps", type=lambda s: [int(v) for v in s.split(",")],
                    default=[25, 50, 100, 150, 200, 300])
    ap.add_argument("--url", help="a running server (default: start one)")
    ap.add_argument("--pid", type=int, help="the running server's process id (with --url)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)

    server = None
    if args.url:
        url, pid = args.url.rstrip("/"), args.pid
        if pid is None:
            print("no --pid: server CPU and memory are not measured")
    else:
        server = AppServer(timeout=120)
        url = server.start()
        pid = server.proc.pid
    try:
        ok, out = asyncio.run(amain(args, url, ServerMeter(pid)))
    finally:
        if server is not None:
            server.stop()
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
