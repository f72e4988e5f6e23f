"""A teacher link in Chromium: its controls are locked in the DOM, what is not locked still
works, reset brings the teacher's picture back; present mode hides the sidebar."""

from __future__ import annotations

import pytest
from appserver import store_url
from playwright.sync_api import expect
from widgets import choose

from svm_engine import datasets
from ui.classroom.store import get_store
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL

pytestmark = pytest.mark.browser

CANVAS = ".svmlab-canvas"
SIDEBAR = "[data-testid=stSidebar]"
EVIL = "**x** <script>alert(1)</script> [a](javascript:x)"


def d2_link() -> str:
    """A short link to D2 (C = 1) with the points, kernel, C and solver locked, the table
    hidden; loss and bias left to the students."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title=EVIL,
                       question="Which points need slack? Predict first.",
                       locked=["points", "kernel", "C", "solver"], hidden=["table"])  # fmt: skip
    return TL.put_link(spec, get_store(store_url()))  # the test server's store (appserver.py)


def open_link(page, query: str) -> None:
    page.goto(page.app_url + "/" + query)
    page.wait_for_function(
        "(() => { const r = document.querySelector('.svmlab-canvas');"
        " return r && r.__state && r.__state.drawn; })()"
    )


def sidebar_widget(page, testid: str, label: str):
    return page.locator(f"{SIDEBAR} [data-testid={testid}]").filter(has_text=label)


def test_a_teacher_link_opens_locked_and_reset_restores_it(page):
    link_id = d2_link()
    open_link(page, f"?t={link_id}")
    # the title and the question, as plain text (nothing was turned into markup)
    page.get_by_text(EVIL, exact=True).wait_for()
    page.get_by_text("Which points need slack? Predict first.", exact=True).wait_for()
    assert page.locator("a[href^='javascript']").count() == 0
    # locked in the DOM: the kernel's radios, C, the dataset, the canvas's toolbar
    kernel = sidebar_widget(page, "stRadio", "Kernel").locator("input[type=radio]")
    assert kernel.count() == 3 and all(kernel.nth(i).is_disabled() for i in range(3))
    assert sidebar_widget(page, "stSlider", "C (log scale)").locator("input").is_disabled()
    assert page.locator(SIDEBAR).get_by_role("button", name="Load dataset").is_disabled()
    toolbar = page.locator(f"{CANVAS} .svmlab-toolbar button")
    assert toolbar.count() == 4 and all(toolbar.nth(i).is_disabled() for i in range(4))
    # a click in the plot adds no point (the canvas ignores presses while locked)
    n0 = int(page.locator(CANVAS).get_attribute("data-n-points"))
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    page.mouse.click(box["x"] + 30, box["y"] + 30)
    assert page.evaluate(f"document.querySelector('{CANVAS}').__state.points.length") == n0
    assert page.evaluate(f"document.querySelector('{CANVAS}').__state.seq") == 0
    # the table is hidden, the numbers are not
    assert not page.locator(f"{CANVAS} .svmlab-tablebox").is_visible()
    page.locator(f"{CANVAS} .svmlab-numbers .svmlab-summary").wait_for()

    # not locked: the loss
    loss = sidebar_widget(page, "stRadio", "Loss")
    assert not loss.locator("input[type=radio]").first.is_disabled()
    loss.get_by_text("quadratic (k = 2)").click()
    page.wait_for_function("location.search.includes('l=quadratic')")
    page.wait_for_function(
        f"document.querySelector('{CANVAS}').__state.settings.loss === 'quadratic'"
    )
    assert f"t={link_id}" in page.evaluate("location.search")

    # reset: the teacher's picture again, and the link is the teacher's alone
    page.get_by_role("button", name="Reset to the teacher's picture").click()
    page.wait_for_function(f"location.search === '?t={link_id}'")
    page.wait_for_function(
        f"document.querySelector('{CANVAS}').__state.settings.loss === 'hinge'"
    )
    assert loss.locator("input[type=radio]").first.is_checked()  # hinge
    assert all(kernel.nth(i).is_disabled() for i in range(3))  # still locked
    assert not page.js_errors


def test_present_mode_has_no_sidebar_and_larger_markers(page):
    link_id = d2_link()
    open_link(page, f"?t={link_id}&present=1")
    page.get_by_role("button", name="Exit present mode").wait_for()
    assert not page.locator(SIDEBAR).is_visible()
    size = page.evaluate(
        f"document.querySelector('{CANVAS}').__state.plot._fullData"
        ".find(t => t.meta && t.meta.role === 'points').marker.size"
    )
    assert size > 12  # figures.POINT_SIZE × the present scale
    page.get_by_role("button", name="Exit present mode").click()
    page.locator(SIDEBAR).wait_for(state="visible")
    page.wait_for_function("!location.search.includes('present=')")
    assert not page.js_errors


def teacher_panel(page):
    """Open the Playground's "Teacher link" panel; returns its form's locator scope."""
    page.locator("[data-testid=stButtonGroup]").get_by_text("Teacher link", exact=True).click()
    page.get_by_label("Title", exact=True).wait_for()
    return page


def pill(page, group: str, name: str):
    box = page.locator("[data-testid=stButtonGroup]").filter(has_text=group)
    return box.get_by_role("button", name=name, exact=True)


def test_the_teacher_form_keeps_what_the_teacher_types_in_a_fresh_session(page):
    """Issue 32 item 1: in a fresh session (no sidebar change yet) the title went empty on
    Tab, the preset snapped back to "—" and a lock pill did not stay pressed (the panel's
    fragment reruns wrote the stored values back)."""
    open_link(page, "")
    teacher_panel(page)
    preset = "D2, soft margin C = 1 (slides 21–23)"
    choose(page, "Start from a worked example", preset)
    page.wait_for_timeout(1500)  # the fragment's rerun has come back
    box = page.locator("[data-testid=stSelectbox]").filter(has_text="Start from a worked")
    expect(box.get_by_role("combobox")).to_have_value(preset)
    load = page.get_by_role("button", name="Load it")
    expect(load).to_be_enabled()
    load.click()
    title = page.get_by_label("Title", exact=True)
    expect(title).to_have_value("D2: a soft margin with C = 1 (slides 21–23)")
    title.fill("My own title")
    title.press("Tab")
    page.wait_for_timeout(1500)
    expect(title).to_have_value("My own title")
    # a lock pill stays pressed: the preset leaves the C lock off
    c_lock = pill(page, "Locked for students", "C / hard margin")
    c_lock.click()
    page.wait_for_timeout(1500)
    expect(title).to_have_value("My own title")
    page.get_by_role("button", name="Make the teacher link").click()
    code = page.locator("[data-testid=stCode]").filter(has_text="?t=").first
    code.wait_for()
    link_id = code.inner_text().strip().rsplit("?t=", 1)[1][:TS.ID_LEN]
    spec = TL.get_link(link_id, get_store(store_url()))
    assert spec is not None and spec.title == "My own title"
    assert "C" in spec.locked and "points" in spec.locked
    assert spec.hidden == {"sv", "table"}
    expect(title).to_have_value("My own title")
    assert not page.js_errors


def test_a_link_made_from_a_loopback_visit_says_students_cannot_open_it_or_uses_the_class_address(
        page):
    """Issue 32 item 2: opened at 127.0.0.1 (the test server listens there only), "Make the
    teacher link" gave http://127.0.0.1:…/?t=… with no warning, and so did its QR code."""
    open_link(page, "")
    teacher_panel(page)
    page.get_by_role("button", name="Make the teacher link").click()
    warning = page.locator("[data-testid=stAlert]").filter(has_text="Students cannot open")
    warning.wait_for()
    assert "make run ADDRESS=0.0.0.0" in warning.inner_text()
    # the class's address, typed: the short link (and so its QR code) uses it
    where = page.get_by_role("textbox", name="Class address (optional)")
    where.fill("http://192.168.1.20:8501")
    where.press("Tab")
    page.wait_for_timeout(1000)
    page.get_by_role("button", name="Make the teacher link").click()
    code = page.locator("[data-testid=stCode]").filter(has_text="192.168.1.20").first
    code.wait_for()
    assert code.inner_text().strip().startswith("http://192.168.1.20:8501/?t=")
    expect(page.locator("[data-testid=stAlert]").filter(has_text="Students cannot open")) \
        .to_have_count(0)
    assert not page.js_errors


def test_hidden_numbers_never_reach_the_browser_and_clicks_still_refit(page):
    """Issue 32 item 11 / 33 item 12: with the numbers hidden (the table not), the table
    still showed α and "margin SV" for every point, drawn from answers that carried them."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="Predict", question="",
                       locked=[], hidden=["numbers"])  # fmt: skip
    open_link(page, f"?t={TL.put_link(spec, get_store(store_url()))}")
    canvas = page.locator(CANVAS)
    n0 = int(canvas.get_attribute("data-n-points"))
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    for k, dx in enumerate((40, 80), start=1):  # the second refit is the warm-start route
        page.mouse.click(box["x"] + dx, box["y"] + 40)
        page.wait_for_function(
            f"(() => {{ const r = document.querySelector('{CANVAS}');"
            f" return Number(r.dataset.refitSeq) >= {k} && r.__state.refitOn; }})()"
        )
    s = f"document.querySelector('{CANVAS}').__state"
    assert page.evaluate(f"{s}.points.length") == n0 + 2
    assert page.evaluate(f"{s}.refit.ans.ok") is True
    assert page.evaluate(f"Object.keys({s}.refit.ans)").count("alpha") == 0
    assert page.evaluate(f"{s}.refit.ans.panel === undefined") is True
    table = page.evaluate(f"{s}.tableEl.innerHTML")
    assert table.count("<tr data-row=") == n0 + 2
    assert "SV" not in table and "<td></td><td></td><td></td><td></td><td></td>" in table
    assert "Hidden by your teacher" in canvas.locator(".svmlab-numbers").inner_text()
    assert not page.js_errors


def test_the_teacher_s_reveal_reaches_an_open_student_page(page):
    """Issue 26: "predict first" could never be revealed. The student's page polls the link's
    reveal flag (ui/shared/reveal.py) and shows the numbers once the teacher reveals."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="Predict", question="",
                       locked=[], hidden=["numbers"], nonce="5eed5eed")  # fmt: skip
    open_link(page, f"?t={TL.put_link(spec, get_store(store_url()), key='the-key-1234')}")
    numbers = page.locator(f"{CANVAS} .svmlab-numbers")
    assert "Hidden by your teacher" in numbers.inner_text()
    TL.reveal_link(spec.id, "the-key-1234", get_store(store_url()))
    expect(numbers).not_to_contain_text("Hidden by your teacher", timeout=15_000)
    expect(numbers).to_contain_text("margin")
    assert not page.js_errors


def test_a_point_placed_just_before_the_reveal_stays_on_the_same_canvas(page):
    """The reveal's rerun moved the canvas one place up the page: the browser mounted a new
    canvas beside the old one (two numbers panels until the run ended) and the student's
    last clicks, not yet sent to the session, were lost with the old one."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="Predict", question="",
                       locked=[], hidden=["numbers"], nonce="0dd5eed5")  # fmt: skip
    open_link(page, f"?t={TL.put_link(spec, get_store(store_url()), key='the-key-1234')}")
    canvas = page.locator(CANVAS)
    page.evaluate(f"document.querySelector('{CANVAS}').__before_reveal = true")
    n0 = int(canvas.get_attribute("data-n-points"))
    box = page.locator(f"{CANVAS} .nsewdrag").bounding_box()
    page.mouse.click(box["x"] + 40, box["y"] + 40)  # the prediction, synced only after a pause
    page.wait_for_function(f"document.querySelector('{CANVAS}').__state.points.length > {n0}")
    TL.reveal_link(spec.id, "the-key-1234", get_store(store_url()))
    expect(canvas.locator(".svmlab-numbers")).to_contain_text("margin", timeout=15_000)
    assert page.evaluate(f"document.querySelector('{CANVAS}').__before_reveal") is True
    assert page.evaluate(f"document.querySelector('{CANVAS}').__state.points.length") == n0 + 1
    assert not page.js_errors


def test_the_reveal_leaves_the_keyboard_help_open(page):
    """The reveal drew the table's legend before the "Keyboard" help: it moved one place down,
    and the browser made it anew, closed, under a student reading it (and its focus lost).
    Failed before ``reveal.slot``: the help hidden after the reveal."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="Predict", question="",
                       locked=[], hidden=["numbers", "table"], nonce="f0c05eef")  # fmt: skip
    open_link(page, f"?t={TL.put_link(spec, get_store(store_url()), key='the-key-1234')}")
    summary = page.locator("[data-testid=stExpander] summary").filter(has_text="Keyboard")
    summary.focus()
    page.keyboard.press("Enter")
    help_text = page.get_by_text("The points table", exact=False).first
    expect(help_text).to_be_visible()
    page.evaluate("document.activeElement.__before_reveal = true")
    TL.reveal_link(spec.id, "the-key-1234", get_store(store_url()))
    expect(page.get_by_text("Why? Distance, margin")).to_be_visible(timeout=15_000)
    page.wait_for_timeout(500)   # the reveal's run has ended
    expect(help_text).to_be_visible()
    assert page.evaluate("document.activeElement.__before_reveal") is True
    assert not page.js_errors


def test_the_reveal_keeps_a_keyboard_user_s_focus_in_the_more_picker(page):
    """The reveal draws the "Why?" panel before the "More" picker: a student who tabbed to it
    keeps the focus there (a widget with a key is kept by its key; this passed before
    ``reveal.slot`` too)."""
    d = datasets.d2()
    spec = TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="Predict", question="",
                       locked=[], hidden=["numbers", "table"], nonce="f0c05eed")  # fmt: skip
    open_link(page, f"?t={TL.put_link(spec, get_store(store_url()), key='the-key-1234')}")
    picker = page.locator("[data-testid=stButtonGroup] button").first
    picker.focus()
    assert page.evaluate("document.activeElement.getAttribute('data-variant')") \
        == "segmented_control"
    page.evaluate("document.activeElement.__before_reveal = true")
    TL.reveal_link(spec.id, "the-key-1234", get_store(store_url()))
    expect(page.get_by_text("Why? Distance, margin")).to_be_visible(timeout=15_000)
    page.wait_for_timeout(500)   # the reveal's run has ended
    assert page.evaluate("document.activeElement.__before_reveal") is True
    assert not page.js_errors
