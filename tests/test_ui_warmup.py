"""ui.serving.warmup: a page waits for the fit workers (which load or compile the solvers) behind a
spinner, starts them if nobody did, and stops waiting when they cannot start. The pool is a
stand-in whose workers come up when the test says so."""

from __future__ import annotations

import threading
import time

import pytest

from ui.serving import fit_pool, warmup


class StandInPool:
    def __init__(self):
        self.live = {"light": 0, "heavy": 0}
        self.workers = 0
        self.starts = 0

    def stats(self):
        return {"live": dict(self.live), "idle": {}, "demoted": 0, "workers": self.workers}

    def start(self, wait: bool = False):
        self.starts += 1
        self.live = {"light": 2, "heavy": 2}  # claimed: being started

    def up(self):
        self.workers = 1


@pytest.fixture
def pool(monkeypatch):
    p = StandInPool()
    monkeypatch.setattr(fit_pool, "get_pool", lambda: p)
    monkeypatch.setattr(warmup, "_ready", False)  # a process whose workers are not up yet
    return p


def test_ready_once_a_worker_is_up_and_for_good(pool):
    assert warmup.ready() is False
    pool.start()
    assert warmup.ready() is False  # started, not up: the fork server is loading the solvers
    pool.up()
    assert warmup.ready() is True
    pool.workers = 0  # e.g. every worker killed at its budget: replacements fork in ms
    assert warmup.ready() is True


def test_wait_returns_at_once_when_ready(pool):
    pool.up()
    t0 = time.monotonic()
    assert warmup.wait() is True
    assert time.monotonic() - t0 < 0.5 and pool.starts == 0


SCRIPT = """
import streamlit as st
from ui.serving import warmup
st.write(f"waited: {warmup.wait(max_wait_s=MAX)}")
"""


def run_page(max_wait_s: float):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(SCRIPT.replace("MAX", repr(max_wait_s)), default_timeout=30).run()
    assert not at.exception
    return [m.value for m in at.markdown]


def test_a_page_starts_the_workers_and_waits_for_them(pool, monkeypatch):
    started = []
    start = pool.start

    def start_then_up(wait=False):  # the workers come up 0.25 s after they were started
        start()
        started.append(time.monotonic())
        threading.Timer(0.25, pool.up).start()

    monkeypatch.setattr(pool, "start", start_then_up)
    assert run_page(60) == ["waited: True"]
    assert len(started) == 1 and time.monotonic() - started[0] >= 0.2  # it did wait
    assert warmup.ready()


def test_a_page_stops_waiting_when_no_worker_can_start(pool, monkeypatch):
    monkeypatch.setattr(pool, "start", lambda wait=False: None)  # every start failed
    t0 = time.monotonic()
    assert run_page(60) == ["waited: False"]
    assert time.monotonic() - t0 < 10


def test_a_page_stops_waiting_after_max_wait(pool):
    t0 = time.monotonic()
    assert run_page(0.25) == ["waited: False"]  # started, never up
    assert 0.2 <= time.monotonic() - t0 < 10 and pool.starts == 1
