"""The live-class benchmark's students and teacher against the real app, so the emulation
cannot silently rot: ``benchmarks/bench_live_class.py`` with three students on its own server
and database; each joins by the page's own form, answers, reads "Saved"; the teacher's
dashboard (its fragment rerun as the browser would) counts every answer; nothing is lost."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_live_class  # noqa: E402
from own_thread import in_own_thread  # noqa: E402

pytestmark = pytest.mark.browser


def test_three_students_join_answer_and_reach_the_dashboard(tmp_path):
    out_path = tmp_path / "out.json"
    # bench_live_class calls asyncio.run: a thread of its own
    in_own_thread(bench_live_class.main, [
        "--students", "3", "--join-window", "2", "--answer-window", "3",
        "--database", f"sqlite:///{tmp_path / 'live.db'}", "--json", str(out_path)])
    out = json.loads(out_path.read_text())
    assert out["joined"] == out["stored_students"] == 3
    assert out["acked"] == 3 and out["lost"] == [] and out["n_errors"] == 0, out["errors"]
    assert out["dashboard_never_counted"] == 0 and out["dashboard_lag_s"]["n"] == 3
