"""Present mode on the pages a teacher projects most besides the Playground (issue 32 item
12): Step-through and Worked examples enter it from the sidebar, hide the sidebar and the
header, and leave it with the button on top; the switch is the session's, as on the
Playground."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.shared import present
from ui.shared.session import shared

ROOT = Path(__file__).resolve().parents[1]
PAGES = [str(ROOT / "pages" / name) for name in ("3_step_through.py", "2_worked_examples.py")]


@pytest.mark.parametrize("page", PAGES)
def test_present_mode_enters_from_the_sidebar_and_exits_from_the_page(page):
    at = AppTest.from_file(page, default_timeout=120).run()
    assert not at.exception
    assert not any(b.key == "svmlab.present.exit" for b in at.button)
    at.button(key="svmlab.present.enter").click().run()
    assert not at.exception and shared(at.session_state).present
    styles = " ".join(str(h.proto.body) for h in at.get("html"))
    assert '[data-testid="stSidebar"]' in styles and "display: none" in styles
    assert not any(b.key == "svmlab.present.enter" for b in at.button)
    at.button(key="svmlab.present.exit").click().run()
    assert not at.exception and not shared(at.session_state).present
    assert at.button(key="svmlab.present.enter")


def test_the_playgrounds_switch_is_the_same_one():
    from ui.playground import teacher as T

    ss: dict = {}
    present.set_present(ss, True)
    assert T.is_present(ss) and shared(ss).present
