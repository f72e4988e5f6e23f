"""Helpers that drive Streamlit's own widgets in Chromium."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

#: how long one try waits for the open list; a rerun that redraws the selectbox closes it
OPEN_MS = 5_000


def choose(page, label: str, option: str, scope=None, tries: int = 4):
    """Pick ``option`` in the selectbox labelled ``label`` and wait until it shows it.

    A rerun that lands between the click that opens the list and the click on the option
    (a page still settling on a loaded machine) redraws the selectbox and closes its list;
    that is the widget's behaviour, not the app's, so the list is opened again. The list is
    opened by the widget's own "Open" button: Streamlit's selectbox is a combobox, and a
    click in its text field may only focus it."""
    box = (scope or page).locator("[data-testid=stSelectbox]").filter(has_text=label)
    item = page.get_by_role("option", name=option)
    for attempt in range(tries):
        box.get_by_role("button", name="Open").click()
        try:
            item.click(timeout=OPEN_MS)
            break
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise
            page.keyboard.press("Escape")
    expect(box.get_by_role("combobox")).to_have_value(option, timeout=OPEN_MS * tries)
