"""A student's clicks on the Playground canvas, as ``ui/browser/canvas.js`` makes them (for
bench_class).

``CanvasClient`` runs on a loaded ``st_client.StreamlitSession`` and mirrors these functions
of ``ui/browser/canvas*.js``; keep it in step when they change:

- ``update(st, data)``: adopt the component's data (points when ``epoch`` changed, ``seq`` as
  the last edit the session has, ``settings``, ``fit_url``, ``home``); the view is ``home``
  (the figure's axis ranges, which Plotly keeps until the student zooms).
- ``onUp`` → ``addPoint`` → ``commit``: a click at an empty place appends ``[x, y, ±1]``
  (coordinates rounded as ``roundTo``) and bumps ``seq``.
- ``requestRefit``: ``POST fit_url`` with ``{points, settings, seq, view, home, warm}``; one
  request in flight per student, and a click during it only sets ``again`` (latest wins: the
  next request carries the newest points when this one answers). ``onAnswer``: an ``ok``
  answer becomes the next request's warm start ``{points: the request's points, alpha}``. The
  browser then draws everything from the answer: no Streamlit rerun.
- ``scheduleSync`` / ``sendPoints``: ``SYNC_IDLE_MS`` after the last click (the timer restarts
  with every click), ``setStateValue("points", {epoch, seq, points})`` →
  a ``rerun_script`` BackMsg whose ``widget_states`` hold the canvas widget (``id`` = the
  element's id, ``json_value`` = ``{"points": {...}}``) and whose ``fragment_id`` is the
  canvas fragment's (the element's ``delta.fragment_id``); the page stores the points and
  sends back no answer.

Sync modes (``sync=``): ``idle`` (the browser: after a pause of ``idle_s``, default
``SYNC_IDLE_MS``), ``every`` (after every click: the upper bound, as when each click is
followed by a pause), ``never`` (endpoint only). Unlike the browser, a student's session
updates never overlap: one waits for the previous rerun to finish and then carries the newest
points (the browser sends at once and the server queues it); at 1 click per 2 s that never
binds.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from st_client import SessionError, StreamlitSession

CANVAS = "svmlab_canvas"  # ui/playground/canvas.py COMPONENT_NAME
# canvas_sync.js's own constant, read from it (the simulated canvas syncs as the real one)
_CANVAS_JS = Path(__file__).resolve().parents[1] / "ui" / "browser" / "canvas_sync.js"
SYNC_IDLE_MS = int(re.search(r"const SYNC_IDLE_MS = (\d+);", _CANVAS_JS.read_text()).group(1))
MIN_GAP = 0.02  # a new point keeps this fraction of the view from the others (~16 px)
SYNC_MODES = ("every", "idle", "never")


@dataclass
class Stats:
    """Shared by the students of one run."""

    answer_ms: list[float] = field(default_factory=list)  # click → its refit answered
    post_ms: list[float] = field(default_factory=list)  # POST → answer parsed
    server_ms: list[float] = field(default_factory=list)  # the endpoint's own time
    canvas_ms: list[float] = field(default_factory=list)  # points sent → canvas run ended
    clicks: int = 0
    coalesced: int = 0  # clicks answered by a later request (one was in flight)
    posts: int = 0
    errors: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        self.examples.setdefault(kind, detail[:300])


def round_to(v: float, span: float) -> float:
    """canvas_geometry.js roundTo: 3 significant digits of the view's span."""
    digits = max(0, 3 - math.floor(math.log10(max(span, 1e-12))))
    return round(v, min(digits, 12))


class CanvasClient:
    """One student's canvas on a loaded session. ``click()`` returns at once, as in the
    browser; ``settled()`` waits until its refits and session updates are done."""

    def __init__(
        self,
        session: StreamlitSession,
        stats: Stats,
        *,
        sync: str = "every",
        idle_s: float = SYNC_IDLE_MS / 1000,
        rng: random.Random | None = None,
        post_timeout: float = 10.0,
    ):
        if sync not in SYNC_MODES:
            raise ValueError(f"sync must be one of {SYNC_MODES}, not {sync!r}")
        self.s = session
        self.stats = stats
        self.sync = sync
        self.idle_s = idle_s
        self.rng = rng or random.Random(0)
        self.post_timeout = post_timeout
        self.points: list[list] = []
        self.epoch: int | None = None
        self.seq = 0  # the last edit made here
        self.fit_seq = 0  # the edit the session's figure was fitted on
        self.settings: dict = {}
        self.fit_url = ""
        self.view: dict | None = None
        self.warm: dict | None = None
        self.pending: dict[int, float] = {}  # seq → click time, until answered
        self.answered_seq = 0
        self.last_edit = -math.inf
        self.sent_seq = 0  # the last edit the session was told of
        self._canvas_value: str | None = None
        self._in_flight: asyncio.Task | None = None
        self._again = False
        self._due = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        self._busy = asyncio.Event()  # set while a session update is running
        self._syncer: asyncio.Task | None = None
        self.update(self._component(CANVAS).data())

    # ------------------------------------------------------------------ canvas.js update

    def _component(self, name: str):
        c = self.s.components.get(name)
        if c is None:
            raise SessionError(f"the page has no {name} element")
        return c

    def update(self, data: dict) -> None:
        self.fit_url = (data.get("fit_url") or "") if data.get("settings") else ""
        self.settings = data.get("settings") or {}
        if data.get("epoch") != self.epoch:
            self.points = [[float(p[0]), float(p[1]), 1 if p[2] > 0 else -1]
                           for p in data.get("points") or []]  # fmt: skip
            self.epoch = data.get("epoch")
            self.seq = int(data.get("seq") or 0)
            self.warm = None
            self.pending.clear()
        self.fit_seq = int(data.get("seq") or 0)
        home = data.get("home")
        self.view = {"x": [float(v) for v in home[0]], "y": [float(v) for v in home[1]]}

    # ------------------------------------------------------------------ a click

    def pick(self) -> list:
        """An empty spot in the view (as benchmarks/bench_latency.py's EMPTY_SPOT) and a
        random class: [x, y, label] rounded as canvas_edit.js onUp does."""
        (x0, x1), (y0, y1) = self.view["x"], self.view["y"]
        fx = [(p[0] - x0) / (x1 - x0) for p in self.points]
        fy = [(p[1] - y0) / (y1 - y0) for p in self.points]
        for _ in range(200):
            u, v = self.rng.uniform(0.03, 0.97), self.rng.uniform(0.03, 0.97)
            if all((u - a) ** 2 + (v - b) ** 2 > MIN_GAP**2 for a, b in zip(fx, fy)):
                x = round_to(x0 + u * (x1 - x0), x1 - x0)
                y = round_to(y0 + v * (y1 - y0), y1 - y0)
                return [x, y, self.rng.choice((1, -1))]
        raise RuntimeError("no empty spot left to click")

    def click(self) -> int:
        """addPoint + commit: returns the edit's seq."""
        self.points.append(self.pick())
        t = time.perf_counter()
        self.seq += 1
        self.pending[self.seq] = t
        self.last_edit = t
        self.stats.clicks += 1
        if self.fit_url:
            self._request_refit()
        if self.sync == "every":
            self._defer_send(0.0)
        elif self.sync == "idle":
            self._defer_send(self.idle_s, restart=True)
        return self.seq

    # ------------------------------------------------------------------ the endpoint

    def _request_refit(self) -> None:
        if self._in_flight is not None:
            self._again = True
            return
        self._in_flight = asyncio.create_task(self._refit_loop())

    async def _refit_loop(self) -> None:
        try:
            while True:
                self._again = False
                await self._refit_once()
                if not self._again:
                    break
        finally:
            self._in_flight = None

    async def _refit_once(self) -> None:
        seq, epoch = self.seq, self.epoch
        points = [p[:] for p in self.points]
        body: dict[str, Any] = {"points": points, "settings": self.settings, "seq": seq}
        if self.view:
            body["view"] = body["home"] = self.view
        if self.warm and self.warm["epoch"] == epoch:
            body["warm"] = {"points": self.warm["points"], "alpha": self.warm["alpha"]}
        st = self.stats
        st.posts += 1
        t = time.perf_counter()
        try:
            async with self.s.http.post(
                self.s.base_url + self.fit_url,
                data=json.dumps(body, separators=(",", ":")),
                headers={"Content-Type": "application/json"},
                timeout=aiohttp.ClientTimeout(total=self.post_timeout),
            ) as r:
                status, text = r.status, await r.text()
        except TimeoutError:
            st.error("POST timeout", f"no answer within {self.post_timeout:.0f} s")
            return self._drop(seq)
        except aiohttp.ClientError as exc:
            st.error("POST failed", f"{type(exc).__name__}: {exc}")
            return self._drop(seq)
        now = time.perf_counter()
        if status != 200:
            st.error(f"HTTP {status}", text)
            return self._drop(seq)
        ans = json.loads(text)
        st.post_ms.append(1000 * (now - t))
        st.server_ms.append(float(ans.get("server_ms", math.nan)))
        if not ans.get("ok"):
            st.error("ok false", f"{ans.get('kind')}: {ans.get('message')}")
        elif len(ans.get("alpha") or ()) != len(points):
            st.error("wrong answer", f"{len(ans.get('alpha') or ())} α for {len(points)} points")
        else:
            self.warm = {"points": points, "alpha": ans["alpha"], "epoch": epoch}
        for s in [s for s in self.pending if s <= seq]:
            st.answer_ms.append(1000 * (now - self.pending.pop(s)))
            if s < seq:
                st.coalesced += 1
        self.answered_seq = max(self.answered_seq, seq)

    def _drop(self, seq: int) -> None:
        for s in [s for s in self.pending if s <= seq]:
            self.pending.pop(s)
        self.answered_seq = max(self.answered_seq, seq)

    # ------------------------------------------------------------------ the session update

    def _defer_send(self, delay: float, restart: bool = False) -> None:
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            if not restart:
                return  # deferSend: the first unsent edit's timer stands
            self._timer.cancel()
        self._timer = loop.call_later(delay, self._flush)

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.sync == "never" or self.seq <= self.sent_seq:
            return
        if self._syncer is None:
            self._syncer = asyncio.create_task(self._sync_loop())
        self._due.set()

    def _widgets(self) -> dict[str, str]:
        return {self._component(CANVAS).id: self._canvas_value}

    async def _sync_loop(self) -> None:
        while True:
            await self._due.wait()
            self._due.clear()
            self._busy.set()
            try:
                await self._send_points()
            except SessionError as exc:
                self.stats.error("session", str(exc))
            finally:
                self._busy.clear()

    async def _send_points(self) -> None:
        while self.seq > self.sent_seq:
            seq = self.seq
            pts = {"epoch": self.epoch, "seq": seq, "points": self.points}
            n_sent = len(self.points)  # the list grows with clicks during the rerun
            self._canvas_value = json.dumps({"points": pts}, separators=(",", ":"))
            frag = self._component(CANVAS).fragment_id
            run = await self.s.rerun(self._widgets(), fragment_id=frag)
            self.sent_seq = seq
            self.stats.canvas_ms.append(run.ms)
            self._run_errors(run)
            comp = run.components.get(CANVAS)
            if comp is None:
                self.stats.error("sync not applied", f"edit {seq}: the canvas was not redrawn")
                continue
            data = comp.data()
            self.update(data)
            got = len(data.get("points") or [])
            if data.get("seq") != seq or got != n_sent:
                self.stats.error("sync not applied", f"sent edit {seq} ({n_sent} points), "
                                 f"the session has edit {data.get('seq')} ({got})")
                continue

    def _run_errors(self, run) -> None:
        for e in run.errors:
            self.stats.error("page error", e)

    async def check_session(self) -> str | None:
        """A full rerun of the page that sends no widget state (the server keeps the last
        ones): its canvas must carry this student's points, i.e. the session adopted them.
        None when it does, else what differs."""
        run = await self.s.rerun({}, fragment_id="")
        comp = run.components.get(CANVAS)
        if comp is None:
            return "a full rerun did not draw the canvas"
        data = comp.data()
        have = [[float(p[0]), float(p[1]), p[2]] for p in data.get("points") or []]
        if have != self.points:
            return (f"the session has {len(have)} points (edit {data.get('seq')}), this "
                    f"student {len(self.points)} (edit {self.seq})")  # fmt: skip
        return None

    # ------------------------------------------------------------------ waiting

    async def answered(self, seq: int, timeout: float = 30.0) -> None:
        """Until the refit of edit ``seq`` was answered (or failed)."""
        t_end = time.perf_counter() + timeout
        while self.answered_seq < seq and self.fit_url:
            if time.perf_counter() > t_end:
                raise TimeoutError(f"edit {seq} not answered in {timeout:.0f} s")
            await asyncio.sleep(0.002)

    async def settled(self, timeout: float = 30.0) -> None:
        """Until no refit is in flight and the session heard of every edit this mode sends."""
        t_end = time.perf_counter() + timeout
        while (self._in_flight is not None or self._busy.is_set() or self._due.is_set()
               or (self.sync != "never" and self.seq > self.sent_seq)):  # fmt: skip
            if time.perf_counter() > t_end:
                raise TimeoutError(f"not settled in {timeout:.0f} s")
            await asyncio.sleep(0.005)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for t in (self._syncer, self._in_flight):
            if t is not None:
                t.cancel()
