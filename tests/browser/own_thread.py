"""Run a function in a thread of its own: code that calls ``asyncio.run`` (the benchmarks'
Streamlit clients) cannot run in pytest's main thread once a Playwright test of the same
session has left its event loop running there."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor


def in_own_thread(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a new thread; its result, or its exception raised here."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()
