"""A plain ``streamlit run app.py`` on a fresh machine (numba's cache empty): the server starts
compiling the solvers as it starts, before anyone visits, and its first visitor waits behind a
spinner that says so, then gets the Playground (``ui/warmup.py``)."""

from __future__ import annotations

import time

import pytest
from appserver import AppServer

from ui import warmup

pytestmark = pytest.mark.browser

DRAWN = (
    "(() => { const r = document.querySelector('.svmlab-canvas');"
    " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
)


def _wait_for_log(server: AppServer, text: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log_path.read_text()
        if text in log:
            return log
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not in the server's log:\n{log[-2000:]}")


def test_a_fresh_server_compiles_at_start_up_and_its_first_page_waits(
    browser, monkeypatch, tmp_path
):
    cache = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))  # empty: nothing compiled yet
    server = AppServer(timeout=120)
    server.start()
    try:
        # compiling begins with the server, with no visitor yet
        _wait_for_log(server, "svm_engine: preparing the solvers", 60)
        context = browser.new_context(viewport={"width": 1400, "height": 950})
        context.set_default_timeout(180_000)
        page = context.new_page()
        page.goto(server.url + "/")
        # a cold compile takes 10 s or more; the page shows why it waits
        spinner = page.get_by_text(warmup.MESSAGE)
        spinner.wait_for()
        page.wait_for_function(DRAWN)
        assert spinner.count() == 0
        log = _wait_for_log(server, "svm_engine: compiled code ready", 10)
        assert log.count("svm_engine: preparing the solvers") == 1  # once per process
        assert any(cache.rglob("*.nbi"))  # numba's index files: it compiled into the cache
        context.close()
    finally:
        server.stop()
