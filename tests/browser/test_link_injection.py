"""Issue 33 item 3 in the browser: a link whose values are markdown (a link, an image, a
bare address, a KaTeX formula) shows them as text in its warning: no <a href> to the outside
host, no image, no formula, and no request leaves the server."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from canvas_page import open_app

pytestmark = pytest.mark.browser

EVIL = "evil.example"
LINKS = [
    "[Log in](https://evil.example/d)",
    "![i](https://evil.example/i.png)",
    "https://evil.example/bare",
    "www.evil.example",
    "mallory@evil.example",
    "$\\INJK$",
]


@pytest.mark.parametrize("value", LINKS)
def test_an_evil_link_shows_its_text_and_fetches_nothing_outside(page, value):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_app(page, f"/?v=1&d={quote(value, safe='')}&k=linear&l=hinge&C=1&b=free&sv=smo")
    alert = page.locator('[data-testid="stAlert"]', has_text="could not be opened")
    alert.wait_for()
    text = alert.inner_text().replace("\u2060", "")
    assert repr(value)[1:-1][:40] in text, text  # the message quotes it as typed
    assert page.locator(f'a[href*="{EVIL}"]').count() == 0
    assert page.locator(f'img[src*="{EVIL}"]').count() == 0
    assert alert.locator("a, img, .katex, code").count() == 0
    page.wait_for_timeout(500)  # an image's fetch would have started by now
    outside = [u for u in requests if not u.startswith((page.app_url, "data:", "blob:"))]
    assert not outside, outside
    assert not page.js_errors
