"""Fits in worker processes, each with a wall-time budget, so that the work really stops.

Why processes: a fit in a thread of the server cannot be stopped (the compiled solvers and
cvxopt hold it until they return), and while it holds the GIL the server answers no one and
ignores SIGTERM. A worker process can be killed (SIGKILL) the moment its budget is spent or
its caller is gone, and the CPU is free again at once.

- The worker processes (forked by a fork server that imported the engine once, one BLAS
  thread each, dying with the server) are ``ui.serving.fit_process``'s.
- ``run(fn, args, lane=..., budget_s=..., should_stop=...)`` sends a module-level function
  and its arguments to an idle worker of the lane (starting one if the lane is not full,
  else waiting up to ``queue_s``) and waits for the answer. After ``budget_s`` the worker is
  killed and ``BudgetExceeded`` raised; when ``should_stop()`` turns true (the browser left,
  the session reran), the worker is killed and ``Cancelled`` raised, except in the first
  ``cancel_after_s`` of a task, which cost less to finish than a kill and a new worker.
  A killed worker is replaced in the background.
- Lanes keep one student's heavy fit from delaying another's click: "light" workers (cheap
  predicted fits) run at normal priority, "heavy" ones at a low priority (nice), in their
  own processes, so a click never queues behind a heavy fit and the kernel's scheduler gives
  the click's worker the CPU first. A "light" task that runs longer than ``demote_after_s``
  (a wrong prediction) is reniced to the heavy level and leaves its lane, which starts
  another worker; its process is retired when the task ends. When ``max_demoted`` workers
  are already demoted, the task is *moved* instead: its worker is killed and the task runs
  again in the heavy lane with what is left of its budget. Either way a light worker is never
  held longer than ``demote_after_s`` by a wrong prediction.
- Fair shares of the light lane: a task's ``key`` names its prediction's inputs; once a
  task of a key overran, later tasks of that key go to the heavy lane for ``overran_for_s``
  (the prediction is known wrong), and so do those of the key still queued for a light
  worker. A task's ``owner`` (a session) holds at most one light worker at a time; its
  other tasks meanwhile go to the heavy lane.
- Workers die with the server: ``atexit`` kills them (a SIGKILLed server: fit_process).

No streamlit here; ``ui.serving.budget`` is the layer the pages and the endpoint call.
Hand-written rather than pebble's ProcessPool: the measured reasons are beside
``fit_process._Popen``.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait as mp_wait
from typing import Any

from ui.serving.fit_errors import BudgetExceeded, Cancelled, PoolBusy, PoolError, WorkerDied
from ui.serving.fit_process import BOOT_MODULE, Worker, WorkerProcess, ensure_fork_server

log = logging.getLogger(__name__)

__all__ = ["BudgetExceeded", "Cancelled", "FitPool", "Lane", "PoolBusy", "PoolError",
           "WorkerDied", "get_pool", "shutdown_pool"]


@dataclass(frozen=True)
class Lane:
    name: str
    size: int  # workers at most
    nice: int = 0  # added to the worker's niceness (lower priority)


#: Two cores here: two light workers at normal priority, two heavy ones niced.
DEFAULT_LANES = (Lane("light", 2, 0), Lane("heavy", 2, 15))


class _Move(Exception):
    """Internal: run the task in the heavy lane instead, with ``ran_s`` less budget (it
    overran and no more workers may be demoted, or its key overran while it queued)."""

    def __init__(self, ran_s: float = 0.0):
        super().__init__("moved to the heavy lane")
        self.ran_s = ran_s


class FitPool:
    """Worker processes in lanes; ``run`` is thread-safe (see the module docstring)."""

    def __init__(self, lanes: Sequence[Lane] = DEFAULT_LANES, *, demote_after_s: float = 0.25,
                 max_demoted: int = 2, cancel_after_s: float = 0.1, overran_for_s: float = 60.0,
                 boot_module: str | None = BOOT_MODULE, start_method: str = "forkserver"):
        self.lanes = {lane.name: lane for lane in lanes}
        self.demote_after_s = float(demote_after_s)
        self.max_demoted = int(max_demoted)
        self.cancel_after_s = float(cancel_after_s)
        self.overran_for_s = float(overran_for_s)
        self._overran: dict[Any, float] = {}  # key -> until when its tasks go heavy
        self._light_owners: dict[Any, int] = {}  # owner -> its running light tasks
        self._boot_module = boot_module
        self._ctx = mp.get_context(start_method)
        self._cond = threading.Condition()
        self._boot_lock = threading.Lock()
        self._booted = False
        self._idle: dict[str, list[Worker]] = {n: [] for n in self.lanes}
        self._live = dict.fromkeys(self.lanes, 0)  # workers counted in the lane (busy or idle)
        self._demoted = 0
        self._starting = dict.fromkeys(self.lanes, 0)  # being forked (counted in _live)
        self._workers: set[Worker] = set()
        self._closed = False
        self._heavy_nice = max((lane.nice for lane in lanes), default=0)
        self._heavy_lane = max(lanes, key=lambda lane: lane.nice).name if lanes else None
        use_server = self._ctx.get_start_method() == "forkserver"
        self._process_class = WorkerProcess if use_server else self._ctx.Process

    # -------------------------------------------------------------------- life cycle

    def _ensure_server(self) -> None:
        """Start the refill thread, and the fork server (``fit_process.ensure_fork_server``)."""
        with self._boot_lock:
            if not self._booted:
                self._booted = True
                threading.Thread(target=self._refill, name="svmlab-fit-refill",
                                 daemon=True).start()
        if self._ctx.get_start_method() == "forkserver":
            ensure_fork_server(self._ctx, self._boot_module)

    def _refill(self, poll_s: float = 0.2) -> None:
        """Replace an idle worker that died (killed from outside, or with its fork server)
        at once, not when a task next finds it dead (a thread, until shutdown)."""
        while not self._closed:
            with self._cond:
                idle = [w for ws in self._idle.values() for w in ws]
            if not idle:
                time.sleep(poll_s)
                continue
            try:
                mp_wait([w.proc.sentinel for w in idle], poll_s)
                dead = [w for w in idle if not w.proc.is_alive()]
            except (ValueError, OSError):  # one was closed meanwhile (taken, shut down)
                continue
            for w in dead:
                with self._cond:
                    if w not in self._idle[w.lane]:
                        continue  # taken meanwhile: its task sees it dead
                    self._idle[w.lane].remove(w)
                self._discard(w)

    def _start_worker(self, lane: str) -> Worker:
        self._ensure_server()
        from ui.serving import fit_worker

        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._process_class(target=fit_worker.main, args=(child, self.lanes[lane].nice),
                                 name=f"svmlab-fit-{lane}", daemon=True)
        try:
            proc.start()
        finally:
            child.close()
        w = Worker(proc, parent, lane)
        with self._cond:
            self._workers.add(w)
            closed = self._closed
        if closed:
            w.kill()
            raise PoolError("the fit pool is shut down")
        return w

    def start(self, wait: bool = False) -> None:
        """Start every lane's workers (in the background unless ``wait``)."""
        todo = [name for name, lane in self.lanes.items() for _ in range(lane.size)]
        claimed = []
        with self._cond:
            for name in todo:
                if self._live[name] < self.lanes[name].size:
                    self._live[name] += 1
                    claimed.append(name)
        threads = [self._spawn_idle(name) for name in claimed]
        if wait:
            for t in threads:
                t.join()

    def _spawn_idle(self, lane: str) -> threading.Thread:
        """Start a worker already counted in ``_live[lane]`` and make it idle (a thread)."""

        with self._cond:
            self._starting[lane] += 1

        def go():
            try:
                w = self._start_worker(lane)
            except Exception:  # the lane goes on with one worker fewer; said in the log
                log.exception("fit pool: a %s worker did not start", lane)
                w = None
            with self._cond:  # an RLock: _release takes it again
                self._starting[lane] -= 1
                if w is None:
                    self._live[lane] -= 1
                else:
                    self._release(w)
                self._cond.notify_all()

        t = threading.Thread(target=go, name=f"svmlab-fit-start-{lane}", daemon=True)
        t.start()
        return t

    def shutdown(self) -> None:
        """Kill every worker (idempotent); ``run`` raises PoolError afterwards."""
        with self._cond:
            self._closed = True
            workers = list(self._workers)
            self._workers.clear()
            for v in self._idle.values():
                v.clear()
            self._cond.notify_all()
        for w in workers:
            w.kill()

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and figures)."""
        with self._cond:
            return [w.pid for w in self._workers if w.proc.pid is not None]

    def stats(self) -> dict[str, Any]:
        with self._cond:
            return {"live": dict(self._live), "idle": {k: len(v) for k, v in self._idle.items()},
                    "demoted": self._demoted, "workers": len(self._workers)}

    # ------------------------------------------------------------------------- a task

    def run(self, fn: Callable, args: Sequence = (), kwargs: dict | None = None, *,
            lane: str = "light", budget_s: float = 2.0, queue_s: float = 2.0,
            should_stop: Callable[[], bool] | None = None, poll_s: float = 0.02,
            key: Any = None, owner: Any = None) -> Any:
        """``fn(*args, **kwargs)`` in a worker of ``lane``; its result, or the exception it
        raised. Raises BudgetExceeded, Cancelled, PoolBusy or WorkerDied (see the classes).
        ``fn`` must be a module-level function (it is pickled by name). ``key`` (hashable:
        the prediction's inputs) and ``owner`` (the session) share the light lane fairly
        (see the module docstring)."""
        if lane not in self.lanes:
            raise ValueError(f"unknown lane {lane!r}; expected one of {tuple(self.lanes)}")
        try:
            return self._run(fn, args, kwargs, lane, budget_s, queue_s, should_stop, poll_s,
                             key, owner)
        except Exception as exc:
            # shut down mid-task (a pipe to a worker just killed, a start cut short): the
            # server is stopping, which its callers answer as such (503), never as a bug (500)
            if self._closed and not isinstance(exc, PoolError):
                raise PoolError("the fit pool is shut down (the server is stopping)") from exc
            raise

    def _run(self, fn, args, kwargs, lane, budget_s, queue_s, should_stop, poll_s, key, owner):
        lane, owned = self._route(lane, key, owner)
        try:
            return self._run_in(fn, args, kwargs, lane, key, budget_s, queue_s, should_stop,
                                poll_s)
        except _Move as move:
            left = budget_s - move.ran_s
            if left <= 0:
                raise BudgetExceeded(budget_s, move.ran_s) from None
        finally:
            self._unown(owned)
        return self._run_in(fn, args, kwargs, self._heavy_lane, key, left, queue_s,
                            should_stop, poll_s)

    def _route(self, lane: str, key, owner) -> tuple[str, Any]:
        """The lane the task runs in, and the owner it counts against (None if none)."""
        if self.lanes[lane].nice >= self._heavy_nice:
            return lane, None
        with self._cond:
            now = time.monotonic()
            if key is not None and self._overran.get(key, 0.0) > now:
                return self._heavy_lane, None  # its prediction proved wrong
            if owner is not None:
                if self._light_owners.get(owner):
                    return self._heavy_lane, None  # its share of the light lane is taken
                self._light_owners[owner] = 1
            return lane, owner

    def _unown(self, owner) -> None:
        if owner is not None:
            with self._cond:
                self._light_owners.pop(owner, None)

    def _note_overran(self, key) -> None:
        if key is None:
            return
        with self._cond:
            now = time.monotonic()
            if len(self._overran) > 1000:  # forget the expired ones
                self._overran = {k: t for k, t in self._overran.items() if t > now}
            self._overran[key] = now + self.overran_for_s

    def _run_in(self, fn, args, kwargs, lane, key, budget_s, queue_s, should_stop, poll_s):
        w = self._acquire(lane, time.monotonic() + queue_s, should_stop, poll_s, key)
        finished = False
        try:
            w.conn.send((fn, tuple(args), dict(kwargs or {})))
            t0 = time.monotonic()
            deadline = t0 + budget_s
            demote_at = t0 + self.demote_after_s if self.lanes[lane].nice < self._heavy_nice \
                else float("inf")
            cancel_at = None
            while True:
                now = time.monotonic()
                ready = mp_wait([w.conn, w.proc.sentinel], max(0.0, min(poll_s, deadline - now)))
                if w.conn in ready:
                    try:
                        status, value = w.conn.recv()
                    except (EOFError, OSError):
                        raise self._lost(w) from None
                    finished = True
                    self._release(w)
                    if status == "ok":
                        return value
                    raise value
                if ready:
                    raise self._lost(w)
                now = time.monotonic()
                if cancel_at is None and should_stop is not None and should_stop():
                    cancel_at = max(now, t0 + self.cancel_after_s)
                if cancel_at is not None and now >= cancel_at:
                    raise Cancelled("the caller stopped waiting")
                if now >= deadline:
                    raise BudgetExceeded(budget_s, now - t0)
                if now >= demote_at:
                    demote_at = float("inf")
                    self._note_overran(key)
                    if not self._demote(w):
                        raise _Move(now - t0)
        finally:
            if not finished:
                self._discard(w)

    def _lost(self, w: Worker) -> PoolError:
        """Why the worker ended without an answer: the pool shut down, or it died."""
        if self._closed:
            return PoolError("the fit pool is shut down (the server is stopping)")
        code = w.proc.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return WorkerDied(f"the fit's worker process ended without an answer ({how})")

    def _acquire(self, lane: str, deadline: float, should_stop, poll_s: float,
                 key=None) -> Worker:
        self._ensure_server()
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        raise PoolError("the fit pool is shut down")
                    if key is not None and lane != self._heavy_lane and \
                            self._overran.get(key, 0.0) > time.monotonic():
                        raise _Move  # its key overran while it queued: no light worker
                    idle = self._idle[lane]
                    if idle:
                        w = idle.pop()  # the most recently used one: its caches are warm
                        break
                    if self._live[lane] < self.lanes[lane].size:
                        self._live[lane] += 1
                        w = None
                        break
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 and not self._starting[lane]:
                        raise PoolBusy(f"all {self.lanes[lane].size} {lane} workers are busy")
                    # a worker being started (the server's first seconds: the fork server
                    # imports the engine) is waited for whatever the queue time
                    self._cond.wait(max(poll_s, min(5 * poll_s, remaining)))
                    if should_stop is not None and should_stop():
                        raise Cancelled("the caller stopped waiting for a worker")
            if w is None:
                try:
                    return self._start_worker(lane)
                except BaseException:
                    with self._cond:
                        self._live[lane] -= 1
                        self._cond.notify_all()
                    raise
            if w.proc.is_alive():
                return w
            self._discard(w, replace=False)  # died while idle: count it out, try again

    def _release(self, w: Worker) -> None:
        if w.demoted:  # its priority stays low: retire it, its lane has a new one
            self._discard(w, replace=False)
            return
        with self._cond:
            if self._closed:
                retire = True
            else:
                retire = False
                self._idle[w.lane].append(w)
                self._cond.notify_all()
        if retire:
            w.kill()

    def _discard(self, w: Worker, replace: bool = True) -> None:
        """Kill the worker and count it out; start a replacement in the background."""
        w.kill()
        with self._cond:
            if w not in self._workers:
                return
            self._workers.discard(w)
            if w.demoted:
                self._demoted -= 1
                replace = False  # its lane already replaced it
            else:
                self._live[w.lane] -= 1
            replace = replace and not self._closed and \
                self._live[w.lane] < self.lanes[w.lane].size
            if replace:
                self._live[w.lane] += 1
            self._cond.notify_all()
        if replace:
            self._spawn_idle(w.lane)

    def _demote(self, w: Worker) -> bool:
        """A light task ran long: lower its priority and let its lane start another worker
        (False: ``max_demoted`` reached, nothing done)."""
        with self._cond:
            if w.demoted or w not in self._workers:
                return True
            if self._demoted >= self.max_demoted:
                return False
            w.demoted = True
            self._demoted += 1
            self._live[w.lane] -= 1
            self._cond.notify_all()
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, w.pid, self._heavy_nice)
        return True


# ------------------------------------------------------------------ the process's pool

_pool: FitPool | None = None
_pool_pid: int | None = None
_pool_lock = threading.Lock()


def get_pool() -> FitPool:
    """This process's pool (created on first use; killed at exit)."""
    global _pool, _pool_pid
    with _pool_lock:
        if _pool is None or _pool_pid != os.getpid():
            _pool, _pool_pid = FitPool(), os.getpid()
        return _pool


def shutdown_pool() -> None:
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None and _pool_pid == os.getpid():
        pool.shutdown()


atexit.register(shutdown_pool)
