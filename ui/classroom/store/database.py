"""Which database, its engine, and its schema brought up to date.

``database_url()``: ``$SVMLAB_DATABASE_URL``, else an SQLite file ``svmlab.db`` in
``$SVMLAB_DATA_DIR`` (default ``<repo>/var/``, created). Several app processes on one machine
share the file (``make serve``): SQLite runs in WAL mode (readers never wait for the writer;
``make_engine`` switches the file to WAL once, under the file lock below: two processes
switching a new file at once deadlock, and SQLite fails one at once, without waiting), waits
up to ``BUSY_TIMEOUT_MS`` for a lock, begins every write with ``BEGIN IMMEDIATE`` (a
transaction that would write takes the lock first, so it never fails half-way on a lock another
process took), keeps foreign keys on and syncs every commit (``synchronous=FULL``: an answer
acknowledged is on disk). PostgreSQL (replicas on several machines): a
``postgresql+psycopg://user:password@host/db`` URL.

``migrate(engine)`` runs the Alembic migrations (``migrations/``) to head, one process at a
time: an exclusive lock on the file ``<db>.migrate.lock`` for SQLite, ``pg_advisory_lock`` for
PostgreSQL. A process that waited finds the schema at head and does nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url

URL_ENV = "SVMLAB_DATABASE_URL"
DATA_DIR_ENV = "SVMLAB_DATA_DIR"
ROOT = Path(__file__).resolve().parents[3]
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 10_000
# pg_advisory_lock's key: any fixed number; this one spells "svmlab" in ASCII
PG_LOCK_KEY = 0x73766D6C6162


def data_dir() -> Path:
    env = os.environ.get(DATA_DIR_ENV, "").strip()
    return Path(env).expanduser() if env else ROOT / "var"


def database_url() -> str:
    env = os.environ.get(URL_ENV, "").strip()
    if env:
        return env
    return f"sqlite:///{data_dir() / 'svmlab.db'}"


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (None for another database)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return None
    if not u.database or u.database == ":memory:":
        raise ValueError("the store needs an SQLite file, not an in-memory database: "
                         "several connections and processes share it")
    return Path(u.database).expanduser().resolve()


def make_engine(url: str) -> Engine:
    path = sqlite_path(url)
    if path is None:
        if make_url(url).get_backend_name() == "postgresql":
            _check_driver()
        return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    _wal_once(path)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        for pragma in (f"busy_timeout={BUSY_TIMEOUT_MS}", "foreign_keys=ON", "synchronous=FULL"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        immediate = conn.get_execution_options().get("write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def _wal_once(path: Path) -> None:
    """The file in WAL mode (kept in the file; a no-op once done). Under the file lock: two
    processes switching a new file at once each hold a read lock and wait for the other's,
    and SQLite fails one with "database is locked" without waiting (CI, 2026-11-30; 48 of 200
    tries with two processes on an empty file)."""
    with _file_lock(path):
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
        finally:
            conn.close()


@contextlib.contextmanager
def _file_lock(path: Path):
    """One process at a time, on this machine: an exclusive lock on ``<db>.migrate.lock``."""
    with open(path.with_name(path.name + ".migrate.lock"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _check_driver() -> None:
    """PostgreSQL's driver, with a message that says what to install (SQLAlchemy's names
    a module, not the package)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise RuntimeError("a postgresql URL needs psycopg 3: pip install 'psycopg[binary]' "
                           "(requirements.txt pins it)") from None


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


@contextlib.contextmanager
def _migration_lock(engine: Engine, conn):
    path = sqlite_path(str(engine.url))
    if path is None:
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": PG_LOCK_KEY})
        conn.commit()
        try:
            yield
        finally:
            conn.rollback()
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": PG_LOCK_KEY})
            conn.commit()
        return
    with _file_lock(path):
        yield


def migrate(engine: Engine) -> None:
    """The schema at Alembic's head (safe when several processes start at once)."""
    cfg = alembic_config()
    with engine.connect() as conn, _migration_lock(engine, conn):
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
        conn.commit()
