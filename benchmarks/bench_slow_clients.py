"""Slow clients against a running app server (a script, not a test; loopback only).

Starts ``streamlit run app.py`` on a free 127.0.0.1 port (optionally under a file-descriptor
limit, like ``ulimit -n 1024``), then opens ``--sockets`` slow clients that send part of a
request head and one more header byte every ``TRICKLE_S`` (a slowloris: an idle timeout
alone never fires), plus ``--body`` clients that send a whole head and a few bytes of a fit
request's body, and holds them up to ``--hold`` seconds. Meanwhile it asks, every
``PROBE_GAP_S``, for the health check and a small Playground fit (``/api/refit``), each
with a 5 s timeout. Prints how long the slow sockets stayed open, whether the probes were
answered and how fast (against the same probes with no slow clients, measured first in the
same run), and how much the server logged.

    .venv/bin/python benchmarks/bench_slow_clients.py                      # 400 slow heads
    .venv/bin/python benchmarks/bench_slow_clients.py --sockets 1100 --nofile 1024 --hold 30
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRICKLE_S = 2.0
PROBE_GAP_S = 0.5
PROBE_TIMEOUT_S = 5.0
FIT_BODY = json.dumps({
    "points": [[0, 0, -1], [1, 0, -1], [0, 1, -1], [3, 3, 1], [4, 3, 1], [3, 4, 1]],
    "settings": {"kernel": "linear", "C": 1.0},
}).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, nofile: int, log) -> subprocess.Popen:
    def limit():  # in the child, before exec
        if nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        preexec_fn=limit, env=dict(os.environ, PYTHONUNBUFFERED="1"))


def probe(port: int, what: str) -> float | None:
    """Seconds for a 200 answer to the health check or a fit; None if none came."""
    t0 = time.perf_counter()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_TIMEOUT_S)
        if what == "health":
            c.request("GET", "/_stcore/health")
        else:
            c.request("POST", "/api/refit", FIT_BODY, {"Content-Type": "application/json"})
        r = c.getresponse()
        body = r.read()
        c.close()
        ok = r.status == 200 and (what == "health" or json.loads(body).get("ok") is True)
    except (OSError, http.client.HTTPException, ValueError):
        return None
    return time.perf_counter() - t0 if ok else None


def wait_ready(port: int, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        if probe(port, "health") is not None and probe(port, "fit") is not None:
            return
        time.sleep(0.5)
    raise SystemExit("the server did not answer a fit in time")


def probes(port: int, seconds: float, until=None) -> dict[str, list[float | None]]:
    out: dict[str, list[float | None]] = {"health": [], "fit": []}
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (until and until()):
        for what in out:
            out[what].append(probe(port, what))
        time.sleep(PROBE_GAP_S)
    return out


def open_slow(port: int, heads: int, bodies: int) -> dict[socket.socket, dict]:
    socks: dict[socket.socket, dict] = {}
    body_head = (b"POST /api/refit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                 b"\r\nContent-Length: 100000\r\n\r\n{\"points\": [")
    for k in range(heads + bodies):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        socks[s] = {"t0": time.monotonic(), "closed": None, "kind": "head" if k < heads
                    else "body", "sent": False}
    time.sleep(0.2)
    for s, info in socks.items():
        try:
            s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" if info["kind"] == "head"
                   else body_head)
            info["sent"] = True
        except OSError:
            pass
    return socks


def watch(socks: dict[socket.socket, dict], seconds: float) -> None:
    """Trickle a byte into every open slow socket every TRICKLE_S and note when the server
    closed it; returns when all are closed or after ``seconds``."""
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    end, next_trickle = time.monotonic() + seconds, time.monotonic() + TRICKLE_S
    while time.monotonic() < end and any(i["closed"] is None for i in socks.values()):
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:  # EOF (after a 408, if any)
                socks[s]["closed"] = time.monotonic()
                sel.unregister(s)
        if time.monotonic() >= next_trickle:
            next_trickle += TRICKLE_S
            for s, info in socks.items():
                if info["closed"] is None:
                    try:
                        s.send(b"X" if info["kind"] == "head" else b"[")
                    except OSError:
                        pass
    sel.close()


def ms(v: float) -> str:
    return f"{1e3 * v:7.1f} ms"


def summary(name: str, got: list[float | None], ref: list[float | None]) -> str:
    ok = [v for v in got if v is not None]
    ref_ok = [v for v in ref if v is not None]
    if not ok:
        return f"  {name:7s} answered 0 of {len(got)}"
    p50, ref50 = statistics.median(ok), statistics.median(ref_ok)
    p95 = sorted(ok)[max(0, int(0.95 * len(ok)) - 1)]
    return (f"  {name:7s} answered {len(ok)} of {len(got)}; p50 {ms(p50)} (alone {ms(ref50)}, "
            f"x{p50 / ref50:.1f}), p95 {ms(p95)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sockets", type=int, default=400, help="slow request heads")
    ap.add_argument("--body", type=int, default=0, help="slow fit-request bodies")
    ap.add_argument("--hold", type=float, default=60.0, help="seconds to hold them at most")
    ap.add_argument("--nofile", type=int, default=0, help="the server's fd limit (0: as is)")
    args = ap.parse_args()
    need = args.sockets + args.body + 64
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    port = free_port()
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
        proc = start_server(port, args.nofile, log)
        try:
            wait_ready(port, proc)
            alone = probes(port, 10.0)
            before = os.path.getsize(log.name)
            t0 = time.monotonic()
            socks = open_slow(port, args.sockets, args.body)

            during: dict = {}
            t = threading.Thread(target=lambda: during.update(
                probes(port, args.hold, until=lambda: all(
                    i["closed"] is not None for i in socks.values()))))
            t.start()
            watch(socks, args.hold)
            t.join()
            took = time.monotonic() - t0
            logged = os.path.getsize(log.name) - before
            log.seek(0)
            emfile = log.read().count("Too many open files")
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for s in socks:
            s.close()
    limit = f", server fd limit {args.nofile}" if args.nofile else ""
    print(f"Slow clients: {args.sockets} slow heads + {args.body} slow bodies on loopback, "
          f"held up to {args.hold:.0f} s{limit} ({took:.1f} s)")
    for kind in ("head", "body"):
        infos = [i for i in socks.values() if i["kind"] == kind]
        if not infos:
            continue
        closed = sorted(i["closed"] - i["t0"] for i in infos if i["closed"] is not None)
        name = {"head": "heads", "body": "bodies"}[kind]
        line = f"  slow {name} closed by the server: {len(closed)} of {len(infos)}"
        if closed:
            line += (f"; after p50 {statistics.median(closed):.1f} s, "
                     f"max {closed[-1]:.1f} s")
        print(line)
    print("Probes while they were open (every 0.5 s, 5 s timeout):")
    for what in ("health", "fit"):
        print(summary(what, during.get(what, []), alone[what]))
    print(f"  server log meanwhile: {logged:,} bytes; 'Too many open files': {emfile}")


if __name__ == "__main__":
    main()
