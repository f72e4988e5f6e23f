"""The Sources page: every source by title and author, the conventions (item 10 and 9 of
issue 27), and docs/sources.md written from the same text."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.shared import nav
from ui.shared.cite import SOURCES, cite
from ui.sources import text

ROOT = Path(__file__).resolve().parents[1]


def test_sources_page_lists_every_source_and_the_conventions():
    at = AppTest.from_file(str(ROOT / "pages" / "12_sources.py"), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    (df,) = [d.value for d in at.dataframe]
    assert list(df["cited as"]) == [s.short for s in SOURCES]
    refs = " ".join(df["reference"])
    for words in ("Zaki", "Meira", "Fung", "Mangasarian", "KDD 2001", "Odobez", "Ribeiro"):
        assert words in refs
    shown = " ".join(str(m.value) for m in at.markdown)
    for topic, _ in text.conventions():
        assert topic in shown
    assert "γ = 1/(2σ²)" in shown and "2/‖w‖" in shown and "setosa is coded −1" in shown
    assert "seed 0" not in shown


def test_sources_page_is_in_the_menu_after_teach_a_class():
    titles = [p.title for p in nav.PAGES]
    assert titles.index("Sources") == titles.index("Teach a class") + 1


def test_cite_reads_as_a_reference():
    assert cite("chapter", 16) == "Zaki & Meira, ch. 21, slide 16"
    assert cite("chapter", "22–23") == "Zaki & Meira, ch. 21, slides 22–23"


def test_docs_sources_md_names_every_source():
    doc = (ROOT / "docs" / "sources.md").read_text()
    for s in SOURCES:
        assert s.title in doc


def test_no_page_text_cites_a_seed_file_by_number():
    """Item 10: "seed 004" means nothing to a student (ui/step_through is another helper's)."""
    files = [*ROOT.glob("pages/*.py"),
             *(f for d in ("worked_examples", "regression", "losses", "kernels", "playground",
                           "compare", "sources")
               for f in (ROOT / "ui" / d).rglob("*.py"))]
    bad = [f.name for f in files if any(f"seed 00{k}" in f.read_text() for k in range(5))]
    assert not bad, bad
