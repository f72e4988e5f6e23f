"""The fit workers' side of ``ui.serving.fit_pool``: the loop each worker process runs.

A worker is forked by multiprocessing's fork server, which imported ``ui.fit_worker_boot``
once (numpy, the engine with its compiled code, the ui modules whose functions the pages
send), so a new worker costs a fork, not an import. It then reads ``(function, args,
kwargs)`` from its pipe, calls the function and sends back ``("ok", result)`` or
``("error", exception)``, until the pipe closes. No streamlit here.

It dies with the server: ``PR_SET_PDEATHSIG`` makes the kernel SIGKILL it when its parent
(the fork server) exits, and the fork server exits as soon as the server process is gone
(its "alive" pipe reaches EOF), also after a SIGKILL, when no ``atexit`` runs. For that the
worker closes its own copy of that pipe's write end, which multiprocessing hands to every
child so that children may start processes too (ours do not): else the fork server would
wait for the workers while they wait for it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent exits (True if it could)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
    if os.getppid() == 1:  # the parent is already gone (it exited before prctl)
        os._exit(0)
    return ok


def release_fork_server() -> bool:
    """Close this process's copy of the fork server's "alive" pipe (see the module
    docstring). multiprocessing keeps it in ``forkserver._forkserver._forkserver_alive_fd``
    (Python 3.11); tests/test_fit_pool.py checks that the workers die with the server."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if not isinstance(fd, int):
        return False
    try:
        os.close(fd)
    except OSError:
        return False
    server._forkserver_alive_fd = None
    return True


def _picklable_error(exc: BaseException) -> BaseException:
    """The exception if it pickles, else a RuntimeError that names it."""
    import pickle

    try:
        pickle.dumps(exc)
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def main(conn, nice: int = 0) -> None:
    """The worker loop (the ``target`` of every worker process)."""
    release_fork_server()
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C in a terminal: the server stops us
    if nice:
        try:
            os.nice(int(nice))
        except OSError:
            pass
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return  # the pool closed the pipe: nothing more to do
        try:
            reply = ("ok", fn(*args, **kwargs))
        except Exception as exc:  # the caller re-raises it
            reply = ("error", _picklable_error(exc))
        try:
            conn.send(reply)
        except Exception as exc:  # an unpicklable result
            conn.send(("error", RuntimeError(f"could not send the result back: {exc}")))


# ------------------------------------------------- tasks for the pool's tests and benchmarks


def echo(value):
    """Return ``value`` (measures the pool's round trip)."""
    return value


def spin(seconds: float) -> float:
    """Keep one core busy for ``seconds`` of CPU time (a stand-in for a long fit)."""
    import time

    t0 = time.process_time()
    x = 0
    while time.process_time() - t0 < seconds:
        x += 1
    return time.process_time() - t0


def hold(seconds: float) -> float:
    """Occupy the worker for ``seconds`` of wall time without using a core (a stand-in for a
    long fit where only the worker's being busy, stopped or killed matters, not its CPU)."""
    import time

    time.sleep(seconds)
    return seconds


def fail(message: str) -> None:
    """Raise ValueError(message) (how a worker reports an exception)."""
    raise ValueError(message)


def pid() -> int:
    return os.getpid()


def environ(names: list[str]) -> dict[str, str | None]:
    """These environment variables of the worker (tests: the thread limits, PYTHONPATH)."""
    return {name: os.environ.get(name) for name in names}


def main_file() -> str | None:
    """This worker's ``__main__.__file__`` (tests: it must not be the parent's script)."""
    return getattr(sys.modules.get("__main__"), "__file__", None)


def slow_respond(raw: bytes) -> tuple[int, str]:
    """A stand-in for ``fit_api.respond`` that spins for the body's {"seconds": s}."""
    import json

    seconds = float(json.loads(raw)["seconds"])
    return 200, json.dumps({"ok": True, "cpu_s": spin(seconds)})
