"""The live class's store (ui/classroom/store), every method, on SQLite and on a real
PostgreSQL server with the same test code (the ``store`` / ``db_url`` fixtures of conftest.py)."""

from __future__ import annotations

import csv
import hashlib
import io
import time

import pytest
from sqlalchemy import func, select, update

from ui.classroom.model import ANSWER_MAX, NICKNAME_MAX, Activity, Feedback, Screen
from ui.classroom.store import (
    ClassEnded,
    ClassNotFound,
    NotOpen,
    NotStudent,
    NotTeacher,
    Store,
    secrets_text,
)
from ui.classroom.store.schema import answers, classes, ended_classes, students

ACTIVITY = Activity("Chapter 21", (Screen("mark", {"what": "sv"}, "Mark the SVs"),
                                   Screen("number", {"quantity": "b"}, "b"),
                                   Screen("choice", {"question": "?"}, "Concept")))
RIGHT = Feedback("correct", "Right: x1 and x4 are on the margin.", "x1 x4")
WRONG = Feedback("wrong", "x2 is inside the street: α₂ = 0.", "x2")


@pytest.fixture
def cls(store):
    return store.create_class(ACTIVITY)


def count(store, table, **where) -> int:
    q = select(func.count()).select_from(table)
    for k, v in where.items():
        q = q.where(table.c[k] == v)
    with store.engine.connect() as c:
        return c.execute(q).scalar_one()


# ------------------------------------------------------------------------- classes


def test_a_class_has_a_code_a_key_and_its_activity(store, cls):
    code, key = cls
    assert len(code) == 6 and set(code) <= set(secrets_text.CODE_ALPHABET)
    assert not set(code) & set("0O1IL")
    assert len(key) == 32  # secrets.token_urlsafe(24)
    s = store.class_state(code)
    assert (s.code, s.title, s.activity, s.pace, s.paused, s.revealed, s.anonymise, s.shown,
            ) == (code, "Chapter 21", ACTIVITY, None, False, frozenset(), False, None)
    assert abs(s.created_at - time.time()) < 60
    with store.engine.connect() as c:
        stored = c.execute(select(classes.c.key_hash)).scalar_one()
    assert stored == hashlib.sha256(key.encode()).hexdigest() and key not in stored


def test_codes_differ_and_are_read_as_typed(store):
    codes = {store.create_class(ACTIVITY)[0] for _ in range(8)}
    assert len(codes) == 8
    code = next(iter(codes))
    typed = f" {code[:3].lower()} {code[3:].lower()} "
    assert store.class_state(typed).code == code


@pytest.mark.parametrize("code, says", [
    ("ZZZZZZ", "No class has the code ZZZZZZ"),
    ("hello world", "is not a class code"),
    ("ABC0O1", "is not a class code"),
    ("", "is not a class code"),
])
def test_a_made_up_code_is_not_found_with_a_clear_message(store, cls, code, says):
    with pytest.raises(ClassNotFound, match=says) as e:
        store.class_state(code)
    assert not isinstance(e.value, ClassEnded)
    with pytest.raises(ClassNotFound):
        store.join(code, "Ann")


def test_an_activity_must_have_screens(store):
    with pytest.raises(ValueError, match="at least one screen"):
        store.create_class(Activity("empty", ()))
    with pytest.raises(ValueError, match="at most 30 screens"):
        store.create_class(Activity("long", (Screen("choice"),) * 31))


# ------------------------------------------------------------------- the teacher's key


def test_only_the_teachers_key_is_the_teachers(store, cls):
    code, key = cls
    other_code, other_key = store.create_class(ACTIVITY)
    assert store.is_teacher(code, key)
    for forged in (other_key, key[:-1] + ("A" if key[-1] != "A" else "B"), "", None, 5,
                   "x" * 10_000):
        assert not store.is_teacher(code, forged)
    assert not store.is_teacher("ZZZZZZ", key)


TEACHER_CALLS = {
    "set_pace": (1,), "set_paused": (True,), "set_revealed": (0, True),
    "set_anonymise": (True,), "show_answer": (None,), "dashboard": (), "export_csv": (),
    "end_class": (),
}


@pytest.mark.parametrize("method", sorted(TEACHER_CALLS))
def test_every_teacher_call_refuses_a_forged_or_replayed_key(store, cls, method):
    code, key = cls
    _, replayed = store.create_class(ACTIVITY)  # a real key, of another class
    before = store.class_state(code)
    for bad in (replayed, "forged-key", ""):
        with pytest.raises(NotTeacher, match="not the teacher's key"):
            getattr(store, method)(code, bad, *TEACHER_CALLS[method])
    assert store.class_state(code) == before


def test_keys_are_compared_in_constant_time(store, cls, monkeypatch):
    code, key = cls
    calls = []
    real = secrets_text.hmac.compare_digest
    monkeypatch.setattr(secrets_text.hmac, "compare_digest",
                        lambda a, b: calls.append((a, b)) or real(a, b))
    assert store.is_teacher(code, key) and not store.is_teacher(code, "nope")
    assert [a == b for a, b in calls] == [True, False]
    seat = store.join(code, "Ann")
    calls.clear()
    store.join(code, "", token=seat.token)
    assert calls, "a student's token is compared with hmac.compare_digest too"


# ------------------------------------------------------------------------ students


def test_a_nickname_is_cleaned_and_capped(store, cls):
    code, _ = cls
    assert store.join(code, " \u202eAnn\u200b\x00  Lee\n ").nickname == "Ann Lee"
    for empty in ("", "   ", "\u200b\u200d", "\x00\x07"):
        with pytest.raises(ValueError, match="Choose a nickname"):
            store.join(code, empty)
    with pytest.raises(ValueError, match=f"at most {NICKNAME_MAX} characters"):
        store.join(code, "x" * (NICKNAME_MAX + 1))
    assert store.join(code, "y" * NICKNAME_MAX).nickname == "y" * NICKNAME_MAX


def test_two_students_never_share_a_name(store, cls):
    code, _ = cls
    names = [store.join(code, "Sam").nickname for _ in range(3)]
    assert names == ["Sam", "Sam 2", "Sam 3"]
    long = "z" * NICKNAME_MAX
    store.join(code, long)
    assert store.join(code, long).nickname == "z" * (NICKNAME_MAX - 2) + " 2"


def test_rejoin_with_the_token_is_the_same_seat(store, cls):
    code, _ = cls
    seat = store.join(code, "Ann")
    assert seat.seed > 0 and len(seat.token) == 32
    again = store.join(code, "Someone else", token=seat.token)
    assert again == seat
    other_code, _ = store.create_class(ACTIVITY)
    foreign = store.join(other_code, "Ann", token=seat.token)  # not a seat of that class
    assert foreign.token != seat.token
    assert store.join(code, "Bob", token="made-up").student_id != seat.student_id
    assert count(store, students) == 3
    with store.engine.connect() as c:
        hashes = set(c.execute(select(students.c.token_hash)).scalars())
    assert seat.token not in hashes and hashlib.sha256(seat.token.encode()).hexdigest() in hashes


def test_seeds_differ(store, cls):
    code, _ = cls
    seeds = {store.join(code, f"s{i}").seed for i in range(12)}
    assert len(seeds) == 12 and 0 not in seeds


# ------------------------------------------------------------------------- answers


def test_an_answer_is_committed_when_submit_returns(store, cls, db_url):
    code, key = cls
    seat = store.join(code, "Ann")
    row = store.submit(code, seat.token, 0, {"points": [0, 3]}, RIGHT)
    assert row.id > 0 and row.student_id == seat.student_id and row.screen == 0
    assert (row.answer, row.status, row.summary, row.message) == (
        {"points": [0, 3]}, "correct", "x1 x4", RIGHT.message)
    other = Store(db_url)  # another engine (another process would do the same)
    try:
        assert other.my_answers(code, seat.token) == {0: row}
        assert other.dashboard(code, key).answers == (row,)
    finally:
        other.engine.dispose()


def test_my_answers_are_the_latest_per_screen_and_mine_only(store, cls):
    code, _ = cls
    ann, bob = store.join(code, "Ann"), store.join(code, "Bob")
    store.submit(code, ann.token, 0, {"points": [1]}, WRONG)
    last0 = store.submit(code, ann.token, 0, {"points": [0, 3]}, RIGHT)
    last1 = store.submit(code, ann.token, 1, {"value": -3.5}, RIGHT)
    store.submit(code, bob.token, 2, {"choice": 1}, WRONG)
    assert store.my_answers(code, ann.token) == {0: last0, 1: last1}
    assert set(store.my_answers(code, bob.token)) == {2}
    with pytest.raises(NotStudent):
        store.my_answers(code, "not-a-token")


@pytest.mark.parametrize("answer, says", [
    ({"value": "x" * ANSWER_MAX}, "too long"),
    ({"points": list(range(ANSWER_MAX))}, "too long"),
    ({"value": "<script>alert(1)</script>"}, "characters an answer never has"),
    ({"value": "1\u202e0"}, "characters an answer never has"),
    ({"value": float("nan")}, "finite number"),
    ({"value": float("inf")}, "finite number"),
    ({}, "empty"),
    ("0.5", "empty"),
    ({"value": object()}, "not in a form"),
    ({"a": [[[[[[1]]]]]]}, "nested too deeply"),
])
def test_a_bad_answer_is_refused_with_a_clear_message_and_nothing_is_lost(store, cls, answer,
                                                                          says):
    code, key = cls
    seat = store.join(code, "Ann")
    kept = store.submit(code, seat.token, 1, {"value": 0.5}, RIGHT)
    with pytest.raises(ValueError, match=says):
        store.submit(code, seat.token, 1, answer, RIGHT)
    assert store.dashboard(code, key).answers == (kept,)


def test_an_answer_needs_a_seat_an_open_screen_and_a_running_class(store, cls):
    code, key = cls
    seat = store.join(code, "Ann")
    other_code, _ = store.create_class(ACTIVITY)
    with pytest.raises(NotStudent, match="join it again"):
        store.submit(other_code, seat.token, 0, {"v": 1}, RIGHT)
    for screen in (-1, 3, "0", None):
        with pytest.raises(ValueError, match="not part of this class"):
            store.submit(code, seat.token, screen, {"v": 1}, RIGHT)
    store.set_pace(code, key, 0)
    with pytest.raises(NotOpen, match="not opened this screen"):
        store.submit(code, seat.token, 1, {"v": 1}, RIGHT)
    store.submit(code, seat.token, 0, {"v": 1}, RIGHT)
    store.set_paused(code, key, True)
    with pytest.raises(NotOpen, match="paused"):
        store.submit(code, seat.token, 0, {"v": 1}, RIGHT)
    store.set_paused(code, key, False)
    with pytest.raises(ValueError, match="check is missing"):
        store.submit(code, seat.token, 0, {"v": 1}, Feedback("maybe", "?"))
    assert len(store.dashboard(code, key).answers) == 1


def test_touch_writes_last_seen_at_most_every_few_seconds(store, cls):
    code, key = cls
    seat = store.join(code, "Ann")
    first = store.dashboard(code, key).students[0].last_seen
    time.sleep(0.02)
    store.touch(code, seat.token)
    second = store.dashboard(code, key).students[0].last_seen
    assert second > first
    time.sleep(0.02)
    store.touch(code, seat.token)  # within TOUCH_EVERY_S: not written
    assert store.dashboard(code, key).students[0].last_seen == second
    store.touch(code, "nobody")
    store.touch("ZZZZZZ", seat.token)  # nothing to touch: no error either


# ----------------------------------------------------------------------- the teacher


def test_pace_pause_reveal_anonymise_and_a_shown_answer_reach_the_state(store, cls):
    code, key = cls
    ann, bob = store.join(code, "Ann"), store.join(code, "Bob")
    a = store.submit(code, bob.token, 1, {"value": 0.7071}, RIGHT)
    store.set_pace(code, key, 1)
    store.set_paused(code, key, True)
    store.set_revealed(code, key, 2, True)
    store.set_revealed(code, key, 0, True)
    store.set_revealed(code, key, 0, False)
    store.show_answer(code, key, a.id)
    s = store.class_state(code)
    assert (s.pace, s.paused, s.revealed, s.anonymise) == (1, True, frozenset({2}), False)
    assert (s.shown.screen, s.shown.name, s.shown.answer, s.shown.summary) == (
        1, "Bob", {"value": 0.7071}, "x1 x4")
    store.set_anonymise(code, key, True)
    assert store.class_state(code).shown.name == "Student 2"  # the second to join
    store.set_pace(code, key, None)
    store.show_answer(code, key, None)
    s = store.class_state(code)
    assert s.pace is None and s.shown is None and ann.student_id != bob.student_id


def test_a_teacher_cannot_set_what_is_not_in_the_class(store, cls):
    code, key = cls
    other_code, other_key = store.create_class(ACTIVITY)
    seat = store.join(other_code, "Eve")
    foreign = store.submit(other_code, seat.token, 0, {"v": 1}, RIGHT)
    with pytest.raises(ValueError, match="not one of this class"):
        store.show_answer(code, key, foreign.id)
    for upto in (-1, 3, "1"):
        with pytest.raises(ValueError, match="one of the activity's screens"):
            store.set_pace(code, key, upto)
    with pytest.raises(ValueError, match="not part of this class"):
        store.set_revealed(code, key, 7, True)


def test_the_dashboard_has_every_student_and_answer_in_order(store, cls):
    code, key = cls
    ann, bob = store.join(code, "Ann"), store.join(code, "Bob")
    rows = [store.submit(code, ann.token, 0, {"points": [1]}, WRONG),
            store.submit(code, bob.token, 0, {"points": [0, 3]}, RIGHT),
            store.submit(code, ann.token, 0, {"points": [0, 3]}, RIGHT)]
    other_code, _ = store.create_class(ACTIVITY)
    store.submit(other_code, store.join(other_code, "Zed").token, 0, {"v": 1}, RIGHT)
    d = store.dashboard(code, key)
    assert d.state == store.class_state(code)
    assert [(s.id, s.nickname) for s in d.students] == [(ann.student_id, "Ann"),
                                                        (bob.student_id, "Bob")]
    assert d.answers == tuple(rows)


def test_export_csv_has_every_answer_and_neutralises_formulas(store, cls):
    code, key = cls
    evil = store.join(code, "=cmd|'/c calc'!A1")
    quiet = store.join(code, "@Quiet")
    store.submit(code, evil.token, 1, {"value": -0.5}, Feedback("wrong", "+1 off", "-0.5"))
    rows = list(csv.DictReader(io.StringIO(store.export_csv(code, key))))
    assert [r["nickname"] for r in rows] == ["'=cmd|'/c calc'!A1", "'@Quiet"]
    first = rows[0]
    assert (first["screen"], first["screen_title"], first["kind"], first["status"]) == (
        "2", "b", "number", "wrong")
    assert first["summary"] == "-0.5" and first["message"] == "'+1 off"
    assert first["answer"] == '{"value":-0.5}'
    assert rows[1]["student"] == str(quiet.student_id) and rows[1]["status"] == ""
    assert first["answered_utc"].endswith("Z")


# --------------------------------------------------------------- ending and retention


def test_end_class_deletes_everything_of_the_class(store, cls):
    code, key = cls
    seat = store.join(code, "Ann")
    store.submit(code, seat.token, 0, {"v": 1}, RIGHT)
    keep_code, keep_key = store.create_class(ACTIVITY)
    kept = store.submit(keep_code, store.join(keep_code, "Bob").token, 0, {"v": 2}, RIGHT)
    store.end_class(code, key)
    assert count(store, classes, code=code) == 0
    assert count(store, students) == 1 and count(store, answers) == 1
    for call in (lambda: store.class_state(code), lambda: store.join(code, "Ann"),
                 lambda: store.submit(code, seat.token, 0, {"v": 1}, RIGHT),
                 lambda: store.dashboard(code, key)):
        with pytest.raises(ClassEnded, match="has ended"):
            call()
    assert not store.is_teacher(code, key)
    assert store.dashboard(keep_code, keep_key).answers == (kept,)


def test_purge_deletes_classes_older_than_the_retention(store, cls):
    from ui.classroom.store import RETENTION_DAYS, RETENTION_S

    assert RETENTION_DAYS == 7 and RETENTION_S == 7 * 86_400
    old_code, _ = cls
    store.join(old_code, "Ann")
    new_code, new_key = store.create_class(ACTIVITY)
    with store.engine.begin() as c:
        c.execute(update(classes).where(classes.c.code == old_code)
                  .values(created_at=time.time() - RETENTION_S - 60))
    assert store.purge(RETENTION_S) == 1
    assert count(store, students) == 0
    with pytest.raises(ClassEnded):
        store.class_state(old_code)
    assert store.is_teacher(new_code, new_key)
    with store.engine.begin() as c:  # the tombstone is forgotten after the retention too
        c.execute(update(ended_classes).values(ended_at=time.time() - RETENTION_S - 60))
    assert store.purge(RETENTION_S) == 0
    with pytest.raises(ClassNotFound) as e:
        store.class_state(old_code)
    assert not isinstance(e.value, ClassEnded)


def test_a_process_purges_at_most_once_an_hour(store, monkeypatch):
    calls = []
    monkeypatch.setattr(store, "purge", lambda s: calls.append(s) or 0)
    for _ in range(3):
        store.create_class(ACTIVITY)
    from ui.classroom.store import RETENTION_S

    assert calls == [RETENTION_S]


def test_ids_are_never_given_out_again(store):
    code, key = store.create_class(ACTIVITY)
    seat = store.join(code, "Ann")
    first = store.submit(code, seat.token, 0, {"v": 1}, RIGHT)
    store.end_class(code, key)  # the newest rows go: SQLite would reuse their ids by default
    code2, key2 = store.create_class(Activity("Other", (Screen("choice"),)))
    seat2 = store.join(code2, "Bob")
    second = store.submit(code2, seat2.token, 0, {"v": 2}, RIGHT)
    assert seat2.student_id > seat.student_id and second.id > first.id
    assert store.class_state(code2).activity.title == "Other"
    with pytest.raises(ValueError, match="not one of this class"):
        store.show_answer(code2, key2, first.id)


def test_concurrent_answers_from_two_stores_are_all_kept(store, db_url):
    """Two Stores on one database (as two app processes), 8 threads each answering 15 times:
    every answer committed, none lost, none refused (SQLite: BEGIN IMMEDIATE + busy timeout)."""
    import threading

    code, key = store.create_class(ACTIVITY)
    other = Store(db_url)
    seats = [(s, (store, other)[i % 2]) for i, s in
             enumerate(store.join(code, f"s{i}") for i in range(8))]
    errors, rows = [], []

    def answer(seat, st):
        try:
            for k in range(15):
                rows.append(st.submit(code, seat.token, k % 3, {"value": k}, RIGHT).id)
        except Exception as exc:  # reported below: the assertion names it
            errors.append(repr(exc))

    threads = [threading.Thread(target=answer, args=sa) for sa in seats]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert errors == []
        got = store.dashboard(code, key).answers
        assert sorted(a.id for a in got) == sorted(rows) and len(rows) == 8 * 15
    finally:
        other.engine.dispose()
