"""A student's way through a live class (ui/join/flow.py) and the teacher's dashboard in
numbers (ui/teach/summary.py), on a real store (a temporary SQLite file): the messages a
student reads, that "Saved" comes only after the store committed, bad input, pace, pause and
predict-then-reveal; the dashboard's counts, numbers, common wrong answers and marks."""

from __future__ import annotations

import pytest

from ui.classroom import exercises
from ui.classroom.activities import READY, activity_from_screens
from ui.classroom.model import Screen
from ui.classroom.store import Store
from ui.join import flow
from ui.teach import summary as S

CHAPTER = READY["Chapter 21: the SVM in eight screens"]
NUMBER, MARK, PREDICT = 1, 3, 4  # the chapter's screens of these kinds


@pytest.fixture
def lite(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'live.db'}")
    yield s
    s.engine.dispose()


def joined(store, code, name="Ann"):
    ss: dict = {}
    said = flow.join(ss, store, code.lower() + " ", name, 0.0)  # case and spaces forgiven
    assert said.level == "success" and name in said.text
    return ss


def right_number(ss, store, code, screen):
    state = store.class_state(code)
    task = flow.task_for(state, flow.seat_of(ss)[1], screen)
    return task, state


def test_a_made_up_code_an_empty_nickname_and_too_many_joins_get_clear_messages(lite):
    ss: dict = {}
    assert "no class with the code ZZZZZZ" in flow.join(ss, lite, "zzzzzz", "Ann", 0.0).text
    code, _ = lite.create_class(CHAPTER)
    said = flow.join(ss, lite, code, "  ", 1.0)
    assert said.level == "error" and flow.seat_of(ss) is None
    assert flow.join(ss, lite, code, "", 2.0).level == "error"     # the third of 3 at once
    assert "Too many tries" in flow.join(ss, lite, code, "Ann", 3.0).text  # then wait
    assert flow.join(ss, lite, code, "Ann", 23.0).level == "success"  # one every 20 s


def test_an_answer_is_saved_then_checked_and_a_bad_one_is_not_saved(lite):
    code, key = lite.create_class(CHAPTER)
    ss = joined(lite, code)
    task, state = right_number(ss, lite, code, NUMBER)
    said = flow.submit(ss, lite, state, NUMBER, {"value": "<script>alert(1)</script>"}, 1.0)
    assert said.level == "error" and not lite.dashboard(code, key).answers
    said = flow.submit(ss, lite, state, NUMBER, {"value": ""}, 2.0)
    assert said.level == "error" and not lite.dashboard(code, key).answers
    said = flow.submit(ss, lite, state, NUMBER, {"value": "1e9"}, 3.0)
    assert said.level == "warning" and said.text.startswith(flow.SAVED + " Not quite.")
    rows = lite.dashboard(code, key).answers
    assert len(rows) == 1 and rows[0].status == "wrong" and rows[0].answer == {"value": 1e9}
    mine = lite.my_answers(code, flow.seat_of(ss)[1].token)
    again = flow.last_answer_said(mine[NUMBER], task, state, NUMBER)
    assert again.level == "warning" and "Your answer: 1·10⁹" in again.text


def test_the_pace_and_the_pause_hold_answers_back(lite):
    code, key = lite.create_class(CHAPTER)
    ss = joined(lite, code)
    lite.set_pace(code, key, 0)
    state = lite.class_state(code)
    assert list(flow.open_screens(state)) == [0]
    said = flow.submit(ss, lite, state, NUMBER, {"value": "1"}, 1.0)
    assert said.level == "warning" and not lite.dashboard(code, key).answers
    lite.set_pace(code, key, None)
    lite.set_paused(code, key, True)
    said = flow.submit(ss, lite, lite.class_state(code), 0, {"choice": 0}, 2.0)
    assert "paused" in said.text and not lite.dashboard(code, key).answers


def test_predict_first_is_checked_only_after_the_teacher_s_reveal(lite):
    code, key = lite.create_class(CHAPTER)
    ss = joined(lite, code)
    state = lite.class_state(code)
    task = flow.task_for(state, flow.seat_of(ss)[1], PREDICT)
    assert task.reveal_first
    said = flow.submit(ss, lite, state, PREDICT, {"choice": 0}, 1.0)
    assert said.level == "info" and "Right" not in said.text and "Not quite" not in said.text
    row = lite.my_answers(code, flow.seat_of(ss)[1].token)[PREDICT]
    assert flow.last_answer_said(row, task, state, PREDICT).level == "info"
    lite.set_revealed(code, key, PREDICT, True)
    after = flow.last_answer_said(row, task, lite.class_state(code), PREDICT)
    assert after.level == "warning" and "Not quite" in after.text   # the margin stays the same


def test_a_seat_in_the_address_bar_rejoins_the_same_seat(lite):
    code, _ = lite.create_class(CHAPTER)
    ss = joined(lite, code, "Bea")
    token = flow.seat_of(ss)[1].token
    again: dict = {}
    assert flow.rejoin(again, lite, code, token) is None
    assert flow.seat_of(again)[1].nickname == "Bea"
    assert flow.rejoin({}, lite, code, "forged-token").level == "info"


def test_the_dashboard_counts_the_last_attempts_numbers_wrong_answers_and_marks(lite):
    activity = activity_from_screens("t", [
        Screen("number", {"quantity": "margin", "dataset": "two_point"}, "margin"),
        Screen("mark", {"what": "sv", "dataset": "D1"}, "mark")])
    code, key = lite.create_class(activity)
    people = [joined(lite, code, n) for n in ("A", "B", "C", "D")]
    state = lite.class_state(code)
    flow.submit(people[0], lite, state, 0, {"value": "0.5"}, 1.0)
    flow.submit(people[0], lite, state, 0, {"value": "0.25"}, 2.0)     # a second attempt
    flow.submit(people[1], lite, state, 0, {"value": "0.5"}, 1.0)
    flow.submit(people[2], lite, state, 0, {"value": "0.5"}, 1.0)
    flow.submit(people[0], lite, state, 1, {"points": [0, 3, 12]}, 3.0)
    flow.submit(people[1], lite, state, 1, {"points": [3, 12]}, 3.0)
    d = lite.dashboard(code, key)
    n_points = {1: len(exercises.variant(activity.screens[1], 0).X)}
    s0, s1 = S.summarise(d, n_points)
    assert (s0.answered, s0.working) == (3, 1) and sorted(s0.numbers) == [0.25, 0.5, 0.5]
    wrong = dict(s0.common_wrong)
    assert s0.answered - s0.correct == sum(wrong.values())
    assert s1.answered == 2 and s1.marks[3] == 2 and s1.marks[12] == 2 and s1.marks[0] == 1
    assert s1.correct + sum(n for _, n in s1.common_wrong) == 2
    assert S.progress_line(s0) == (f"answered 3 · correct {s0.correct} · still working 1")
    assert S.here_now(d, max(s.last_seen for s in d.students) + 1) == 4
    assert S.here_now(d, max(s.last_seen for s in d.students) + S.HERE_S + 1) == 0
    lite.set_anonymise(code, key, True)
    names = S.display_names(lite.dashboard(code, key))
    assert sorted(names.values()) == ["Student 1", "Student 2", "Student 3", "Student 4"]
