"""Issue 33 item 3: text from a link or a file is never rendered as markdown. Each way in (a
Playground link's d=, k=, l=, sv=, a parameter's name, a KaTeX formula, a teacher link's
unknown parts and lock names, CSV column names and labels holding an address) reaches the
page as text: the markdown bodies the page sends hold no link, image, formula or tag, and
nothing in them is autolinked. (tests/browser/test_link_injection.py: the browser shows no
link and fetches nothing.)"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from tests.markdown_check import assert_no_markup, shown
from ui.playground import teacher_spec as TS
from ui.shared.session import shared
from ui.shared.settings import DEFAULTS

ROOT = Path(__file__).resolve().parents[1]
PLAYGROUND = str(ROOT / "pages" / "1_playground.py")
MORE_CLASSES = str(ROOT / "pages" / "7_more_classes.py")

LINK = "[Log in](https://evil.example/d)"
IMAGE = "![i](https://evil.example/i.png)"
KATEX = "$\\INJK$"


def bodies(at: AppTest) -> list[str]:
    """Every markdown body of the page: texts, alerts, captions, and widgets' labels."""
    out = [str(e.value) for kind in (at.markdown, at.caption, at.warning, at.error,
                                     at.success, at.info) for e in kind]  # fmt: skip
    for kind in (at.number_input, at.selectbox, at.slider, at.text_input, at.radio):
        out += [str(w.label) for w in kind]
    return out


def assert_shown_as_text(at: AppTest, evil: str) -> list[str]:
    """``evil`` is on the page, literally, in bodies with no markup; those bodies."""
    assert not at.exception, [e.value for e in at.exception]
    forms = (evil, repr(evil)[1:-1])  # as typed, or quoted by repr in a message
    found = [b for b in bodies(at) if any(f in shown(b).replace("\u2060", "") for f in forms)]
    assert found, (evil, bodies(at))
    for b in found:
        assert_no_markup(b)
    for b in bodies(at):  # and no body anywhere links to or shows the outside host
        if "evil" in b:
            assert_no_markup(b)
    return found


def playground(query: dict) -> AppTest:
    at = AppTest.from_file(PLAYGROUND, default_timeout=120)
    at.query_params.update(query)
    return at.run()


@pytest.mark.parametrize("query, evil", [
    ({"v": "1", "d": LINK}, LINK),
    ({"v": "1", "d": IMAGE}, IMAGE),
    ({"v": "1", "d": KATEX}, KATEX),
    ({"v": "1", "d": "d1", "k": LINK}, LINK),
    ({"v": "1", "d": "d1", "l": IMAGE}, IMAGE),
    ({"v": "1", "d": "d1", "sv": "https://evil.example/s"}, "https://evil.example/s"),
    ({"v": "1", "d": "d1", "b": "www.evil.example"}, "www.evil.example"),
    ({"v": "1", "d": "d1", LINK: "1"}, LINK),  # an unknown parameter's name
])
def test_a_links_values_and_names_are_shown_as_text(query, evil):
    at = playground(query)
    (warning,) = [w.value for w in at.warning if "could not be opened" in w.value]
    assert warning in assert_shown_as_text(at, evil)
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).X), datasets.d1().X)


def _blob(**extra) -> str:
    """A teacher link's ts= holding the D1 picture with ``extra`` parts."""
    d = datasets.d1()
    obj = TS.make_spec(d.X, d.y, DEFAULTS).to_obj() | extra
    raw = zlib.compress(json.dumps(obj).encode(), 9)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize("extra, evil", [
    ({LINK: 1}, LINK),                                   # an unknown part's name
    ({"lock": [IMAGE]}, IMAGE[:20]),                     # a lock's name (cut to 30 characters)
    ({"hide": ["https://evil.example/h"]}, "https://evil.example/h"),
])
def test_a_teacher_links_parts_are_shown_as_text(extra, evil):
    at = playground({"ts": _blob(**extra)})
    (warning,) = [w.value for w in at.warning if "could not be opened" in w.value]
    assert warning in assert_shown_as_text(at, evil)


EVIL_CSV = ("https://evil.example/x,x2,www.evil.example\n"
            "0,0,mallory@evil.example\n1,1,https://evil.example/b\n2,0,mallory@evil.example\n")


def test_csv_column_names_and_labels_with_addresses_are_shown_as_text_on_the_playground():
    at = playground({})
    at.segmented_control(key="pg.panel").set_value("Import / export")
    at.run()
    (up,) = [u for u in at.file_uploader if str(u.key).startswith("pg.upload.")]
    up.set_value(("pts.csv", EVIL_CSV.encode(), "text/csv"))
    at.run()
    (ok,) = [s.value for s in at.success if "Imported 3 points" in s.value]
    for evil in ("https://evil.example/x", "www.evil.example", "mallory@evil.example",
                 "https://evil.example/b"):
        assert ok in assert_shown_as_text(at, evil)
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).X), [[0, 0], [1, 1], [2, 0]])


def test_csv_column_names_with_addresses_are_shown_as_text_on_more_classes():
    at = AppTest.from_file(MORE_CLASSES, default_timeout=300).run()
    at.radio(key="mc.source").set_value("file").run()
    text = "https://evil.example/a,www.evil.example,kind\n" + "".join(
        f"{i % 5},{(i * 7) % 4},{['https://evil.example/p', 'q@evil.example', 'r'][i % 3]}\n"
        for i in range(30))
    (up,) = [u for u in at.file_uploader if u.key == "mc.upload"]
    up.set_value(("evil.csv", text.encode(), "text/csv")).run()
    labels = [w.label for w in at.number_input]
    for evil in ("https://evil.example/a", "www.evil.example"):
        found = assert_shown_as_text(at, evil)
        assert any(b in labels for b in found)  # the add-a-point inputs' labels
