"""What every page adds to Streamlit's look for accessibility (app.py draws it on every run),
where the theme options of .streamlit/config.toml cannot reach (Streamlit 1.67):

- captions: Streamlit draws them at 60 % opacity (#828180 on white, 3.88:1; a link inside one
  2.96:1) and no theme option sets that; here they are #5f5e5c (6.5:1 on white, 6.1:1 on the
  sidebar's #f8f8f7) at full opacity, so a link in one has the theme's own link colour;
- the sidebar's page links: their focus cue is a faint background (~1.1:1); here a 3 px
  ring in the text colour (≥ 3:1 on the sidebar);
- the collapsed sidebar is only moved off screen (on a narrow window or at 200 % zoom): its
  ~20 links and widgets stayed in the tab order, each Tab landing on something unseen;
  ``visibility: hidden`` takes them out until it is opened again (on every descendant too:
  a widget's help button sets its own ``visibility: visible``);
- ``svmlab-sr-only``: text for screen readers only (the Playground's h1 in present mode).

No external request: one inline <style>, the same on every page
(tests/browser/test_accessibility.py checks the colours with axe-core).
"""

from __future__ import annotations

import html

import streamlit as st

CAPTION_COLOR = "#5f5e5c"
FOCUS_COLOR = "#2f2d2b"  # the light theme's text colour

CSS = f"""
div[data-testid="stCaptionContainer"] {{ opacity: 1; color: {CAPTION_COLOR}; }}
a[data-testid="stSidebarNavLink"]:focus-visible {{
  outline: 3px solid {FOCUS_COLOR}; outline-offset: -3px; }}
section[data-testid="stSidebar"][data-collapsed="true"],
section[data-testid="stSidebar"][data-collapsed="true"] * {{ visibility: hidden !important; }}
.svmlab-sr-only {{ position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}
"""


def apply() -> None:
    st.html(f"<style>{CSS}</style>")


def hidden_heading(text: str) -> str:
    """A page's h1 for screen readers only (present mode gives the room to the plot)."""
    return f'<h1 class="svmlab-sr-only">{html.escape(text)}</h1>'
