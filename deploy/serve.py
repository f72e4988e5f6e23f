"""Serve SVM Lab to a class from one machine: N app processes behind HAProxy, no Docker.

    python deploy/serve.py [-n 2] [--port 8080] [--address 0.0.0.0] [--first-app-port 8511]
    make serve N=4 PORT=8080 ADDRESS=0.0.0.0

1. fills numba's cache once (``python -m svm_engine.precompile``), so that the N processes
   load the compiled solvers instead of each compiling them at the same time;
2. brings the store's schema up to date once (``ui.classroom.store``: live classes and teacher
   links) and says which database the N processes share: ``$SVMLAB_DATABASE_URL``, else the
   one SQLite file ``<repo>/var/svmlab.db`` (every process computes the same path from the
   code's own folder, whatever its working directory);
3. starts N ``streamlit run app.py`` on 127.0.0.1, ports first-app-port … + N − 1 (loopback
   only: students reach them through HAProxy), with one shared cookie secret;
4. writes the backend file (one ``server`` line per process) and runs Debian's ``haproxy``
   with ``deploy/haproxy.cfg`` (the policy: cookie stickiness, health checks, timeouts) on
   address:port;
5. prints "SVM Lab is ready: URL" once HAProxy sees every process up, and stops everything
   on Ctrl-C or SIGTERM;
6. supervises them: a process that dies (a crash, the OOM killer, ``kill -9``) is started
   again on its port after a pause that doubles with each quick death (``Backoff``: 1 s,
   2 s, … at most 30 s; back to 1 s once it has run a minute). Meanwhile HAProxy's health
   check takes it out of the pool and ``option redispatch`` sends its students to the others
   (their tabs hand their points to the new session); HAProxy itself is restarted likewise.
   (supervisord or systemd would do the same, but are not on every machine; compose.yaml's
   ``restart: unless-stopped`` does it for the containers.)

Logs (one per app process, haproxy.log with a line per request) go to ``--log-dir``.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POLICY = ROOT / "deploy" / "haproxy.cfg"
HAPROXY_PATHS = ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")


def find_haproxy() -> str | None:
    return shutil.which("haproxy") or next((p for p in HAPROXY_PATHS if os.access(p, os.X_OK)),
                                           None)  # fmt: skip


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def port_is_free(port: int, address: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((address, port))
        except OSError:
            return False
    return True


def app_ports(n: int, first: int) -> list[int]:
    """N loopback ports for the app processes: first … first + n − 1, or (first = 0) any
    free ones. Raises ValueError naming a port that is taken."""
    if n < 1:
        raise ValueError(f"-n must be at least 1; got {n}")
    if first == 0:
        ports: list[int] = []
        while len(ports) < n:
            p = free_port()
            if p not in ports:
                ports.append(p)
        return ports
    ports = list(range(first, first + n))
    for p in ports:
        if not port_is_free(p):
            raise ValueError(f"port {p} on 127.0.0.1 is taken: choose --first-app-port")
    return ports


def server_name(i: int) -> str:
    return f"app{i + 1}"


def backend_config(ports: list[int], stats_socket: str) -> str:
    """The second HAProxy file: one server per app process, and a local stats socket
    (``show stat``) from which this script learns when every process is up."""
    lines = [
        "# Written by deploy/serve.py: the app processes on this machine.",
        "global",
        f"    stats socket {stats_socket} mode 600 level user",
        "",
        "backend app from svmlab",
    ]
    lines += [f"    server {server_name(i)} 127.0.0.1:{p} check" for i, p in enumerate(ports)]
    return "\n".join(lines) + "\n"


def app_command(port: int) -> list[str]:
    return [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.fileWatcherType", "none",  # N processes need not each watch the files
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def server_stats(stats_socket: str) -> dict[str, dict]:
    """{server name: its row of HAProxy's ``show stat``} for the backend ``app``: "status"
    ("UP", "DOWN", ...), "scur" (connections open now), "stot" (in all), ..."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        s.connect(stats_socket)
        s.sendall(b"show stat\n")
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    text = b"".join(chunks).decode().lstrip("# ")
    rows = csv.DictReader(io.StringIO(text))
    return {r["svname"]: r for r in rows
            if r["pxname"] == "app" and r["svname"] not in ("FRONTEND", "BACKEND")}  # fmt: skip


class Stopped(Exception):
    """SIGTERM or SIGINT arrived."""


def _on_signal(signum, _frame):
    raise Stopped(signal.Signals(signum).name)


class Backoff:
    """The pause before a dead process is started again: ``first`` seconds, doubled after
    each death that came within ``healthy`` seconds of its start, at most ``cap``; a process
    that ran ``healthy`` seconds or more starts again after ``first`` (a crash loop waits
    ever longer, an occasional death is mended at once)."""

    def __init__(self, first: float = 1.0, cap: float = 30.0, healthy: float = 60.0):
        self.first, self.cap, self.healthy = first, cap, healthy
        self.delay = first

    def after_death(self, ran_for: float) -> float:
        """The pause before the next start of a process that died after ``ran_for`` s."""
        if ran_for >= self.healthy:
            self.delay = self.first
        pause = self.delay
        self.delay = min(self.cap, self.delay * 2)
        return pause


class Child:
    """One supervised process: its command, log, last start, and when it is due again."""

    def __init__(self, name: str, command: list[str], log, **popen):
        self.name, self.command, self.log, self.popen = name, command, log, popen
        self.backoff = Backoff()
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.due: float | None = None  # when a dead one starts again

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True, **self.popen)  # fmt: skip
        self.started, self.due = time.monotonic(), None

    def tend(self, now: float) -> str | None:
        """Restart a dead process when its pause is over; a line to print when it died or
        started again."""
        if self.proc is not None and self.due is None and self.proc.poll() is not None:
            pause = self.backoff.after_death(now - self.started)
            self.due = now + pause
            return (f"{self.name} exited with status {self.proc.returncode}; "
                    f"starting it again in {pause:.0f} s")  # fmt: skip
        if self.due is not None and now >= self.due:
            self.start()
            return f"{self.name} started again (pid {self.proc.pid})"
        return None


def stop(procs: list[subprocess.Popen]) -> None:
    """Terminate HAProxy first (no new requests), then the app processes; kill stragglers."""
    for p in reversed(procs):
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 15
    for p in reversed(procs):
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)


# run in the app's interpreter, from the repository: the store as the app processes will open it
STORE_CHECK = ("from sqlalchemy.engine import make_url; from ui.classroom.store import get_store; "
               "print(make_url(get_store().url).render_as_string(hide_password=True))")


def store_check(env: dict) -> str:
    """The database the app processes will share, its schema brought up to date (so that they
    do not wait for each other's migration); raises RuntimeError with the reason."""
    done = subprocess.run([sys.executable, "-c", STORE_CHECK], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or ["no message"])[-1])
    return done.stdout.strip()


def serve(args) -> int:
    haproxy = find_haproxy()
    if haproxy is None:
        print("haproxy is missing: apt-get install haproxy (make serve installs it)",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        ports = app_ports(args.n, args.first_app_port)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    log_dir = Path(args.log_dir or tempfile.mkdtemp(prefix="svmlab-serve-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    stats_socket = str(log_dir / "haproxy.sock")
    backend = log_dir / "backend.cfg"
    backend.write_text(backend_config(ports, stats_socket))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # Streamlit signs its cookies with this; shared, so a browser moved to another process
    # (its own one died) is not refused.
    env.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_urlsafe(32))
    hp_env = dict(env, SVMLAB_BIND=f"{args.address}:{args.port}")
    cfg = ["-f", str(POLICY), "-f", str(backend)]
    check = subprocess.run([haproxy, "-c", "-q", *cfg], env=hp_env, capture_output=True,
                           text=True)  # fmt: skip
    if check.returncode != 0:
        print(f"haproxy refused the configuration:\n{check.stdout}{check.stderr}",
              file=sys.stderr)  # fmt: skip
        return 2

    children: list[Child] = []
    logs = []
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    try:
        if not args.no_precompile:
            print("compiling the solvers once (numba's cache) …", flush=True)
            subprocess.run([sys.executable, "-m", "svm_engine.precompile"], cwd=ROOT, env=env,
                           check=True)  # fmt: skip
        try:
            print(f"the store (live classes, teacher links), shared by the {args.n} "
                  f"processes: {store_check(env)}", flush=True)
        except RuntimeError as exc:  # the Playground works without it; live classes do not
            print(f"warning: the store cannot be opened ({exc}); live classes and short "
                  "teacher links will fail", file=sys.stderr, flush=True)
        for i, port in enumerate(ports):
            # appended to: a restarted process's lines follow its predecessor's
            log = open(log_dir / f"{server_name(i)}-{port}.log", "a")  # noqa: SIM115
            logs.append(log)
            children.append(Child(server_name(i), app_command(port), log, cwd=ROOT, env=env))
        hp_log = open(log_dir / "haproxy.log", "a")  # noqa: SIM115
        logs.append(hp_log)
        children.append(Child("haproxy", [haproxy, "-db", *cfg], hp_log, env=hp_env))
        for child in children:
            child.start()
        shown = "localhost" if args.address in ("0.0.0.0", "") else args.address
        url = f"http://{shown}:{args.port}"
        ready = False
        deadline = time.monotonic() + args.timeout
        while True:
            now = time.monotonic()
            for child in children:
                if said := child.tend(now):
                    print(f"{said}; logs in {log_dir}", file=sys.stderr, flush=True)
            if not ready:
                try:
                    states = {k: r["status"] for k, r in server_stats(stats_socket).items()}
                except OSError:
                    states = {}
                if len(states) == len(ports) and all(s == "UP" for s in states.values()):
                    ready = True
                    where = ", ".join(f"{server_name(i)} 127.0.0.1:{p}"
                                      for i, p in enumerate(ports))  # fmt: skip
                    print(f"SVM Lab is ready: {url} ({len(ports)} processes: {where}; "
                          f"logs in {log_dir}). Ctrl-C stops it.", flush=True)
                elif now > deadline:
                    print(f"not every process came up within {args.timeout:.0f} s: {states}; "
                          f"logs in {log_dir}", file=sys.stderr)  # fmt: skip
                    return 1
            time.sleep(0.25)
    except Stopped as exc:
        print(f"{exc}: stopping", flush=True)
        return 0
    finally:
        # HAProxy (the last) first: no new requests, then the app processes
        stop([c.proc for c in children if c.proc is not None])
        for log in logs:
            log.close()


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2, help="app processes (default 2)")
    ap.add_argument("--port", type=int, default=8080, help="HAProxy's port (default 8080)")
    ap.add_argument("--address", default="0.0.0.0",
                    help="HAProxy's address (default 0.0.0.0: every interface)")
    ap.add_argument("--first-app-port", type=int, default=8511,
                    help="the first app process's port on 127.0.0.1 (0: any free ports)")
    ap.add_argument("--log-dir", help="where the logs go (default: a new temporary folder)")
    ap.add_argument("--timeout", type=float, default=180.0,
                    help="seconds to wait for every process to come up")
    ap.add_argument("--no-precompile", action="store_true",
                    help="skip step 1 (each process still compiles at its start-up)")
    return ap.parse_args(argv)


if __name__ == "__main__":
    sys.exit(serve(parse_args()))
