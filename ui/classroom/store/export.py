"""A class's answers as CSV for the teacher (``Store.export_csv``): one row per answer, oldest
first, and one row for each student who answered nothing.

A cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage
return, as a nickname like ``=cmd|'/c calc'!A1`` does) gets a leading apostrophe, so the
spreadsheet shows it as text; a plain number (−0.5) is left as it is.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

from ui.classroom.model import Dashboard, as_json

COLUMNS = ("student", "nickname", "joined_utc", "screen", "screen_title", "kind", "status",
           "summary", "answer", "message", "answered_utc")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text.startswith(_FORMULA_START) and not _NUMBER.match(text):
        return "'" + text
    return text


def _utc(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def to_csv(d: Dashboard) -> str:
    screens = d.state.activity.screens
    names = {s.id: s for s in d.students}
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(COLUMNS)
    answered = set()
    for a in d.answers:
        s = names.get(a.student_id)
        answered.add(a.student_id)
        sc = screens[a.screen] if 0 <= a.screen < len(screens) else None
        w.writerow([safe_cell(v) for v in (
            a.student_id, s.nickname if s else "", _utc(s.joined_at) if s else "",
            a.screen + 1, sc.title if sc else "", sc.kind if sc else "", a.status, a.summary,
            as_json(a.answer), a.message, _utc(a.at))])
    for s in d.students:
        if s.id not in answered:
            w.writerow([safe_cell(v) for v in (s.id, s.nickname, _utc(s.joined_at),
                                               "", "", "", "", "", "", "", "")])
    return out.getvalue()
