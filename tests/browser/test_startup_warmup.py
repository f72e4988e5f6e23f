"""A plain ``streamlit run app.py`` on a fresh machine (numba's cache empty): the server starts
loading the solvers as it starts, before anyone visits (its fit workers' fork server compiles
them into the cache), and its first visitor waits behind a spinner that says so, then gets
the Playground (``ui/serving/warmup.py``)."""

from __future__ import annotations

import time

import pytest
from appserver import AppServer

from ui.serving import warmup

pytestmark = pytest.mark.browser

DRAWN = (
    "(() => { const r = document.querySelector('.svmlab-canvas');"
    " return r && Number(r.dataset.draws) >= 1 && r.__state && r.__state.drawn; })()"
)


def test_a_fresh_server_compiles_at_start_up_and_its_first_page_waits(browser, tmp_path):
    cache = tmp_path / "numba-cache"  # empty: nothing compiled yet
    server = AppServer(timeout=120, env={"NUMBA_CACHE_DIR": str(cache)})
    server.start()
    try:
        # compiled code lands in the cache with no visitor yet: the server started compiling
        deadline = time.monotonic() + 120
        while not any(cache.rglob("*.nbi")):
            assert time.monotonic() < deadline, "nothing compiled within 120 s of the start"
            time.sleep(0.1)
        context = browser.new_context(viewport={"width": 1400, "height": 950})
        context.set_default_timeout(240_000)
        page = context.new_page()
        page.goto(server.url + "/")
        # the whole cold compile takes 10 s or more: the first page shows why it waits
        spinner = page.get_by_text(warmup.MESSAGE)
        spinner.wait_for()
        page.wait_for_function(DRAWN)
        assert spinner.count() == 0
        context.close()
    finally:
        server.stop()
