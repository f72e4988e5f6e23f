"""Two browser sessions through HAProxy against two app processes (the ``make serve`` recipe,
``deploy/serve.py`` with ``deploy/haproxy.cfg``): each stays on its own process, and both work;
and when one process is killed (issue 33 item 2) the service goes on: serve.py starts it
again, and the tab it served continues on the other one with its points.

Stickiness is read off what HAProxy itself says: the cookie SVMLAB it set in each browser, and
the header X-SVMLab-Server it adds to every response naming the process that served it, for
the page and its assets, the fit endpoint (``POST /api/refit``) and the websocket handshake
(``/_stcore/stream``, read through Chromium's DevTools protocol).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from types import SimpleNamespace

import psutil
import pytest
from appserver import CHROMIUM, ROOT, free_port

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000
HEADER = "x-svmlab-server"
CANVAS = ".svmlab-canvas"
D2 = "/?v=1&d=d2&k=linear&l=hinge&C=1&b=free&sv=smo"

_spec = importlib.util.spec_from_file_location("svmlab_serve", ROOT / "deploy" / "serve.py")
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)


def _port_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def class_server():
    """``deploy/serve.py -n 2`` on free ports; yields its URL once both processes are up."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make test does it)")
    if serve.find_haproxy() is None:
        pytest.fail("haproxy is missing: apt-get install haproxy (make test does it)")
    port = free_port()
    log_dir = ROOT / "test-results" / f"serve-{port}"
    proc = subprocess.Popen(
        [sys.executable, "deploy/serve.py", "-n", "2", "--port", str(port),
         "--address", "127.0.0.1", "--first-app-port", "0", "--log-dir", str(log_dir)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    deadline = time.monotonic() + 240
    while not any(ln.startswith("SVM Lab is ready") for ln in lines):
        if proc.poll() is not None or time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL) if proc.poll() is None else None
            pytest.fail(f"deploy/serve.py did not come up: {''.join(lines)[-2000:]}")
        time.sleep(0.2)
    backend = (log_dir / "backend.cfg").read_text()
    app_ports = [int(ln.rsplit(":", 1)[1].split()[0]) for ln in backend.splitlines()
                 if ln.strip().startswith("server ")]  # fmt: skip
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", log_dir=log_dir, app_ports=app_ports,
                          stats=str(log_dir / "haproxy.sock"), pid=proc.pid,
                          lines=lines)  # fmt: skip
    proc.send_signal(signal.SIGTERM)  # the recipe's own stop: haproxy, then the apps
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    reader.join(timeout=5)
    assert proc.returncode == 0, "".join(lines)[-2000:]
    assert not any(_port_answers(p) for p in [*app_ports, port]), "serve.py left servers up"


def data(page) -> dict:
    return page.evaluate(f"({{...document.querySelector('{CANVAS}').dataset}})")


class Session:
    """One browser context (its own cookies) and what HAProxy told it about each response."""

    def __init__(self, browser, url: str):
        self.url = url
        self.context = browser.new_context(viewport={"width": 1400, "height": 950})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.served: list[tuple[str, str | None]] = []  # (url, X-SVMLab-Server)
        self.sockets: list[tuple[str, str | None]] = []  # websocket handshakes, likewise
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", self._response)
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.on("Network.webSocketCreated", self._ws_created)
        cdp.on("Network.webSocketHandshakeResponseReceived", self._ws_handshake)
        self._ws_urls: dict[str, str] = {}

    def _response(self, r) -> None:
        if r.url.startswith(self.url):
            self.served.append((r.url, r.headers.get(HEADER)))

    def _ws_created(self, e) -> None:
        self._ws_urls[e["requestId"]] = e["url"]

    def _ws_handshake(self, e) -> None:
        headers = {k.lower(): v for k, v in e["response"]["headers"].items()}
        self.sockets.append((self._ws_urls.get(e["requestId"], ""), headers.get(HEADER)))

    def open_playground(self) -> None:
        self.page.goto(self.url + D2)
        self.page.wait_for_function(
            "(() => { const r = document.querySelector('.svmlab-canvas');"
            " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
        )

    def click_adds_a_point(self, k: int) -> dict:
        """Click empty space (top left in D2): the point is added, the fit endpoint's refit
        is drawn, and the session (over the websocket) hears of the new points. Returns the
        endpoint's answer."""
        pg = self.page
        n0 = int(data(pg)["nPoints"])
        seq = int(data(pg)["seq"]) + 1
        box = pg.locator(f"{CANVAS} .nsewdrag").bounding_box()
        with pg.expect_response(lambda r: r.url.endswith("/api/refit")) as info:
            pg.mouse.click(box["x"] + 30 + 40 * k, box["y"] + 30)
        resp = info.value
        assert resp.status == 200, resp.text()
        answer = resp.json()
        assert answer["ok"] is True and len(answer["alpha"]) == n0 + 1 and answer["seq"] == seq
        pg.wait_for_function(  # the refit is drawn
            f"(() => {{ const r = document.querySelector('{CANVAS}');"
            f" return Number(r.dataset.fullSeq) >= {seq} && !r.__state.overlayOn; }})()"
        )
        pg.wait_for_function(  # the session has the points (a rerun over the websocket)
            f"Number(document.querySelector('{CANVAS}').dataset.fitSeq) >= {seq}"
        )
        assert int(data(pg)["nPoints"]) == n0 + 1
        pg.wait_for_function(f"document.body.innerText.includes('{n0 + 1} points (')")
        answer["server"] = resp.headers.get(HEADER)
        return answer

    def cookie(self) -> dict:
        found = [c for c in self.context.cookies(self.url) if c["name"] == "SVMLAB"]
        assert len(found) == 1, self.context.cookies(self.url)
        return found[0]

    def servers(self) -> set:
        return {s for _, s in self.served}


def test_two_sessions_each_stay_on_their_process_and_both_work(browser, class_server):
    url = class_server.url
    a, b = Session(browser, url), Session(browser, url)
    try:
        a.open_playground()
        fit_a = [a.click_adds_a_point(0)]
        b.open_playground()  # a's websocket is open: leastconn sends b to the other process
        fit_b = [b.click_adds_a_point(0)]
        fit_a.append(a.click_adds_a_point(1))  # a, after b arrived, is still where it was
        fit_b.append(b.click_adds_a_point(1))

        names = {serve.server_name(i) for i in range(2)}
        for s, fits in ((a, fit_a), (b, fit_b)):
            assert s.servers() and None not in s.servers(), s.served  # every response named
            assert len(s.servers()) == 1, s.served  # ... and one process served them all
            (server,) = s.servers()
            assert server in names
            assert {f["server"] for f in fits} == {server}  # the fit endpoint too
            stream = [w for w in s.sockets if w[0].endswith("/_stcore/stream")]
            assert stream and {w[1] for w in stream} == {server}, s.sockets  # the websocket
            c = s.cookie()
            assert c["httpOnly"] is True and c["sameSite"] == "Lax" and c["value"]
            assert not s.errors
        assert a.servers() != b.servers()  # two sessions, two processes
        assert a.cookie()["value"] != b.cookie()["value"]

        # HAProxy's own account: both processes up, each holding a session's websocket.
        stats = serve.server_stats(class_server.stats)
        assert sorted(stats) == sorted(names)
        assert all(r["status"] == "UP" and int(r["scur"]) >= 1 for r in stats.values()), stats
    finally:
        a.context.close()
        b.context.close()


def _app_pid(serve_pid: int, port: int) -> int:
    """The pid of serve.py's app process on ``port`` (its command line names the port)."""
    for child in psutil.Process(serve_pid).children():
        cmd = child.cmdline()
        if "--server.port" in cmd and cmd[cmd.index("--server.port") + 1] == str(port):
            return child.pid
    raise AssertionError(f"no app process on port {port}")


def _answers_with_cookie(url: str, cookie: str) -> bool:
    req = urllib.request.Request(url + "/_stcore/health", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(req, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def test_a_killed_process_is_restarted_and_its_tab_goes_on_with_its_points(browser,
                                                                           class_server):
    url = class_server.url
    a = Session(browser, url)
    try:
        a.open_playground()
        a.click_adds_a_point(0)
        a.click_adds_a_point(1)
        n = int(data(a.page)["nPoints"])
        (server,) = a.servers()
        port = class_server.app_ports[int(server.removeprefix("app")) - 1]
        cookie = f"SVMLAB={a.cookie()['value']}"

        killed = time.monotonic()
        os.kill(_app_pid(class_server.pid, port), signal.SIGKILL)
        # the service answers a request that carries the dead process's cookie within 10 s
        while not _answers_with_cookie(url, cookie):
            assert time.monotonic() - killed < 10, "no answer within 10 s of the kill"
            time.sleep(0.2)
        # the tab reconnects (to the other process) and the new session has its points
        a.page.get_by_text("A new session started").wait_for()
        assert f"your {n} points came back" in a.page.inner_text("body")
        a.page.wait_for_function(
            f"(() => {{ const r = document.querySelector('{CANVAS}');"
            f" return r && r.__state && r.__state.drawn && Number(r.dataset.nPoints) === {n}"
            " && Number(r.dataset.fitSeq) >= Number(r.dataset.seq); })()")
        a.served.clear()
        a.click_adds_a_point(2)  # and it works there: a click adds to them
        assert not a.errors

        # serve.py said so and started the dead one again: HAProxy has both up once more
        said = "".join(class_server.lines)
        assert f"{server} exited with status -9; starting it again in 1 s" in said, said
        deadline = time.monotonic() + 120
        while not all(r["status"] == "UP"
                      for r in serve.server_stats(class_server.stats).values()):
            assert time.monotonic() < deadline, serve.server_stats(class_server.stats)
            time.sleep(0.5)
        assert f"{server} started again" in "".join(class_server.lines)
        assert _port_answers(port)
    finally:
        a.context.close()
