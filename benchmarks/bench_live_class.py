"""A live class on one box: a teacher's dashboard and N students, each a real Streamlit session.

Each student is what a phone's browser tab is to the server (``st_client.StreamlitSession``:
the page's HTTP requests, its own websocket and ``st.session_state``): it opens the Join page
with the class code, types a nickname and presses *Join*, then answers the first screen (types
a number, presses *Submit*) and waits for the page's "Saved" (the store's commit); meanwhile its
page reruns its polling fragment as often as the page asks (``st.fragment(run_every=…)``, the
``auto_rerun`` message), as a browser does. The teacher is one more session on the Teach page,
its dashboard fragment rerun at its own interval; the dashboard's "answered N" is read after
each rerun. The class is made through the store (``ui.classroom.store``) on the same
database the servers use (a temporary SQLite file unless ``--database`` names one).

Goals (issue 26, 2 cores): 200 students join within 30 s and answer within a 30 s window;
answer → acknowledged p95 ≤ 300 ms; the dashboard shows every answer ≤ 2 s after its commit
(the answer row's commit time ``at`` → the end of the first dashboard run that counts it); no
answer lost (every acknowledged answer is in the database at the end). Printed too: joins
(open + join) p50/p95/max, errors, server CPU seconds and ms per answer, server RSS, the
client's own CPU.

- ``--processes 2``: two app processes behind HAProxy (``deploy/serve.py -n 2``, the same
  database): the teacher on the first process, students through HAProxy (cookie stickiness).
- ``--kill``: (with ``--processes 2``) the second app process is killed (SIGKILL) in the
  middle of the answer window; its students' websockets close, they open the page again
  through HAProxy (their address bar holds the class code and their seat, as the page put
  it: ``page_info_changed``), find their seat and answer; at the end every acknowledged answer
  must be there. ``--restart``: then everything is stopped and started again, and every
  answer and the class must still be there (read by a rejoining student and the store).

    .venv/bin/python benchmarks/bench_live_class.py                       # 200 students
    .venv/bin/python benchmarks/bench_live_class.py --students 5 --join-window 3 --answer-window 5
    .venv/bin/python benchmarks/bench_live_class.py --processes 2 --kill --restart
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

from appserver import AppServer, free_port  # noqa: E402
from bench_class import ServerMeter, client_cpu, summary  # noqa: E402
from st_client import SessionError, StreamlitSession  # noqa: E402

from ui.classroom.activities import activity_from_screens  # noqa: E402
from ui.classroom.model import Screen  # noqa: E402
from ui.classroom.store import get_store  # noqa: E402

JOIN_PAGE, TEACH_PAGE = "join_class", "teach_class"
CODE_LABEL, NICK_LABEL, JOIN_LABEL = "Class code", "Nickname", "Join"
ANSWER_LABEL, SUBMIT_LABEL, SAVED = "Your answer", "Submit", "Saved"
TEACH_CODE_LABEL, TEACH_KEY_LABEL, OPEN_LABEL = "Class code", "Teacher key", "Open the dashboard"
ANSWERED_RE = re.compile(r"answered\s+(\d+)")
GOAL_ACK_P95_MS, GOAL_DASH_S, GOAL_JOIN_S = 300.0, 2.0, 30.0
ACTIVITY = activity_from_screens("Benchmark", [
    Screen("number", {"quantity": "margin", "dataset": "two_point"}, "Two points by hand"),
    Screen("mark", {"what": "sv", "dataset": "D1"}, "Mark the support vectors of D1"),
])


@dataclass
class Student:
    i: int
    session: StreamlitSession | None = None
    joined_s: float | None = None  # open + join, seconds
    joined_at: float | None = None  # monotonic clock
    ack_ms: float | None = None
    acked_at: float | None = None  # wall clock
    rejoined: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class Dash:
    polls: list[tuple[float, int]] = field(default_factory=list)  # (wall clock, answered)
    errors: list[str] = field(default_factory=list)


def nickname(i: int) -> str:
    return f"Student{i:03d}"


async def poll_fragments(s: StreamlitSession, stop: asyncio.Event, on_run=None) -> None:
    """Rerun each fragment the page asked to rerun, at its interval (as a browser does)."""
    while not stop.is_set():
        if not s.auto_reruns:
            await asyncio.sleep(0.5)
            continue
        fid, every = next(iter(s.auto_reruns.items()))
        try:
            await asyncio.wait_for(stop.wait(), every)
            return
        except TimeoutError:
            pass
        if not s.connected:
            return
        run = await s.rerun({}, fragment_id=fid, auto=True)
        if on_run is not None:
            on_run(run)


async def join(st: Student, url: str, code: str, timeout: float) -> None:
    s = StreamlitSession(url, f"code={code}", timeout=timeout)
    s.page_name = JOIN_PAGE
    t0 = time.perf_counter()
    await s.open()
    run = await s.rerun({}, values={NICK_LABEL: nickname(st.i), JOIN_LABEL: True})
    if run.errors:
        raise SessionError(f"join: {run.errors[0]}")
    if not any(w.startswith(ANSWER_LABEL) for w in s.widgets):
        raise SessionError(f"join: no {ANSWER_LABEL!r} after joining: {run.text()[:200]}")
    st.session, st.joined_s, st.joined_at = s, time.perf_counter() - t0, time.monotonic()


async def rejoin(st: Student, url: str, timeout: float) -> None:
    """A student whose server died: the tab opens the page again (HAProxy picks a live
    process) with the address the page left in its bar (code and seat)."""
    old = st.session
    s = StreamlitSession(url, old.query, timeout=timeout)
    s.page_name = JOIN_PAGE
    await old.close()
    await s.open()
    if not any(w.startswith(ANSWER_LABEL) for w in s.widgets):
        raise SessionError(f"rejoin: the seat was not found: {s.query}")
    st.session, st.rejoined = s, st.rejoined + 1


async def answer(st: Student, value: str) -> None:
    label = next(w for w in st.session.widgets if w.startswith(ANSWER_LABEL))
    # the browser reruns only the fragment the form is in (the Join page's screen)
    run = await st.session.rerun({}, values={label: value, SUBMIT_LABEL: True},
                                 fragment_id=st.session.widget_fragment.get(SUBMIT_LABEL, ""))
    if run.errors or SAVED not in run.text():
        raise SessionError(f"answer: {(run.errors or [run.text()[:200]])[0]}")
    st.ack_ms, st.acked_at = run.ms, time.time()


async def student(st: Student, url: str, code: str, a: argparse.Namespace, t_join: float,
                  t_answer: float, stop: asyncio.Event, killed: asyncio.Event) -> None:
    await asyncio.sleep(max(0.0, t_join - time.monotonic()))
    try:
        await join(st, url, code, a.timeout)
    except (SessionError, OSError, TimeoutError) as exc:
        st.errors.append(f"join: {exc}")
        return
    poller = asyncio.create_task(poll_fragments(st.session, stop))
    await asyncio.sleep(max(0.0, t_answer - time.monotonic()))
    for attempt in range(3):
        if not st.session.connected and killed.is_set():
            poller.cancel()
            try:
                await rejoin(st, url, a.timeout)
            except (SessionError, OSError, TimeoutError) as exc:
                st.errors.append(f"rejoin: {exc}")
                return
            poller = asyncio.create_task(poll_fragments(st.session, stop))
        try:
            await answer(st, "0.7071")
            break
        except (SessionError, OSError, TimeoutError) as exc:
            if not killed.is_set() or attempt == 2:
                st.errors.append(str(exc))
                break
            await asyncio.sleep(1.0)  # the server died under it: reload, as a student would
    await stop.wait()
    poller.cancel()


async def teacher(url: str, code: str, key: str, a, stop: asyncio.Event, dash: Dash) -> None:
    s = StreamlitSession(url, "", timeout=a.timeout)
    s.page_name = TEACH_PAGE
    await s.open()
    run = await s.rerun({}, values={TEACH_CODE_LABEL: code, TEACH_KEY_LABEL: key,
                                    OPEN_LABEL: True})

    def note(run) -> None:
        m = ANSWERED_RE.search(run.text())
        if m:
            dash.polls.append((time.time(), int(m.group(1))))
        if run.errors:
            dash.errors.append(run.errors[0])

    note(run)
    try:
        await poll_fragments(s, stop, note)
    except SessionError as exc:
        dash.errors.append(str(exc))
    await s.close()


def dashboard_lags(dash: Dash, committed: list[float]) -> tuple[list[float], int]:
    """Seconds from each answer's commit to the end of the first dashboard run counting it;
    and how many answers no dashboard run counted."""
    lags, missing = [], 0
    for k, at in enumerate(sorted(committed), start=1):
        seen = next((t for t, n in dash.polls if n >= k and t >= at), None)
        if seen is None:
            missing += 1
        else:
            lags.append(seen - at)
    return lags, missing


# ---------------------------------------------------------------------------- servers


class Servers:
    """One app process (AppServer) or N behind HAProxy (deploy/serve.py)."""

    def __init__(self, n: int, env: dict[str, str]):
        self.n, self.env = n, env
        self.proc: subprocess.Popen | None = None
        self.single: AppServer | None = None

    def start(self) -> tuple[str, str, int]:
        """(students' URL, teacher's URL, the pid whose tree is measured)."""
        if self.n == 1:
            self.single = AppServer(env=self.env, timeout=180)
            url = self.single.start()
            return url, url, self.single.proc.pid
        self.port, self.first = free_port(), free_port()
        while self.first + self.n > 65000 or any(not _free(self.first + k)
                                                 for k in range(self.n)):
            self.first = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "deploy" / "serve.py"), "-n", str(self.n), "--port",
             str(self.port), "--address", "127.0.0.1", "--first-app-port", str(self.first)],
            env={**os.environ, **self.env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True)
        t_end = time.monotonic() + 240
        for line in self.proc.stdout:
            if "SVM Lab is ready" in line:
                break
            if time.monotonic() > t_end:
                raise RuntimeError("deploy/serve.py did not get ready")
        else:
            raise RuntimeError("deploy/serve.py ended before it was ready")
        return (f"http://127.0.0.1:{self.port}", f"http://127.0.0.1:{self.first}",
                self.proc.pid)

    def app_pid(self, k: int) -> int | None:
        """The app process on the k-th port (its listening socket's owner)."""
        port = self.first + k
        for p in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                if any(c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN
                       for c in p.net_connections("tcp")):
                    return p.pid
            except psutil.Error:
                continue
        return None

    def stop(self) -> None:
        if self.single is not None:
            self.single.stop()
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


def _free(port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


# ---------------------------------------------------------------------------- the class


async def run_class(a, servers: Servers, code: str, key: str, out: dict) -> list[Student]:
    url, teacher_url, pid = servers.start()
    meter = ServerMeter(pid)
    stop, killed = asyncio.Event(), asyncio.Event()
    dash = Dash()
    students = [Student(i) for i in range(a.students)]
    rng = random.Random(a.seed)
    t0 = time.monotonic() + 1.0
    t_answers = t0 + a.join_window + 2.0
    cpu0, client0, rss0 = meter.cpu(), client_cpu(), meter.rss()
    teach = asyncio.create_task(teacher(teacher_url, code, key, a, stop, dash))
    tasks = [asyncio.create_task(student(
        s, url, code, a, t0 + a.join_window * s.i / max(1, a.students),
        t_answers + rng.uniform(0, a.answer_window), stop, killed)) for s in students]
    cpu_answers0 = None
    if a.kill:
        await asyncio.sleep(max(0.0, t_answers - time.monotonic()) + a.answer_window / 2)
        victim = servers.app_pid(1)
        if victim:
            os.kill(victim, signal.SIGKILL)
            out["killed_pid"] = victim
        killed.set()
    await asyncio.sleep(max(0.0, t_answers - time.monotonic()))
    cpu_answers0 = meter.cpu()
    await asyncio.sleep(max(0.0, t_answers + a.answer_window - time.monotonic()))
    # every answer sent is answered (or failed) before the class ends
    t_wait = time.monotonic() + a.timeout
    while time.monotonic() < t_wait and any(
            s.ack_ms is None and not s.errors for s in students):
        await asyncio.sleep(0.5)
    cpu_answers = meter.cpu() - cpu_answers0
    await asyncio.sleep(2.5)  # the dashboard's last polls
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await teach
    for s in students:
        if s.session is not None:
            await s.session.close()
    acked = [s for s in students if s.ack_ms is not None]
    dashboard = get_store(a.database).dashboard(code, key)
    stored = {st.nickname for st in dashboard.students} if dashboard else set()
    answered_ids = {r.student_id for r in dashboard.answers}
    by_nick = {st.nickname: st.id for st in dashboard.students}
    lost = [s.i for s in acked if by_nick.get(nickname(s.i)) not in answered_ids]
    committed = sorted(r.at for r in dashboard.answers if r.screen == 0)
    lags, unseen = dashboard_lags(dash, committed)
    joins = [s.joined_s for s in students if s.joined_s is not None]
    out.update({
        "students": a.students, "processes": a.processes,
        "joined": len(joins), "stored_students": len(stored),
        "join_s": summary(joins),
        "all_joined_after_s": max((s.joined_at - t0 for s in students if s.joined_at),
                                  default=float("nan")),
        "acked": len(acked), "ack_ms": summary([s.ack_ms for s in acked]),
        "lost": lost, "rejoined": sum(s.rejoined for s in students),
        "dashboard_lag_s": summary(lags), "dashboard_never_counted": unseen,
        "dashboard_polls": len(dash.polls), "dashboard_errors": dash.errors[:3],
        "errors": [f"{s.i}: {e}" for s in students for e in s.errors][:10],
        "n_errors": sum(len(s.errors) for s in students),
        "server_cpu_s": meter.cpu() - cpu0,
        "server_cpu_ms_per_answer": 1000 * cpu_answers / max(1, len(acked)),
        "server_rss_mb": {"before": rss0, "after": meter.rss()},
        "client_cpu_s": client_cpu() - client0,
    })
    return students


async def after_restart(a, servers: Servers, code: str, key: str, students, out) -> None:
    """Everything stopped and started again: the class and every acknowledged answer are
    still there (the store), and a student rejoining from the address bar finds the seat."""
    servers.stop()
    url, _, _ = servers.start()
    d = get_store(a.database).dashboard(code, key)
    by_nick = {st.nickname: st.id for st in d.students}
    answered = {r.student_id for r in d.answers}
    acked = [s for s in students if s.ack_ms is not None]
    out["after_restart"] = {
        "class_found": d.state.code == code,
        "acked_answers_kept": sum(by_nick.get(nickname(s.i)) in answered for s in acked),
        "acked": len(acked),
    }
    probe = next((s for s in acked if s.session is not None), None)
    if probe is not None:
        s = StreamlitSession(url, probe.session.query, timeout=a.timeout)
        s.page_name = JOIN_PAGE
        run = await s.open()
        out["after_restart"]["rejoined_sees_saved"] = SAVED in run.text()
        await s.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--join-window", type=float, default=20.0,
                    help="students arrive evenly over this long (s); all must be in ≤ 30 s")
    ap.add_argument("--answer-window", type=float, default=30.0)
    ap.add_argument("--processes", type=int, default=1, choices=(1, 2))
    ap.add_argument("--kill", action="store_true", help="kill the second process mid-class")
    ap.add_argument("--restart", action="store_true", help="then restart everything")
    ap.add_argument("--database", help="SQLAlchemy URL (default: a temporary SQLite file)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write the figures here too")
    a = ap.parse_args(argv)
    if a.kill and a.processes < 2:
        ap.error("--kill needs --processes 2")
    tmp = tempfile.TemporaryDirectory(prefix="svmlab-live-")
    a.database = a.database or f"sqlite:///{tmp.name}/svmlab.db"
    store = get_store(a.database)
    code, key = store.create_class(ACTIVITY)
    servers = Servers(a.processes, {"SVMLAB_DATABASE_URL": a.database})
    out: dict = {"code": code}
    try:
        students = asyncio.run(run_class(a, servers, code, key, out))
        if a.restart:
            asyncio.run(after_restart(a, servers, code, key, students, out))
    finally:
        servers.stop()
    print(json.dumps(out, indent=1, default=str))
    ok = (out["joined"] == a.students and not out["lost"] and out["n_errors"] == 0
          and out["ack_ms"]["p95"] <= GOAL_ACK_P95_MS
          and out["all_joined_after_s"] <= GOAL_JOIN_S
          and out["dashboard_lag_s"]["max"] <= GOAL_DASH_S
          and out["dashboard_never_counted"] == 0)
    print(f"goals {'met' if ok else 'NOT met'}: all join ≤ {GOAL_JOIN_S:g} s, ack p95 ≤ "
          f"{GOAL_ACK_P95_MS:g} ms, dashboard ≤ {GOAL_DASH_S:g} s behind, no answer lost")
    if a.kill:  # the fault's own goals: nothing acknowledged is lost, its students go on
        ok = not out["lost"] and out["n_errors"] == 0 and out["acked"] == a.students
        print(f"fault goals {'met' if ok else 'NOT met'}: process {out.get('killed_pid')} "
              f"killed mid-class; {out['rejoined']} students rejoined through HAProxy and "
              f"answered; {out['acked']} of {a.students} answers acknowledged, "
              f"{len(out['lost'])} lost")
    if a.restart:
        r = out["after_restart"]
        ok = ok and r["class_found"] and r["acked_answers_kept"] == r["acked"] and r.get(
            "rejoined_sees_saved", False)
        print(f"restart goals {'met' if ok else 'NOT met'}: the class "
              f"{'is there' if r['class_found'] else 'is GONE'}, {r['acked_answers_kept']} of "
              f"{r['acked']} acknowledged answers kept, a student rejoining from the address "
              f"bar {'sees' if r.get('rejoined_sees_saved') else 'does NOT see'} the answer")
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
