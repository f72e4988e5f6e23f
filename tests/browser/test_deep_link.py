"""A shared link to a page other than the Playground, opened first on a fresh server."""

from __future__ import annotations

import pytest
from appserver import AppServer

pytestmark = pytest.mark.browser

NAV = "[data-testid=stSidebarNav]"


def test_first_request_to_a_deep_link_still_goes_through_the_app(browser):
    # Its own server: the bug only shows when the deep link is the server's first request
    # (Streamlit then ran the page file alone, with the pages/ folder's menu).
    with AppServer(timeout=120) as url:
        context = browser.new_context(viewport={"width": 1400, "height": 950})
        context.set_default_timeout(60_000)
        page = context.new_page()
        try:
            page.goto(url + "/compare_solvers")
            page.get_by_role("heading", name="Compare solvers").first.wait_for()
            nav = page.locator(NAV)
            nav.get_by_text("Playground", exact=True).wait_for()
            links = nav.inner_text()
            assert "Worked examples" in links and "Step-through" in links
            assert "app" not in links.split()  # the folder menu listed the entry script
            # app.py ran: the wide layout and the Plotly.js copy for the click canvas
            assert page.evaluate("fetch('/app/static/plotly.min.js').then(r => r.status)") == 200
        finally:
            context.close()
