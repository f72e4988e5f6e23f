"""The class benchmark's students against the real app, so the emulation cannot silently rot.

``benchmarks/bench_class.py`` stands in for a class of browsers with ``st_client`` (a Streamlit
session over the websocket) and ``canvas_client`` (the canvas's click: the fit endpoint, then
the session update). Here two such students click a few times on a real server: every click
is answered with a valid refit, nothing fails, and each one's own session state holds its own
points afterwards (a full rerun shows them); a student whose session is never told
(``sync="never"``) is still at the link's 200 points, so that check can fail.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_class import N_POINTS, QUERY  # noqa: E402
from canvas_client import CANVAS, CanvasClient, Stats  # noqa: E402
from own_thread import in_own_thread  # noqa: E402
from st_client import StreamlitSession  # noqa: E402

pytestmark = pytest.mark.browser

CLICKS = 3


async def _class(url: str) -> dict:
    stats, quiet = Stats(), Stats()
    sessions = [StreamlitSession(url, QUERY) for _ in range(3)]
    try:
        for s in sessions:
            await s.open()
        students = [CanvasClient(s, stats, sync="every", rng=random.Random(i))
                    for i, s in enumerate(sessions[:2])]  # fmt: skip
        silent = CanvasClient(sessions[2], quiet, sync="never", rng=random.Random(9))
        for _ in range(CLICKS):
            for c in (*students, silent):
                c.click()
            await asyncio.sleep(0.8)
        for c in (*students, silent):
            await c.settled(timeout=60)
        return {
            "stats": stats,
            "quiet": quiet,
            "checks": [await c.check_session() for c in students],
            "silent_check": await silent.check_session(),
            "points": [c.points for c in students],
            "session_points": [len(c.s.components[CANVAS].data()["points"]) for c in students],
            "connected": [s.connected for s in sessions],
        }
    finally:
        await asyncio.gather(*(s.close() for s in sessions))


def test_students_click_refit_and_sync_their_own_sessions(app_url):
    r = in_own_thread(asyncio.run, _class(app_url))  # a Playwright loop may run here
    st = r["stats"]
    assert dict(st.errors) == {}, st.examples
    assert st.clicks == 2 * CLICKS
    assert len(st.answer_ms) == 2 * CLICKS  # every click answered by an ok refit
    assert len(st.canvas_ms) >= 2  # each student's session heard
    assert r["checks"] == [None, None]  # a full rerun shows each student's own points
    assert r["session_points"] == [N_POINTS + CLICKS] * 2
    assert r["points"][0] != r["points"][1]  # two sessions, two states
    assert all(r["connected"])
    # the check can fail: the session of a student who never syncs still has the link's points
    assert dict(r["quiet"].errors) == {} and len(r["quiet"].answer_ms) == CLICKS
    assert r["quiet"].canvas_ms == []
    assert r["silent_check"] is not None and f"session has {N_POINTS} points" in r["silent_check"]
