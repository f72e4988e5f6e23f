"""The first page on a fresh server waits for the solvers behind a spinner that says why.

Fits run in worker processes (``ui.serving.fit_pool``) forked from a fork server that loads the
solvers once (``ui/fit_worker_boot.py``: ``svm_engine.precompile.main()`` reads numba's
on-disk cache, or compiles when it is empty or stale: ~15–20 s on a fresh machine or after
the engine changed). The server starts them as it starts (``budget.lifespan``, app.py), so a
plain ``streamlit run app.py`` (a container, Streamlit Community Cloud) compiles before its
first visitor comes, as ``make run`` does before the server starts. A visitor who comes
sooner gets a spinner instead of a page that seems stuck:

- ``ready()``: a worker is up, so its fork server has loaded the solvers (once true, it stays
  true for the process: later workers fork from the same server in milliseconds).
- ``wait()``: app.py calls it before every page: at once when ready, else behind a spinner
  until ready. It starts the workers if nobody did (AppTest runs no lifespan), and it stops
  waiting when they cannot start or after ``MAX_WAIT_S``: the page's fit then ends with the
  budget's own message, never in a page that hangs.
"""

from __future__ import annotations

import time

from ui.serving import budget, fit_pool

MESSAGE = "Preparing the solvers… (once per server start)"
MAX_WAIT_S = 240.0
POLL_S = 0.1

_ready = False


def ready() -> bool:
    """True once a fit worker of this process has started."""
    global _ready
    if not _ready:
        _ready = fit_pool.get_pool().stats()["workers"] > 0
    return _ready


def wait(max_wait_s: float = MAX_WAIT_S) -> bool:
    """For pages: True once the solvers are ready (behind a spinner while they are not);
    False when it stopped waiting (the workers could not start, or ``max_wait_s`` passed)."""
    if ready():
        return True
    budget.start_pool()  # nothing new if the server's lifespan started them
    import streamlit as st

    deadline = time.monotonic() + max_wait_s
    with st.spinner(MESSAGE, show_time=True):
        while not ready():
            live = fit_pool.get_pool().stats()["live"]
            if not any(live.values()) or time.monotonic() > deadline:
                return False  # no worker is starting (they failed): the fit will say why
            time.sleep(POLL_S)
    return True
