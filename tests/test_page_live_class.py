"""The Join a class and Teach a class pages under AppTest (issue 26): a teacher starts a
class; students join by code, answer a number and mark support vectors, read the feedback;
the dashboard counts them; pause and reveal reach the students; a session without the
teacher key has no dashboard; bad input keeps the class and the student's text."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.classroom.store import get_store
from ui.join import flow
from ui.teach.page_state import Teach

PAGES = Path(__file__).resolve().parents[1] / "pages"
JOIN, TEACH = str(PAGES / "10_join_class.py"), str(PAGES / "11_teach_class.py")
CHAPTER = "Chapter 21: the SVM in eight screens"
NUMBER, MARK, PREDICT = 1, 3, 4


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def teacher() -> tuple[AppTest, str, str]:
    t = ok(AppTest.from_file(TEACH, default_timeout=120).run())
    t.selectbox(key="teach.activity").select(CHAPTER).run()
    ok(t.button(key="teach.start").click().run())
    code, key = Teach.of(t.session_state).taught
    assert any(f"Class code: `{code}`" in m.value for m in t.markdown)
    assert any(key in c.value for c in t.code)                  # the key, shown once
    return t, code, key


def student(code: str, name: str) -> AppTest:
    j = AppTest.from_file(JOIN, default_timeout=120)
    j.query_params["code"] = code
    ok(j.run())
    assert j.text_input(key="join.code").value == code          # prefilled from the link
    j.text_input(key="join.nick").input(name)
    ok(j.button(key="FormSubmitter:join.form-Join").click().run())
    assert j.query_params["seat"]                                # rejoin from the address bar
    return j


def answer(j: AppTest, screen: int, **widgets) -> AppTest:
    ok(j.radio(key="join.screen").set_value(screen).run())
    for key, value in widgets.items():
        widget = j.text_input(key=key) if key.startswith("join.value") else j.multiselect(key=key)
        widget.set_value(value)
    return ok(j.button(key=f"FormSubmitter:join.answer.{screen}-Submit").click().run())


def said(j: AppTest) -> str:
    return " ".join(e.value for e in (*j.success, *j.warning, *j.info, *j.error))


def test_a_class_from_start_to_dashboard_with_feedback_that_says_why():
    t, code, key = teacher()
    ann, bob, cy = (student(code, n) for n in ("Ann", "Bob", "Cy"))
    seeds = {flow.seat_of(j.session_state)[1].seed for j in (ann, bob, cy)}
    assert len(seeds) == 3 and 0 not in seeds          # each their own variant; 0: the book's
    answer(ann, MARK, **{"join.marked.3": [3, 12, 0]})             # x4, x13, x1: D1's SVs
    assert "Saved. Right." in said(ann) and ann.success
    answer(bob, MARK, **{"join.marked.3": [3]})                    # x4 only: wrong, and why
    assert "Saved. Not quite." in said(bob) and "x13" in said(bob)
    answer(cy, NUMBER, **{"join.value.1": "abc"})                  # not a number: not saved
    assert cy.error and "Saved" not in said(cy)
    assert cy.text_input(key="join.value.1").value == "abc"        # the text stays
    ok(t.run())
    assert [m.value for m in t.metric] == ["3"]
    labels = [x.label for x in t.expander]
    assert any(lab.startswith("4. ") and "answered 2 · correct 1" in lab for lab in labels)
    wrong = [df.value for df in t.dataframe if "answer" in df.value.columns]
    assert wrong and "x4" in wrong[0]["answer"].iloc[0]


def test_pause_and_reveal_reach_the_students():
    t, code, key = teacher()
    ann = student(code, "Ann")
    answer(ann, PREDICT, **{})
    ok(t.toggle(key="teach.paused").set_value(True).run())
    ok(ann.run())
    assert any("paused" in w.value for w in ann.warning)
    ok(t.toggle(key="teach.paused").set_value(False).run())
    ok(ann.radio(key="join.screen").set_value(PREDICT).run())
    ann.radio(key=f"join.choice.{PREDICT}").set_value(2)
    ok(ann.button(key=f"FormSubmitter:join.answer.{PREDICT}-Submit").click().run())
    assert "checked when your teacher reveals" in said(ann)
    ok(t.multiselect(key="teach.revealed").set_value([PREDICT]).run())
    ann = ok(student_reload(ann, code))
    ok(ann.radio(key="join.screen").set_value(PREDICT).run())
    assert "Saved. Your answer" in said(ann) and "Right." in said(ann)


def student_reload(j: AppTest, code: str) -> AppTest:
    """The same student after a reload: a new session with the address bar's seat."""
    again = AppTest.from_file(JOIN, default_timeout=120)
    again.query_params.update({"code": code, "seat": j.query_params["seat"]})
    return again.run()


def test_without_the_key_there_is_no_dashboard_and_a_made_up_code_says_so():
    _, code, key = teacher()
    t = ok(AppTest.from_file(TEACH, default_timeout=120).run())
    assert not t.metric                                              # no class: no dashboard
    t.text_input(key="teach.open_code").input(code)
    t.text_input(key="teach.open_key").input(key[:-2] + "xx")       # a forged key
    ok(t.button(key="FormSubmitter:teach.open-Open the dashboard").click().run())
    assert any("No class has this code and key" in e.value for e in t.error) and not t.metric
    j = AppTest.from_file(JOIN, default_timeout=120).run()
    j.text_input(key="join.code").input("QQQQQQ")
    j.text_input(key="join.nick").input("<b>Eve</b>")
    ok(j.button(key="FormSubmitter:join.form-Join").click().run())
    assert any("no class with the code QQQQQQ" in e.value for e in j.error)
    assert get_store().class_state(code).code == code                # nothing of it lost


def test_a_database_error_while_reading_answers_is_a_message_not_a_traceback(monkeypatch):
    _, code, _ = teacher()
    ann = student(code, "Ann")

    def down(*_args, **_kw):
        raise OSError("disk I/O error")

    from ui.classroom.store import Store
    monkeypatch.setattr(Store, "my_answers", down)
    ok(ann.run())                        # the screen is drawn without the saved answer
    assert ann.radio(key="join.screen").value == 0
