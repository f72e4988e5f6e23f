"""Start ``streamlit run app.py`` on a free localhost port and stop it again.

Used by the browser tests (``conftest.py``) and by ``benchmarks/bench_latency.py``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# the servers' store (ui/classroom/store: live classes, teacher links) when the environment
# names none (a benchmark; the tests' conftest.py names a temporary one): not <repo>/var/
DATABASE_URL = f"sqlite:///{ROOT / 'test-results' / 'svmlab.db'}"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def store_url() -> str:
    """The database the servers started here use (and a test that reads what they stored)."""
    return os.environ.get("SVMLAB_DATABASE_URL", "").strip() or DATABASE_URL


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppServer:
    """Context manager: ``with AppServer() as url: ...`` (url like http://127.0.0.1:PORT)."""

    def __init__(self, timeout: float = 90.0, env: dict[str, str] | None = None):
        self.timeout = timeout
        self.env = env or {}  # on top of this process's environment
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log_path = ROOT / "test-results" / f"streamlit-{self.port}.log"

    def start(self) -> str:
        self.log_path.parent.mkdir(exist_ok=True)
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        env.setdefault("SVMLAB_DATABASE_URL", store_url())
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", "app.py",
                "--server.headless", "true",
                "--server.port", str(self.port),
                "--server.address", "127.0.0.1",
                "--server.fileWatcherType", "none",
                "--browser.gatherUsageStats", "false",
            ],  # fmt: skip
            cwd=ROOT,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"streamlit exited with {self.proc.returncode}; see {self.log_path}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return self.url
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"streamlit did not become healthy in {self.timeout:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        self.proc = None
        if getattr(self, "_log", None):
            self._log.close()
            self._log = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
