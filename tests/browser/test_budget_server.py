"""Every fit has a budget, on a real server: a fit that would take minutes answers with a
message within the 2 s budget, its worker is killed (the server's CPU falls back to idle),
and SIGTERM stops the server within 5 s even mid-fit, workers included.

Its own servers, with the real budget (the suite's SVMLAB_BUDGET_SLACK is set back to 1).
Timing bounds are generous (the budget + a few seconds on a loaded 2-core machine).
"""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.error
import urllib.request

import psutil
import pytest
from appserver import AppServer
from processes import tree_cpu_seconds

from svm_engine import datasets
from ui.serving import costs

pytestmark = pytest.mark.browser

SLACK_S = 3.0  # answers within the budget + this (a loaded machine, the HTTP round trip)
IDLE_CPU_S = 0.6  # CPU seconds the whole server may use in IDLE_WINDOW_S once idle
IDLE_WINDOW_S = 3.0
#: Passes the prediction (~1.2 s on 1,500 points) but runs for minutes: SGA with a narrow
#: Gaussian kernel and a large C on overlapping blobs crawls to its 100,000-sweep cap.
CRAWL = {"kernel": "gaussian", "sigma": 0.1, "C": 10000, "solver": "sga", "bias": "augmented",
         "loss": "hinge"}
CRAWL_N = 1500
CRAWL_LINK = ("?v=1&d=blobs&n=1500&noise=1&seed=0&k=gaussian&s=0.1&l=hinge&C=10000&b=augmented"
              "&sv=sga")
#: The issue's link (SMO, Gaussian kernel, hard margin on 2,000 overlapping points: the
#: separability check alone took over 10 minutes and 1.2 GB).
TEN_MINUTES = {"kernel": "gaussian", "sigma": 1.0, "hard_margin": True, "solver": "smo",
               "loss": "hinge", "bias": "free"}
TEN_MINUTES_LINK = "?v=1&d=blobs&n=2000&noise=1&seed=0&k=gaussian&s=1&l=hinge&C=inf&b=free&sv=smo"


def blobs_points(n: int = 2000) -> list[list[float]]:
    d = datasets.blobs(n=n, noise=1.0, seed=0)
    return [[float(a), float(b), int(c)] for (a, b), c in zip(d.X, d.y, strict=True)]


def post(url: str, body: dict, timeout: float = 120) -> tuple[float, int, dict | None]:
    req = urllib.request.Request(url + "/api/refit", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read()
    try:
        answer = json.loads(text)
    except ValueError:   # a server stopping mid-request may answer 503 before the app does
        answer = None    # (its own plain body: seen once in CI on a loaded machine)
    return time.monotonic() - t0, status, answer


def wait_workers(url: str, seconds: int = 60) -> None:
    """Until the server answers a small fit (its workers start with it), at most ``seconds``."""
    d = datasets.d1()
    pts = [[float(a), float(b), int(c)] for (a, b), c in zip(d.X, d.y, strict=True)]
    for _ in range(seconds):
        if post(url, {"points": pts})[1] == 200:
            return
        time.sleep(1)


def tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def runnable(pid: int, seconds: float = 2.0, samples: int = 20) -> list[int]:
    """Processes of the server's tree found running or ready to run in at least 3/4 of
    ``samples`` looks: a fit computing, even at low priority on a loaded machine where it
    gets little CPU (an idle process sleeps)."""
    counts: dict[int, int] = {}
    for _ in range(samples):
        for p in tree(pid):
            try:
                if p.status() == psutil.STATUS_RUNNING:
                    counts[p.pid] = counts.get(p.pid, 0) + 1
            except psutil.Error:
                pass
        time.sleep(seconds / samples)
    return [p for p, k in counts.items() if k >= 0.75 * samples]


def wait_idle(pid: int, tries: int = 4) -> float:
    """The smallest CPU use over up to ``tries`` windows (other sessions' page loads, the
    replacement worker's start and the garbage collector settle within a window or two)."""
    used = []
    for _ in range(tries):
        used.append(tree_cpu_seconds(pid, IDLE_WINDOW_S))
        if used[-1] < IDLE_CPU_S:
            break
    return min(used)


@pytest.fixture(scope="module")
def server():
    srv = AppServer(timeout=120, env={"SVMLAB_BUDGET_SLACK": "1"})
    url = srv.start()
    try:
        wait_workers(url)
        yield url, srv.proc.pid
    finally:
        srv.stop()


def test_a_fit_that_would_take_minutes_answers_within_the_budget_and_the_cpu_goes_idle(server):
    url, pid = server
    took, status, ans = post(url, {"points": blobs_points(CRAWL_N), "settings": CRAWL, "seq": 5})
    assert status == 200 and ans["ok"] is False and ans["kind"] == "over_budget", ans
    assert ans["seq"] == 5 and f"on {CRAWL_N:,} points" in ans["message"]
    assert f"did not finish within the {costs.BUDGET_S:g} s budget" in ans["message"]
    assert "fewer points" in ans["message"]
    assert took < costs.BUDGET_S + SLACK_S, f"answered after {took:.1f} s"
    # the worker was killed: nothing of the server keeps a core busy
    assert wait_idle(pid) < IDLE_CPU_S
    assert runnable(pid) == []


def test_the_ten_minute_link_of_the_issue_is_refused_at_once(server):
    url, pid = server
    took, status, ans = post(url, {"points": blobs_points(), "settings": TEN_MINUTES})
    assert status == 200 and ans["kind"] == "over_budget", ans
    assert "takes over 10 min here" in ans["message"] and "finite C" in ans["message"]
    assert took < costs.BUDGET_S, f"answered after {took:.1f} s"


def test_the_page_shows_the_message_keeps_the_points_and_the_server_goes_idle(server, browser):
    url, pid = server
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    context.set_default_timeout(60_000)
    page = context.new_page()
    try:
        for link, text, n in ((CRAWL_LINK, "did not finish within the", CRAWL_N),
                              (TEN_MINUTES_LINK, "takes over 10 min here", 2000)):
            page.goto(url + "/" + link)
            alert = page.get_by_text(text).first
            alert.wait_for()
            assert f"{n:,} points" in alert.inner_text()
            page.get_by_text(f"{n} points (").first.wait_for()  # the points are kept
            assert wait_idle(pid) < IDLE_CPU_S
            assert runnable(pid) == []
    finally:
        context.close()


def test_sigterm_stops_the_server_within_5_s_mid_fit_and_leaves_no_worker():
    # a slack of 60: the fit would run on for two minutes unless something stops it
    srv = AppServer(timeout=120, env={"SVMLAB_BUDGET_SLACK": "60"})
    url = srv.start()
    try:
        wait_workers(url)
        answers = []
        heavy = {"points": blobs_points(CRAWL_N), "settings": CRAWL}
        fit = threading.Thread(target=lambda: answers.append(post(url, heavy)))
        fit.start()
        time.sleep(2.0)  # the fit is running in a worker
        procs = tree(srv.proc.pid)[1:]
        assert not answers, "the fit ended before the signal"
        # a worker computes (at low priority: on a loaded machine it may get little CPU)
        assert tree_cpu_seconds(srv.proc.pid, 1.0) > 0.05, "no worker was running the fit"
        t0 = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        srv.proc.wait(timeout=30)
        took = time.monotonic() - t0
        fit.join(timeout=30)
        assert took <= 5.0, f"the server took {took:.1f} s to stop"
        assert answers and answers[0][1] == 503, answers  # the request ended with the server
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            left = [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
            if not left:
                break
            time.sleep(0.2)
        assert not left, f"processes left behind: {[p.pid for p in left]}"
    finally:
        srv.stop()
