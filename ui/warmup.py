"""Compile the solvers once per server process, at start-up, in the background.

Why: numba compiles the solvers on their first call (~15 s on a fresh machine or after their
source changed; well under a second when its on-disk cache is filled). ``make run`` fills
the cache before the server starts; a plain ``streamlit run app.py`` (a container, Streamlit
Community Cloud) does not, and without this the first visitor would wait with no word why.

- ``start()``: ``svm_engine.precompile.main()`` in a daemon thread, once per process (later
  calls do nothing). ``app.py`` calls it from the server's start-up (its ASGI lifespan).
- ``wait()``: a page calls it before its first fit: at once when the solvers are ready, else
  behind a spinner until they are (and it starts the warm-up if nobody did, e.g. AppTest).
- ``wait_async()``: the same for the fit endpoint, without holding a thread.

Whatever the warm-up ends with (ready, or an error, which is logged), waiting ends: a fit
after a failed warm-up compiles on its own, as it would have without this module.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from contextlib import asynccontextmanager

MESSAGE = "Preparing the solvers… (once per server start)"

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_done = threading.Event()
_thread: threading.Thread | None = None
_result: dict = {}  # "seconds" when it worked, "error" when not


def _say(text: str) -> None:
    print(f"svm_engine: {text}", file=sys.stderr, flush=True)  # the server's log


def _run(done: threading.Event, result: dict) -> None:
    from svm_engine import precompile

    _say("preparing the solvers (numba: load its cache, or compile) …")
    t0 = time.perf_counter()
    try:
        precompile.main()
        result["seconds"] = time.perf_counter() - t0
        _say(f"compiled code ready ({result['seconds']:.1f} s)")
    except Exception as exc:  # a fit will compile (or fail) on its own; never block pages
        result["error"] = f"{type(exc).__name__}: {exc}"
        _log.exception("svm_engine warm-up failed")
    finally:
        done.set()


def start() -> threading.Thread:
    """Start the warm-up thread unless it was started before; returns it."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_run, args=(_done, _result),
                                       name="svmlab-warmup", daemon=True)  # fmt: skip
            _thread.start()
        return _thread


def ready() -> bool:
    """True once the warm-up has ended (successfully or not)."""
    return _done.is_set()


def result() -> dict:
    """{"seconds": s} after a warm-up that worked, {"error": text} after one that did not,
    {} while it runs or before it started."""
    return dict(_result)


def join(timeout: float | None = None) -> bool:
    """Start the warm-up if needed and block until it ended; False on timeout."""
    start()
    return _done.wait(timeout)


def wait() -> None:
    """For pages: return once the solvers are ready, behind a spinner while they are not."""
    start()
    if _done.is_set():
        return
    import streamlit as st

    with st.spinner(MESSAGE, show_time=True):
        _done.wait()


async def wait_async(poll_s: float = 0.05) -> None:
    """For request handlers on the event loop: wait without holding a worker thread."""
    start()
    while not _done.is_set():
        await asyncio.sleep(poll_s)


@asynccontextmanager
async def lifespan(_app):
    """``st.App(lifespan=...)``: start the warm-up when the server starts serving."""
    start()
    yield
