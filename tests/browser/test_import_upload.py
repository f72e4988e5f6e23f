"""A label-first CSV uploaded through the Playground's real uploader (issue 18).

`y,x1,x2` was read as x1, x2, label: the columns came in swapped under "Imported 8 points".
Here the file goes through Chromium's file input, Streamlit's upload endpoint (capped at 1 MB
by .streamlit/config.toml) and the page; the w on the numbers panel must be the engine's w
for the file's points, read by their column names.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from canvas_page import CANVAS, open_app

import svm_engine as se
from ui.shared import tables
from ui.shared.fitting import SMO_TOL

pytestmark = pytest.mark.browser

# y = +1 above the line x1 + 2·x2 = 6, −1 below; written label first
ROWS = [(1, 4.0, 3.0), (-1, 1.0, 1.0), (1, 2.0, 3.5), (-1, 3.0, 0.5), (1, 5.0, 2.5),
        (-1, 0.5, 2.0), (1, 1.5, 4.0), (-1, 2.5, 1.0)]


def shown_w(page) -> str:
    row = page.locator(f"{CANVAS} .svmlab-numbers tr").filter(
        has=page.locator("th", has_text=re.compile(r"^w$")))
    return row.locator("td").inner_text()


def test_label_first_csv_through_the_uploader_gives_the_engines_w(page, tmp_path):
    open_app(page)                                   # book D2, linear kernel, C = 1, smo
    page.locator("[data-testid=stButtonGroup]").get_by_text("Import / export", exact=True).click()
    uploader = page.locator("[data-testid=stFileUploader]")
    uploader.wait_for()
    assert re.search(r"\b1\s?MB per file", uploader.inner_text())   # server.maxUploadSize
    path = tmp_path / "label_first.csv"
    path.write_text("y,x1,x2\n" + "".join(f"{y},{a},{b}\n" for y, a, b in ROWS))
    uploader.locator("input[type=file]").set_input_files(str(path))
    page.get_by_text("Imported 8 points from label", exact=False).wait_for()
    page.wait_for_function(
        f"document.querySelector('{CANVAS} .svmlab-numbers').innerText"
        ".includes('8 points (4 of class +1, 4 of class −1)')")

    X = np.array([[a, b] for _, a, b in ROWS])
    y = np.array([lab for lab, _, _ in ROWS])
    model = se.fit(X, y, kernel=se.Linear(), C=1.0, solver="smo", tol=SMO_TOL)  # the page's
    expected = dict(tables.model_summary(model))["w"]
    page.wait_for_function(
        f"""(() => {{ const t = document.querySelector('{CANVAS} .svmlab-numbers');
        return t && t.querySelector('table') && t.innerText.includes({expected!r}); }})()""")
    shown = shown_w(page)
    assert shown == expected
    exact = se.fit(X, y, kernel=se.Linear(), C=1.0, solver="qp", tol=1e-10).w   # cvxopt
    w = [float(v) for v in shown.strip("()").replace("−", "-").split(",")]
    np.testing.assert_allclose(w, exact, atol=1e-4)
    # the old reading (x1 = y, x2 = x1, label = x2) has another w: the test can tell them apart
    old = se.fit(np.column_stack([y, X[:, 0]]), X[:, 1] > 2, kernel=se.Linear(), C=1.0)
    assert dict(tables.model_summary(old))["w"] != expected
    assert not page.js_errors
