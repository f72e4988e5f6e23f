"""The live class's store: classes, students, answers and teacher links in one database.

- ``get_store(url=None)``: the process's ``Store`` for a URL (default ``database_url()``:
  ``$SVMLAB_DATABASE_URL``, else the SQLite file ``svmlab.db`` in ``$SVMLAB_DATA_DIR`` or
  ``<repo>/var/``), made once per process and URL (thread-safe); making it brings the schema
  up to date (Alembic, ``migrations/``), one process at a time;
- ``store``: the ``Store`` (every method one transaction); ``errors``: its refusals;
  ``schema``: the tables; ``database``: the URL, the engine (SQLite's WAL, busy timeout,
  foreign keys, ``BEGIN IMMEDIATE``) and the migration lock; ``secrets_text``: codes, keys and
  tokens (SHA-256, constant-time compare), nicknames and answers let in; ``links``: teacher
  links; ``export``: the teacher's CSV (spreadsheet formulas neutralised).

Retention: a class and everything in it is deleted ``RETENTION_DAYS`` (7) days after it
started. ``Store.create_class`` runs ``Store.maybe_purge``, which purges at most once an hour
per process, so a server that starts classes keeps the database within the retention; nothing
else needs to call it.
"""

from __future__ import annotations

import threading

from ui.classroom.store.database import database_url
from ui.classroom.store.errors import (
    ClassEnded,
    ClassNotFound,
    LinkError,
    NotOpen,
    NotStudent,
    NotTeacher,
    StoreUnavailable,
)
from ui.classroom.store.store import RETENTION_DAYS, RETENTION_S, Store

__all__ = ["RETENTION_DAYS", "RETENTION_S", "ClassEnded", "ClassNotFound", "LinkError",
           "NotOpen", "NotStudent", "NotTeacher", "Store", "StoreUnavailable", "database_url",
           "get_store"]

_STORES: dict[str, Store] = {}
_LOCK = threading.Lock()


def get_store(url: str | None = None) -> Store:
    """The process's store for ``url`` (default: ``database_url()``)."""
    u = url or database_url()
    with _LOCK:
        store = _STORES.get(u)
        if store is None:
            store = _STORES[u] = Store(u)
    return store
