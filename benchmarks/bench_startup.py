"""Start-up: seconds from starting the server to the first Playground picture (a script).

Four cases, each a new server process opened at once by headless Chromium (as the first
visitor of a class would, the moment the server answers):

- ``make run``: ``python -m svm_engine.precompile``, then ``streamlit run app.py``;
- ``streamlit run``: ``streamlit run app.py`` alone (a container, Streamlit Community Cloud);
  the server compiles at start-up (``ui/serving/warmup.py``) and the page waits behind a spinner;

each with numba's cache **empty** (a fresh ``NUMBA_CACHE_DIR``: a fresh machine, or the
engine's code changed) and **filled** (the same directory after a previous run). The
checkout's own ``__pycache__`` is neither used nor touched. Printed per case: the time the
server first answered ``/_stcore/health``, the time the Playground's plot was drawn
(``.svmlab-canvas`` has drawn its first figure), and for ``make run`` the precompile's share.
A third case opens the page ``--late`` s after ``streamlit run`` started (a server started
before the class): "visit" is what that visitor waits.

    .venv/bin/python benchmarks/bench_startup.py [--repeat 1] [--root DIR] [--late 60]
        [--only make|streamlit|late]

``--root`` runs another checkout (e.g. an export of an older commit, to compare).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from appserver import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

DRAWN = (
    "(() => { const r = document.querySelector('.svmlab-canvas');"
    " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
)


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


def one_run(browser, root: Path, mode: str, cache_dir: str, log: Path, late: float = 0) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONUNBUFFERED="1")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    out: dict = {}
    t0 = time.perf_counter()
    if mode == "make run":
        subprocess.run([sys.executable, "-m", "svm_engine.precompile"], cwd=root, env=env,
                       check=True, capture_output=True)  # fmt: skip
        out["precompile"] = time.perf_counter() - t0
    with open(log, "w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py",
             "--server.headless", "true", "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"],
            cwd=root, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            while not healthy(url):
                if proc.poll() is not None:
                    raise RuntimeError(f"streamlit exited; see {log}")
                time.sleep(0.05)
            out["health"] = time.perf_counter() - t0
            context = browser.new_context(viewport={"width": 1400, "height": 950})
            context.set_default_timeout(180_000)
            page = context.new_page()
            time.sleep(max(0.0, t0 + late - time.perf_counter()))
            t_visit = time.perf_counter()
            page.goto(url + "/")
            page.wait_for_function(DRAWN, polling=50)
            out["picture"] = time.perf_counter() - t0
            out["visit"] = time.perf_counter() - t_visit
            context.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--only", choices=("make", "streamlit", "late"),
                    help="one case: make run, streamlit run, or the later visitor")
    ap.add_argument("--late", type=float, default=60.0,
                    help="the later visitor comes this many seconds after the start")
    args = ap.parse_args()
    logs = ROOT / "benchmarks" / "out"
    logs.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[str, str], list[dict]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(args.repeat):
            cases = {"make": ("make run", 0), "streamlit": ("streamlit run", 0),
                     "late": (f"streamlit run, visit at {args.late:.0f} s", args.late)}
            for key, (mode, late) in cases.items():
                if args.only not in (None, key):
                    continue
                with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
                    for state in ("empty", "filled"):  # the first run fills the cache
                        log = logs / f"startup-{key}-{state}.log"
                        r = one_run(browser, args.root, mode, cache, log, late)
                        results.setdefault((mode, state), []).append(r)
        browser.close()
    print(f"start-up of {args.root} (median of {args.repeat}; seconds from the start)")
    print("(visit: from the browser opening the page to the picture)")
    print(f"{'case':<44}{'precompile':>11}{'health':>8}{'picture':>9}{'visit':>7}")
    for (mode, state), runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        pre = f"{med['precompile']:.1f}" if "precompile" in med else "–"
        print(f"{mode + ', cache ' + state:<44}{pre:>11}{med['health']:>8.1f}"
              f"{med['picture']:>9.1f}{med['visit']:>7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
