"""The time budget's figures (a script, not a test): costs, IPC overhead, lane isolation.

``--costs``  times every task the app runs (``ui.serving.costs``: "fit" = the Playground's
             ``fitting.fit_points``, "step" = the Step-through page's ``build_run``, "compare"
             = Compare solvers' ``compare``) for each solver, kernel class, loss and margin, in a
             fit worker (``ui.serving.fit_pool``, one BLAS thread, as the app runs them), on blobs
             (noise 1) and moons (noise 0.2), n = 100 … 2,000, until a fit takes over 5 s
             (killed at 12 s; the faster of two runs below 2 s). Fits t ≈ c·nᵖ to each
             dataset's times (sizes where t ≥ 20 ms) and prints ``COSTS`` for
             ``ui/serving/costs.py`` and docs/serving.md's limits table (``--write``: into
             ui/serving/costs.py).
``--ipc``    the pool's overhead per fit: a 200-point Playground fit (SMO, Gaussian) in the
             server's process against the same fit sent to a worker (median of 200).
``--lanes``  one student's heavy fits against another's clicks: the latency of a light fit
             (200 points) alone, then while two heavy fits run back to back in the heavy lane.

    .venv/bin/python benchmarks/bench_budget.py              # --ipc and --lanes (~1 min)
    .venv/bin/python benchmarks/bench_budget.py --costs --write | tee costs.log  # ~20 min
    .venv/bin/python benchmarks/bench_budget.py --from-log costs.log   # fit again, no runs
    .venv/bin/python benchmarks/bench_budget.py --costs --only newton --write  # one solver:
        # its keys measured again, the others kept as they are in ui/serving/costs.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import re
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from svm_engine import datasets  # noqa: E402
from ui.compare import comparison as compare  # noqa: E402
from ui.serving import costs, fit_pool, fit_worker  # noqa: E402
from ui.shared import fitting  # noqa: E402
from ui.shared.settings import SOLVERS, Settings  # noqa: E402
from ui.step_through import record  # noqa: E402

SIZES = (100, 200, 400, 800, 1400, 2000)
DATA = (("blobs", 1.0), ("moons", 0.2))
STOP_S = 5.0  # a series ends after a fit slower than this
KILL_S = 12.0  # a fit is killed here (its time counts as 12 s: a lower bound)
MIN_FIT_S = 0.02  # shorter times are mostly overhead: not used for the exponent
REPEAT_BELOW_S = 2.0
WARMUP_N = 30


def settings_for(kernel: str, loss: str, margin: str, solver: str) -> dict:
    bias = "free" if solver in ("smo", "qp") else "augmented"
    return Settings.parse({
        "kernel": kernel, "sigma": 1.0, "degree": 2, "coef0": 1.0, "loss": loss, "C": 1.0,
        "hard_margin": margin == "hard", "bias": bias, "solver": solver,
    })  # fmt: skip


def keys():
    """(key, settings) of every measured combination."""
    out = []
    for kernel in ("linear", "gaussian"):
        for loss in ("hinge", "quadratic"):
            for margin in ("soft", "hard") if loss == "hinge" else ("soft",):
                for solver in SOLVERS:
                    s = settings_for(kernel, loss, margin, solver)
                    if fitting.combination_error(s) is None:
                        out.append((costs.cost_key("fit", s), s))
                for solver in record.STEP_SOLVERS:
                    if solver == "newton" and (loss != "quadratic" or margin != "soft"):
                        continue
                    s = settings_for(kernel, loss, margin, solver)
                    out.append((costs.cost_key("step", s), s))
                s = settings_for(kernel, loss, margin, "smo")
                out.append((costs.cost_key("compare", s), s))
    return out


def task_call(key, settings, X, y):
    task, solver = key[0], key[1]
    if task == "fit":
        return fitting.fit_points, (X, y, settings), {"budget": False}
    if task == "step":
        return record.build_run, (X, y, settings, solver), {}
    return compare.compare, (X, y, settings), {}


def timed(pool, fn, args, kw, log) -> float:
    t0 = time.perf_counter()
    try:
        pool.run(fn, args, kw, lane="bench", budget_s=KILL_S, queue_s=60)
    except fit_pool.BudgetExceeded:
        return KILL_S
    except Exception as exc:  # a failed fit still took its time
        log(f"    ({type(exc).__name__}: {exc})")
    return time.perf_counter() - t0


def time_series(pool, key, settings, name, noise, log) -> dict[int, float]:
    """Seconds per size; a fit under REPEAT_BELOW_S is timed twice (the faster counts: a
    loaded machine only adds time), after one untimed fit on WARMUP_N points."""
    times: dict[int, float] = {}
    d = datasets.load(name, n=WARMUP_N, noise=noise, seed=0)
    timed(pool, *task_call(key, settings, np.asarray(d.X, float), np.asarray(d.y)), log)
    for n in SIZES:
        d = datasets.load(name, n=n, noise=noise, seed=0)
        call = task_call(key, settings, np.asarray(d.X, float), np.asarray(d.y))
        t = timed(pool, *call, log)
        if t < REPEAT_BELOW_S:
            t = min(t, timed(pool, *call, log))
        times[n] = t
        log(f"  {'/'.join(key)} {name:5s} n = {n:5d}: {t:8.3f} s")
        if t > STOP_S:
            break
    return times


def fit_power(times: dict[int, float]) -> tuple[float, float]:
    """(c, p) with t ≈ c·nᵖ never under the measured times. The times are made monotone
    first (a larger n never counts as faster: Compare skips its cubic solvers beyond 1,000
    points, and a loaded machine adds noise); p is the log–log slope through the sizes with
    t ≥ MIN_FIT_S (clipped to [1, 4]), c the smallest that puts c·nᵖ over every one of them."""
    env, top = [], 0.0
    for n in sorted(times):
        top = max(top, times[n])
        env.append((n, top))
    pts = [(n, t) for n, t in env if t >= MIN_FIT_S]
    if len(pts) < 2:  # cheap everywhere: linear through the slowest point
        n, t = max(env, key=lambda nt: nt[1] / nt[0])
        return max(t, 1e-4) / n, 1.0
    a = np.log(np.array(pts))
    p = float(np.clip(np.polyfit(a[:, 0], a[:, 1], 1)[0], 1.0, 4.0))
    return max(t / n**p for n, t in pts), p


def parse_log(path: str) -> dict[tuple, dict[str, dict[int, float]]]:
    """The times per key and dataset of a ``--costs`` run's output, to fit again."""
    line = re.compile(r"^\s+(\w+)/(\w+)/(\w+)/(\w+)/(\w+)\s+(\w+)\s+n =\s*(\d+):\s+([\d.]+) s")
    out: dict[tuple, dict[str, dict[int, float]]] = {}
    for text in Path(path).read_text().splitlines():
        m = line.match(text)
        if m:
            key, name = tuple(m.groups()[:5]), m.group(6)
            out.setdefault(key, {}).setdefault(name, {})[int(m.group(7))] = float(m.group(8))
    return out


def measure_costs(write: bool, from_log: str | None = None, only=()) -> None:
    """Every key (or with ``only``, the keys of those solvers, merged into the COSTS of
    ui/serving/costs.py, each marked as measured again today)."""
    if from_log:
        report({k: tuple(fit_power(v[name]) for name, _ in DATA if name in v)
                for k, v in parse_log(from_log).items()}, write)
        return
    pool = fit_pool.FitPool([fit_pool.Lane("bench", 1, 0)], demote_after_s=1e9)
    pool.start(wait=True)
    result = {}

    def log(msg):
        print(msg, flush=True)

    try:
        for key, settings in keys():
            if key in result or (only and key[1] not in only):
                continue
            result[key] = tuple(fit_power(time_series(pool, key, settings, name, noise, log))
                                for name, noise in DATA)
            log(f"{key}: " + ", ".join(f"c = {c:.3g}, p = {p:.2f}" for c, p in result[key]))
    finally:
        pool.shutdown()
    if only:
        report({**costs.COSTS, **result}, write, again=set(result), only=only)
    else:
        report(result, write)


def report(result, write: bool, again=(), only=()) -> None:
    text = costs_literal(result, again, only)
    print("\n" + text)
    print("\n" + limits_table(result))
    print("\n" + limits_grid(result))
    if write:
        path = ROOT / "ui" / "serving" / "costs.py"
        src = path.read_text()
        new = re.sub(r"(# BEGIN COSTS[^\n]*\n).*?(# END COSTS)", lambda m: m.group(1) + text
                     + "\n" + m.group(2), src, flags=re.S)
        path.write_text(new)
        print(f"wrote COSTS into {path}")


def costs_literal(result, again=(), only=()) -> str:
    """The COSTS block; with ``again`` (keys measured by an ``--only`` run) the first line is
    kept from ui/serving/costs.py and those keys are marked with the date and the command."""
    stamp = dt.date.today().isoformat()
    head = f"# measured {stamp}: .venv/bin/python benchmarks/bench_budget.py --costs --write"
    if again:
        src = (ROOT / "ui" / "serving" / "costs.py").read_text()
        m = re.search(r"# BEGIN COSTS[^\n]*\n(# measured [^\n]*)\n", src)
        head = m.group(1) if m else head
    lines = [head, "COSTS: dict[tuple[str, ...], Cost] = {"]
    for key in sorted(result):
        pairs = ", ".join(f"({c:.3g}, {p:.2f})" for c, p in result[key])
        if key in again:
            lines.append(f"    # measured again {stamp}: bench_budget.py --costs --only "
                         f"{','.join(only)} --write")
        lines.append(f"    {key!r}: ({pairs}),")
    lines.append("}")
    return "\n".join(lines)


def limits_table(result) -> str:
    """Markdown: the most points within the budget per task, solver, kernel, loss, margin."""
    old = dict(costs.COSTS)
    costs.COSTS.clear()
    costs.COSTS.update(result)
    try:
        rows = ["| page | solver | kernel | loss | margin | predicted t(2,000) | at most (2 s) |",
                "|---|---|---|---|---|---|---|"]
        pages = {"fit": "Playground", "step": "Step-through", "compare": "Compare"}
        for key in sorted(result, key=lambda k: (costs.TASKS.index(k[0]), k[1:])):
            task, solver, kclass, loss, margin = key
            s = settings_for("linear" if kclass == "linear" else "gaussian", loss, margin,
                             "smo" if solver == "all" else solver)
            t = costs.predict_s(task, s, costs.MAX_N, None if solver == "all" else solver)
            limit = costs.max_points(task, s, None if solver == "all" else solver)
            label = "all" if solver == "all" else costs.SOLVER_LABELS.get(solver, solver)
            rows.append(f"| {pages[task]} | {label} | {kclass} | {loss} | {margin} | "
                        f"{costs.fmt_seconds(t)} | {limit:,} |")
        return "\n".join(rows)
    finally:
        costs.COSTS.clear()
        costs.COSTS.update(old)


def limits_grid(result) -> str:
    """Markdown, one row per kernel class, loss and margin: the most points within the
    budget for each solver of each page (— where the solver does not apply)."""
    cols = [("fit", s) for s in ("smo", "qp", "sga", "newton", "psvm")]
    cols += [("step", s) for s in ("smo", "sga", "newton")] + [("compare", "all")]
    head = ["Playground " + costs.SOLVER_LABELS[s].split()[0] for _, s in cols[:5]]
    head += ["Step-through " + costs.SOLVER_LABELS[s] for _, s in cols[5:8]] + ["Compare"]
    rows = ["| kernel | loss | margin | " + " | ".join(head) + " |",
            "|---|---|---|" + "---:|" * len(cols)]
    for kclass in ("linear", "kernel"):
        for loss, margin in (("hinge", "soft"), ("hinge", "hard"), ("quadratic", "soft")):
            cells = []
            for task, solver in cols:
                key = (task, solver, kclass, loss, margin)
                if key not in result:
                    cells.append("—")
                    continue
                t = max(c * costs.MAX_N**p for c, p in result[key])
                n = min((costs.BUDGET_S / c) ** (1 / p) for c, p in result[key])
                cells.append(f"{costs.MAX_N:,}" if t <= costs.BUDGET_S
                             else f"{int(n // 10 * 10) if n >= 100 else int(n):,}")
            name = "linear" if kclass == "linear" else "Gaussian, polynomial"
            rows.append(f"| {name} | {loss} | {margin} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


# ------------------------------------------------------------------------------- IPC


def playground_fit():
    d = datasets.load("moons", n=200, noise=0.2, seed=0)
    s = Settings.parse({"kernel": "gaussian", "sigma": 1.0, "C": 1.0})
    return np.asarray(d.X, float), np.asarray(d.y), s


def measure_ipc(repeats: int = 200) -> None:
    X, y, s = playground_fit()
    fitting.fit_points(X, y, s)  # compiled code loaded
    inproc = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fitting.fit_points(X, y, s)
        inproc.append(time.perf_counter() - t0)
    pool = fit_pool.FitPool()
    pool.start(wait=True)
    try:
        pool.run(fitting.fit_points, (X, y, s))
        worker = []
        echo = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            pool.run(fitting.fit_points, (X, y, s))
            worker.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            pool.run(fit_worker.echo, (None,))
            echo.append(time.perf_counter() - t0)
    finally:
        pool.shutdown()
    med = statistics.median
    print(f"IPC, a 200-point SMO fit with the Gaussian kernel (median of {repeats}):")
    print(f"  in the server's process   {1e3 * med(inproc):7.2f} ms")
    print(f"  in a worker (round trip)  {1e3 * med(worker):7.2f} ms")
    print(f"  overhead per fit          {1e3 * (med(worker) - med(inproc)):7.2f} ms")
    print(f"  empty round trip (echo)   {1e3 * med(echo):7.2f} ms")


# ----------------------------------------------------------------------------- lanes


def measure_lanes(clicks: int = 60, gap_s: float = 0.05) -> None:
    X, y, s = playground_fit()
    d = datasets.load("blobs", n=900, noise=1.0, seed=0)
    heavy = Settings.parse({"kernel": "gaussian", "solver": "qp", "C": 1.0})
    HX, Hy = np.asarray(d.X, float), np.asarray(d.y)
    pool = fit_pool.FitPool()
    pool.start(wait=True)

    def click_latencies() -> list[float]:
        out = []
        for _ in range(clicks):
            t0 = time.perf_counter()
            pool.run(fitting.fit_points, (X, y, s), lane="light")
            out.append(time.perf_counter() - t0)
            time.sleep(gap_s)
        return out

    try:
        pool.run(fitting.fit_points, (X, y, s))
        alone = click_latencies()
        stop = threading.Event()
        heavy_runs = []

        def student():
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    pool.run(fitting.fit_points, (HX, Hy, heavy), {"budget": False},
                             lane="heavy", budget_s=costs.BUDGET_S, queue_s=10)
                except fit_pool.PoolError:
                    pass
                heavy_runs.append(time.perf_counter() - t0)

        threads = [threading.Thread(target=student) for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        loaded = click_latencies()
        stop.set()
        for t in threads:
            t.join()
    finally:
        pool.shutdown()

    def row(name, v):
        v = sorted(v)
        p95 = v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)]
        print(f"  {name:34s} p50 {1e3 * statistics.median(v):7.1f} ms   p95 {1e3 * p95:7.1f} ms"
              f"   max {1e3 * v[-1]:7.1f} ms")

    print(f"Lanes: a 200-point click (SMO, Gaussian) every {gap_s * 1e3:.0f} ms, {clicks} "
          "clicks:")
    row("alone", alone)
    row("while 2 heavy fits run (QP, n=900)", loaded)
    print(f"  heavy fits meanwhile: {len(heavy_runs)}, "
          f"median {statistics.median(heavy_runs):.2f} s each")
    print(f"  added latency p50: {1e3 * (statistics.median(loaded) - statistics.median(alone)):.1f}"
          " ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--costs", action="store_true")
    ap.add_argument("--write", action="store_true", help="write COSTS into ui/serving/costs.py")
    ap.add_argument("--from-log", metavar="FILE",
                    help="fit COSTS again from the output of an earlier --costs run")
    ap.add_argument("--only", metavar="SOLVERS", default="",
                    help="with --costs: measure these solvers only (comma-separated), keep "
                         "the others' costs from ui/serving/costs.py")
    ap.add_argument("--ipc", action="store_true")
    ap.add_argument("--lanes", action="store_true")
    a = ap.parse_args()
    a.costs = a.costs or bool(a.from_log)
    if not (a.costs or a.ipc or a.lanes):
        a.ipc = a.lanes = True
    if a.ipc:
        measure_ipc()
    if a.lanes:
        measure_lanes()
    if a.costs:
        measure_costs(a.write, a.from_log, tuple(x for x in a.only.split(",") if x))


if __name__ == "__main__":
    main()
