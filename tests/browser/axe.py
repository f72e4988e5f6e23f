"""Run axe-core (node_modules/axe-core, pinned in package-lock.json) on an open Playwright page.

The script is read from disk and injected: no network. ``run_axe`` returns the violations
with WCAG 2.2 A/AA tags; ``serious`` keeps the serious and critical ones, each target apart,
so that a test can drop the framework's own (``ALLOWED`` in test_accessibility.py) and fail
on the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
SERIOUS = ("serious", "critical")


@cache
def axe_source() -> str:
    if not AXE_JS.is_file():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `npm ci` (make test does it)")
    return AXE_JS.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Finding:
    """One failing element of one axe rule."""

    rule: str
    impact: str
    target: str  # axe's CSS selector of the element (frames joined by " >> ")
    html: str  # the element's opening tag, as axe shows it
    summary: str  # axe's failure summary (why it fails, e.g. the contrast ratio)

    def __str__(self) -> str:
        return f"[{self.impact}] {self.rule}: {self.target}\n    {self.html[:160]}\n    " + \
            self.summary.replace("\n", " ")[:300]


def run_axe(page, tags=WCAG_TAGS) -> list[dict]:
    """axe's violations on the page as it is now (rules of ``tags`` only)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                               resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.map(n => ({impact: n.impact, html: n.html,
                    target: n.target.map(t => Array.isArray(t) ? t.join(' ') : t).join(' >> '),
                    summary: n.failureSummary || ''}))}));
        }""",
        list(tags),
    )


def serious(violations: list[dict]) -> list[Finding]:
    """The serious and critical failures, one per element."""
    return [
        Finding(v["id"], n["impact"] or v["impact"], n["target"], n["html"], n["summary"])
        for v in violations
        for n in v["nodes"]
        if (n["impact"] or v["impact"]) in SERIOUS
    ]
