"""Browser tests: a real ``streamlit run app.py`` on a free port, driven by Debian Chromium.

Every test module here sets ``pytestmark = pytest.mark.browser``. Run them alone with
``pytest -m browser``; skip them with ``pytest -m "not browser"``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from appserver import CHROMIUM, CHROMIUM_ARGS, AppServer  # noqa: E402

TIMEOUT_MS = 60_000  # generous: CI runs on 2 cores


@pytest.fixture(scope="session")
def app_url():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make test does it)")
    with AppServer(timeout=120) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, app_url, **context_options):
    """A page in a new browser context, with ``app_url`` and the page's script errors
    (``js_errors``) attached; close it with ``page.context.close()``."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.app_url = app_url
    pg.js_errors = errors
    return pg


@pytest.fixture
def page(browser, app_url):
    pg = open_page(browser, app_url, viewport={"width": 1400, "height": 950})
    yield pg
    pg.context.close()
