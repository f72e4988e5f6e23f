"""The Step-through's step player by keyboard alone (issue 28: WCAG 2.1.1, 2.1.4, 4.1.3).

Tab reaches the player's buttons; its keys (→ ← Home End P J) act only while focus is
inside it, so a `p` with focus on a sidebar link starts nothing; each step taken by a key
announces one sentence in the player's polite live region, with the numbers of
``ui.step_through.snapshot`` (Python); focus stays in the player, also when the step disables
the focused button (End); the pictures' names and descriptions follow the step.
"""

from __future__ import annotations

import pytest

from svm_engine import datasets
from ui.shared.settings import Settings
from ui.step_through import record, snapshot

pytestmark = pytest.mark.browser

NAV = '[data-testid="stSidebarNav"] a'
PLAYER = ".svmlab-player"
LIVE = PLAYER + " [data-role=announce]"
FOCUS_IN_PLAYER = "!!(document.activeElement && document.activeElement.closest('.svmlab-player'))"


def open_player(page):
    page.goto(page.app_url + "/")
    page.locator(NAV, has_text="Step-through").click()
    page.locator(PLAYER + " [data-role=counter]").wait_for()  # a fresh server warms up first
    page.wait_for_function(
        "(() => { const r = document.querySelector('.svmlab-player');"
        " return r && r.__state && r.__state.R && r.dataset.step === '0'; })()")


def step(page) -> int:
    return page.evaluate("document.querySelector('.svmlab-player').__state.k")


def wait_announced(page, k: int, T: int) -> str:
    page.wait_for_function(
        f"document.querySelector('{LIVE}').textContent.startsWith('Step {k} of {T}:')")
    return page.locator(LIVE).text_content()


def d1_run():
    ds = datasets.d1()  # the Playground's points at start, as the page's default source
    return record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "smo")


def tab_into_player(page, limit: int = 80) -> str:
    """Tab from the top of the page until focus is inside the player: the focused control."""
    page.locator(NAV, has_text="Step-through").focus()
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUS_IN_PLAYER):
            return page.evaluate("(e => e.dataset.act || e.tagName)(document.activeElement)")
    raise AssertionError("Tab never reached the step player")


def test_tab_into_the_player_and_step_by_key(page):
    open_player(page)
    run = d1_run()
    T = run.n_steps
    assert T >= 3
    # the start: First and Prev are disabled, so Tab lands on Next
    assert tab_into_player(page) == "next"
    assert page.locator(LIVE).text_content() == ""  # nothing is announced before a step
    for k in (1, 2):
        page.keyboard.press("ArrowRight")
        said = wait_announced(page, k, T)
        stt = snapshot.state_at(run, k)
        rec = snapshot.step_record(run, k)
        n_sv = len(stt.model.free_support) + len(stt.model.bound_support)
        assert f"α{rec['i'] + 1} and α{rec['j'] + 1}" in said, said
        assert f"; {n_sv} support vector{'' if n_sv == 1 else 's'}; KKT gap " in said, said
        assert step(page) == k and page.evaluate(FOCUS_IN_PLAYER)
    # the counter and the summary are no live regions: only the short sentence is read
    for role in ("counter", "summary"):
        assert page.locator(f"{PLAYER} [data-role={role}]").get_attribute("aria-live") is None
    page.keyboard.press("ArrowLeft")
    wait_announced(page, 1, T)
    # End disables the focused Next: focus moves to an enabled button of the player
    page.keyboard.press("End")
    wait_announced(page, T, T)
    assert page.locator(f"{PLAYER} button[data-act=next]").is_disabled()
    assert page.evaluate(FOCUS_IN_PLAYER)
    page.keyboard.press("Home")
    wait_announced(page, 0, T)
    assert page.evaluate(FOCUS_IN_PLAYER)
    assert not page.js_errors


def test_pictures_are_named_and_described_for_the_step(page):
    open_player(page)
    run = d1_run()
    T = run.n_steps
    bars = page.locator(f"{PLAYER} .sp-bars")
    assert bars.get_attribute("role") == "img"
    assert bars.get_attribute("aria-label").endswith(f"after step 0 of {T}")
    tab_into_player(page)
    page.keyboard.press("ArrowRight")
    wait_announced(page, 1, T)
    rec = snapshot.step_record(run, 1)
    names = page.evaluate("""() => [...document.querySelectorAll(
        '.svmlab-player canvas, .svmlab-player .sp-box')].map((el) => ({
          role: el.getAttribute('role'), name: el.getAttribute('aria-label'),
          desc: document.getElementById(el.getAttribute('aria-describedby')).textContent}))""")
    assert len(names) == 5  # four canvases and the (αᵢ, αⱼ) box
    for n in names:
        assert n["role"] == "img" and n["name"] and n["desc"], n
        assert "step 1" in n["name"], n
    assert f"The (α{rec['i'] + 1}, α{rec['j'] + 1}) box of step 1" in [n["name"] for n in names]
    assert len(page.locator(f"{PLAYER} [data-role=keys] tbody tr").all()) == 6
    assert not page.js_errors


def test_keys_do_nothing_outside_the_player(page):
    open_player(page)
    link = page.locator(NAV, has_text="Playground")
    link.focus()
    for key in ("p", "ArrowRight", "j", "End"):
        page.keyboard.press(key)
    page.wait_for_timeout(800)  # what must NOT happen: playback would take a step by now
    assert page.evaluate("document.querySelector('.svmlab-player').__state.playing") is False
    assert step(page) == 0
    assert page.evaluate("document.activeElement.closest('[data-testid=stSidebarNav]') !== null")
    # the same key with focus in the player does play (and again pauses, announcing where)
    tab_into_player(page)
    page.keyboard.press("p")
    page.wait_for_function("document.querySelector('.svmlab-player').__state.playing")
    page.keyboard.press("p")
    page.wait_for_function("!document.querySelector('.svmlab-player').__state.playing")
    assert page.evaluate(FOCUS_IN_PLAYER)
    assert not page.js_errors
