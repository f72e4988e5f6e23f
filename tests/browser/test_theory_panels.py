"""Issue 27 in the browser: the points table's δ column and the Playground's "Why?" panel
say the numbers the canvas's numbers panel shows, on the book's D2 (C = 1, slides 21–23); the
screenshots of the report (/work/shots/theory/) were taken the same way."""

from __future__ import annotations

import pytest
from canvas_page import CANVAS, open_app
from test_numbers_trust import D2_C1, number, panel, table

pytestmark = pytest.mark.browser


def test_delta_column_and_why_panel_agree_with_the_numbers_panel_on_d2(page):
    open_app(page, D2_C1)
    page.wait_for_function(f"document.querySelector('{CANVAS} .svmlab-summary') !== null")
    p, rows = panel(page), table(page)
    margin = number(p["margin 1/‖w‖"])
    for name, row in rows.items():  # δ = y·h(x)/‖w‖ = y·h(x) × margin, to the digits shown
        assert number(row["δ = y·h(x)/‖w‖"]) == pytest.approx(
            number(row["y·h(x)"]) * margin, abs=2e-3), name
    # issue 27 item 5: the closest point is x17 (0.186), the worst x18 (−2.043)
    assert rows["x17"]["δ = y·h(x)/‖w‖"] == "0.186" and rows["x18"]["δ = y·h(x)/‖w‖"] == "−2.043"
    why = page.locator('[data-testid="stExpander"]', has_text="Why? Distance").first
    why.locator("summary").click()
    body = why.locator('[data-testid="stExpanderDetails"]')
    body.get_by_text("Computing b").wait_for(timeout=60_000)
    text = body.inner_text()
    assert f"margin 1/‖w‖ = {p['margin 1/‖w‖']}" in text
    assert f"The solver's b: {p['b']}" in text
    assert "x15, x16, x17, x18" in text  # the bound support vectors α = C (slide 22)
