"""The fit pool's worker processes (``ui.serving.fit_pool``): forked by multiprocessing's
*fork server*, which imported ``ui.fit_worker_boot`` once (numpy, the engine, numba's
compiled code, cvxopt), so a new worker costs a fork (a few ms), not an import (seconds);
one BLAS thread each; killed with SIGKILL (a fit in compiled code ignores anything softer).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing import context as mp_context
from multiprocessing import forkserver, popen_forkserver, spawn
from multiprocessing import util as mp_util
from pathlib import Path

BOOT_MODULE = "ui.fit_worker_boot"
ROOT = Path(__file__).resolve().parents[2]  # so that the fork server finds ``ui``
#: One BLAS / OpenMP / numba thread per worker: a fit takes at most one core.
THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMBA_NUM_THREADS": "1"}


class _Popen(popen_forkserver.Popen):
    """popen_forkserver.Popen whose child does not run the parent's ``__main__`` again.

    multiprocessing re-imports the parent's main module in every child (spawn semantics); in
    a Streamlit server that module is the app script (Streamlit installs each run's script as
    ``sys.modules["__main__"]``), which a worker must not run. ``_launch`` is Python 3.11's
    popen_forkserver.Popen._launch minus the two ``init_main_*`` keys
    (tests/test_fit_pool.py checks that a worker does not see the parent's main).

    Why hand-written, measured (issue 30): pebble 5.2.3's ProcessPool (per-task
    timeout, future.cancel()) starts its workers through multiprocessing.Process too, so with
    the fork server its worker ran a fake ``__main__`` script (the check above fails); its
    manager polls every 0.1 s and stops a worker with SIGTERM, then SIGKILL after 3 s: a
    0.5 s budget overran by 116 ms median (793 max; FitPool: 4, 7) and a cancel freed a
    worker for the next task after 656 ms median (FitPool: 17), 5 runs each; nor does it
    say which process runs a task, which the light lane's demotion (renice) needs. A
    public way to drop the two keys is to swap ``sys.modules["__main__"]`` around
    ``start()``, a process-wide change racing Streamlit's script threads: not taken."""

    def _launch(self, process_obj):
        prep_data = spawn.get_preparation_data(process_obj._name)
        prep_data.pop("init_main_from_path", None)
        prep_data.pop("init_main_from_name", None)
        buf = io.BytesIO()
        mp_context.set_spawning_popen(self)
        try:
            mp_context.reduction.dump(prep_data, buf)
            mp_context.reduction.dump(process_obj, buf)
        finally:
            mp_context.set_spawning_popen(None)
        self.sentinel, w = forkserver.connect_to_new_process(self._fds)
        _parent_w = os.dup(w)
        self.finalizer = mp_util.Finalize(self, mp_util.close_fds, (_parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class WorkerProcess(mp_context.ForkServerProcess):
    @staticmethod
    def _Popen(process_obj):
        return _Popen(process_obj)


class Worker:
    __slots__ = ("proc", "conn", "lane", "demoted")

    def __init__(self, proc, conn, lane: str):
        self.proc, self.conn, self.lane, self.demoted = proc, conn, lane, False

    @property
    def pid(self) -> int:
        return int(self.proc.pid)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, TypeError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.join(timeout=2.0)
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.proc.close()


@contextlib.contextmanager
def _environ(extra: dict[str, str]) -> Iterator[None]:
    """os.environ with ``extra`` for the duration (the fork server inherits it)."""
    old = {k: os.environ.get(k) for k in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


#: One fork server per process, whatever the pools: its check and restart are one step for
#: all of them (two pools restarting it at once could leave it with the bare environment)
_SERVER_LOCK = threading.Lock()


def _fork_server_alive() -> bool:
    """Is multiprocessing's fork server running? (Asked without reaping it, which would
    leave ``forkserver.ensure_running`` unaware.)"""
    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if pid is None:
        return False
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def ensure_fork_server(ctx: mp.context.BaseContext, boot_module: str | None) -> None:
    """Start the fork server, with the preload, one BLAS thread and ``ui`` on the path
    (Python 3.11's fork server ignores the parent's sys.path); again, with the same
    environment, when it died (multiprocessing would restart it with the bare one)."""
    with _SERVER_LOCK:
        if _fork_server_alive():
            return
        if boot_module:
            ctx.set_forkserver_preload([boot_module])
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        with _environ({**THREAD_ENV, "PYTHONPATH": path}):
            forkserver.ensure_running()
