"""The Sources page and the citations pages show (issue 27 item 10)."""
from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.shared import cite
from ui.shared.nav import PAGES

ROOT = Path(__file__).resolve().parents[1]


def test_sources_page_lists_every_document_by_title_and_author():
    at = AppTest.from_file(str(ROOT / "pages" / "12_sources.py"), default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (df,) = [d.value for d in at.dataframe]
    refs = " ".join(df["reference"])
    for words in ("Zaki", "Meira", "Fung", "Mangasarian", "Proximal Support Vector Machine",
                  "Odobez", "Ribeiro", "Note 4: Support Vector Machine SVM"):
        assert words in refs, words
    text = " ".join(str(m.value) for m in at.markdown)
    assert "1/‖w‖" in text and "γ = 1/(2σ²)" in text and "setosa" in text


def test_the_page_is_in_the_menu_after_teach_a_class():
    titles = [p.title for p in PAGES]
    assert titles.index("Sources") == titles.index("Teach a class") + 1


def test_no_page_shows_a_bare_seed_number():
    """Pages and their text modules cite through ui/shared/cite.py: no "seed 004" in a string a
    page can show (docstrings and comments of cite.py itself aside)."""
    bare = re.compile(r"seed 00\d")
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("ui/**/*.py")]:
        if path.name == "cite.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            assert not bare.search(code), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"


def test_readable_turns_the_engines_seed_numbers_into_titles():
    text = cite.readable("Sources: seed 004, slide 13; seed 001.")
    assert "seed" not in text and "Note 4: Support Vector Machine SVM" in text
    assert "Fung & Mangasarian" in text
    assert cite.cite("zaki", "slide 16").endswith("ch. 21 slides, slide 16")
