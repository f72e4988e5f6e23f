"""A throw-away PostgreSQL server for the store's tests (tests/conftest.py's ``postgres``
fixture): Debian's postgresql (``/usr/lib/postgresql/<version>/bin``), initialised in a
temporary folder and run as the ``postgres`` user (the server refuses to run as root), on a
unix socket in that folder only (no TCP port: nothing to collide with another run). Fast and
not durable (fsync off): it lives for one test session.

    with PostgresServer() as server:
        url = server.new_database("t1")   # postgresql+psycopg://postgres@/t1?host=…

``PostgresServer()`` raises ``PostgresUnavailable`` saying what is missing (not installed,
no ``runuser``, initdb or the server failed: its log).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

BIN_GLOB = "/usr/lib/postgresql/*/bin"
PORT = 5432  # the socket's name only (listen_addresses is empty)
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    pass


def find_bin() -> Path | None:
    """The newest installed version's bin folder (with initdb), or None."""
    found = [Path(p) for p in glob.glob(BIN_GLOB) if (Path(p) / "initdb").exists()]
    key = lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0
    return max(found, key=key) if found else None


class PostgresServer:
    def __init__(self, timeout: float = 60.0):
        self.timeout = timeout
        self.bin = find_bin()
        self.root: Path | None = None

    def _as_postgres(self, *cmd: str) -> list[str]:
        if os.geteuid() != 0:
            return list(cmd)  # already a user the server accepts
        runuser = shutil.which("runuser")
        if runuser is None:
            raise PostgresUnavailable("runuser is missing: PostgreSQL cannot be started as "
                                      "the postgres user (apt-get install util-linux)")
        return [runuser, "-u", SUPERUSER, "--", *cmd]

    def _run(self, *cmd: str) -> None:
        done = subprocess.run(self._as_postgres(*cmd), capture_output=True, text=True,
                              timeout=self.timeout)  # fmt: skip
        if done.returncode != 0:
            raise PostgresUnavailable(f"{Path(cmd[0]).name} failed ({done.returncode}): "
                                      f"{(done.stderr or done.stdout).strip()[-1500:]}")

    def start(self) -> PostgresServer:
        if self.bin is None:
            raise PostgresUnavailable(
                f"PostgreSQL is not installed (no {BIN_GLOB}/initdb): apt-get install "
                "postgresql (make test does it), or set SVMLAB_SKIP_POSTGRES=1 to skip the "
                "store's PostgreSQL tests")
        self.root = Path(tempfile.mkdtemp(prefix="svmlab-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, SUPERUSER, SUPERUSER)
        data = self.root / "data"
        opts = (f"-p {PORT} -k {self.root} -c listen_addresses='' -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        try:
            self._run(str(self.bin / "initdb"), "-D", str(data), "-U", SUPERUSER,
                      "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
            self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", opts,
                      "-l", str(self.root / "server.log"), "-w", "-t", str(int(self.timeout)),
                      "start")  # fmt: skip
        except PostgresUnavailable as exc:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            self.stop()
            raise PostgresUnavailable(f"{exc}\n{tail}".strip()) from None
        return self

    def url(self, database: str = SUPERUSER) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.root}&port={PORT}"

    def new_database(self, name: str) -> str:
        """An empty database ``name`` (dropped first if it exists); its URL."""
        import psycopg

        with psycopg.connect(host=str(self.root), port=PORT, user=SUPERUSER,
                             dbname=SUPERUSER, autocommit=True) as conn:  # fmt: skip
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.root is None:
            return
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(data),
                                             "-m", "immediate", "-w", "stop"),
                           capture_output=True, timeout=self.timeout)  # fmt: skip
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
