"""What a markdown body sent to the browser shows, and whether it holds a link, an image, a
formula, a tag or an icon: the tests of ``ui.shared.markdown.markdown_safe`` and of the pages
that show user text (tests/test_page_user_text.py)."""

from __future__ import annotations

import re

# what Streamlit's markdown (remark-gfm) turns into a link in text after the escapes are
# undone: its tokenizer takes "http://", "https://" or "www." and whatever follows (any letter,
# even an invisible one, as the host), and name@ before a host's first character; and its
# :shortcodes: (icons, emoji)
AUTOLINKS = (re.compile(r"https?://|www\.", re.I), re.compile(r"[-.\w+]@[\w-]"),
             re.compile(r":[A-Za-z+][\w/+-]*:"))
# a character that starts a link, image, formula, code, tag or entity, not escaped
_UNESCAPED = re.compile(r"(?<!\\)(?:\\\\)*[\[\]`$<>&]")


def shown(markdown: str) -> str:
    """The text of a body whose characters are all text: its escapes undone (what the
    renderer's autolink step sees)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def assert_no_markup(markdown: str) -> None:
    """``markdown`` holds no link, image, formula, code, tag, entity, icon or autolink
    (emphasis aside: a page's own bold is allowed around user text)."""
    assert not _UNESCAPED.search(markdown), markdown
    for pattern in AUTOLINKS:
        assert not pattern.search(shown(markdown)), (pattern.pattern, markdown)


def assert_literal(markdown: str, text: str) -> None:
    """``markdown`` shows ``text`` (line breaks folded) and nothing else: no emphasis either."""
    assert not re.search(r"(?<!\\)(?:\\\\)*[*_~]", markdown), markdown
    assert_no_markup(markdown)
    assert shown(markdown).replace("\u2060", "") == " ".join(text.split()), markdown
