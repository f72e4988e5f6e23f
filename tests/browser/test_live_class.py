"""A live class in Chromium (issue 26): a teacher starts the chapter's activity; three students
join by its code in their own browser contexts (one a 390 × 844 touch screen), mark D1's
support vectors by clicking or tapping the plot and type the two-point margin, one of them
wrongly each time; each reads the right feedback; the dashboard shows 3 joined, 2 right per
screen and the wrong answers among the common ones; the teacher's pause and reveal reach the
students' open pages; a student's context without the key gets no dashboard and no export."""

from __future__ import annotations

import re

import pytest
from appserver import store_url
from conftest import open_page
from playwright.sync_api import expect
from sqlalchemy import select

from svm_engine import datasets
from ui.classroom import exercises
from ui.classroom.activities import READY
from ui.classroom.store import get_store
from ui.classroom.store.schema import classes, students

pytestmark = pytest.mark.browser

PLOT = ".svmlab-clickplot"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
CHAPTER = READY["Chapter 21: the SVM in eight screens"]
NUMBER, MARK, PREDICT = 1, 3, 4
WATCH_MS = 20_000  # a student's page follows the teacher within its watch (4 s) + a rerun


def start_class(page) -> tuple[str, str]:
    page.goto(page.app_url + "/teach_class")
    page.get_by_role("button", name="Start the class").click()
    heading = page.get_by_text(re.compile(r"Class code: [A-Z2-9]{6}"))
    heading.wait_for(timeout=60_000)
    code = re.search(r"[A-Z2-9]{6}$", heading.inner_text().strip()).group(0)
    key = page.locator("[data-testid=stCode]").filter(
        has_text=re.compile(r"^[\w-]{32}$")).first.inner_text().strip()
    return code, key


def join(pg, code: str, name: str) -> None:
    pg.goto(pg.app_url + f"/join_class?code={code}")
    pg.get_by_role("textbox", name="Nickname").fill(name)
    pg.get_by_role("button", name="Join").click()
    pg.get_by_text(f"You are {name} in class {code}.").wait_for(timeout=60_000)


def open_screen(pg, k: int) -> None:
    title = CHAPTER.screens[k].title
    pg.get_by_text(f"{k + 1}. {title}", exact=True).click()
    pg.get_by_text(f"{k + 1}. {title}", exact=True).wait_for()


def seed_of(code: str, name: str) -> int:
    """The seed of this class's student ``name`` (other tests' classes share the store and
    may have a student of the same name)."""
    with get_store(store_url()).engine.connect() as c:
        return c.execute(select(students.c.seed)
                         .join(classes, classes.c.id == students.c.class_id)
                         .where(students.c.nickname == name, classes.c.code == code)
                         ).scalar_one()


def margin_of(code: str, name: str) -> float:
    """The right answer of this student's own variant of the two-point margin."""
    task = exercises.variant(exercises.validate_screen(CHAPTER.screens[NUMBER]),
                             seed_of(code, name))
    return float(task.data["exact"])


def mark(pg, indices, touch: bool) -> None:
    """Click (or tap) the D1 points of ``indices`` on the plot; the multiselect follows."""
    X = datasets.d1().X
    pg.wait_for_function(f"document.querySelector('{PLOT}') && "
                         f"document.querySelector('{PLOT}')._fullLayout")
    for n, i in enumerate(indices, start=1):
        fx, fy = pg.evaluate(f"""() => {{ const L = document.querySelector('{PLOT}')._fullLayout;
            const [x0, x1] = L.xaxis.range, [y0, y1] = L.yaxis.range;
            return [({X[i, 0]} - x0) / (x1 - x0), (y1 - {X[i, 1]}) / (y1 - y0)]; }}""")
        pg.locator(f"{PLOT} .nsewdrag").first.scroll_into_view_if_needed()
        box = pg.locator(f"{PLOT} .nsewdrag").first.bounding_box()
        px, py = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
        if touch:
            pg.touchscreen.tap(px, py)
        else:
            pg.mouse.click(px, py)
        tags = pg.locator("[data-testid=stMultiSelect] [data-tag]")
        expect(tags).to_have_count(n, timeout=30_000)


def submit(pg) -> None:
    pg.get_by_role("button", name="Submit").click()


def test_a_live_class_teacher_and_three_students(browser, app_url):
    teacher = open_page(browser, app_url, **DESKTOP)
    code, key = start_class(teacher)
    ann = open_page(browser, app_url, **DESKTOP)
    bob = open_page(browser, app_url, **DESKTOP)
    cy = open_page(browser, app_url, **PHONE)
    for pg, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        join(pg, code, name)

    # mark D1's support vectors: Ann and Cy (by touch) right, Bob only x4: wrong, and why
    for pg, idx, touch in ((ann, (0, 3, 12), False), (bob, (3,), False), (cy, (3, 12, 1), True)):
        open_screen(pg, MARK)
        mark(pg, idx, touch)
        submit(pg)
    expect(ann.get_by_text("Saved. Right.")).to_be_visible(timeout=30_000)
    expect(cy.get_by_text("Saved. Right.")).to_be_visible(timeout=30_000)
    expect(bob.get_by_text(re.compile(r"Saved\. Not quite\..*x13"))).to_be_visible(
        timeout=30_000)

    # the two-point margin: each student's own variant; Bob wrong again
    for pg, name, right in ((ann, "Ann", True), (bob, "Bob", False), (cy, "Cy", True)):
        open_screen(pg, NUMBER)
        value = margin_of(code, name) if right else margin_of(code, name) * 2  # 2/‖w‖
        pg.get_by_role("textbox", name=re.compile("^Your answer")).fill(f"{value:.4f}")
        submit(pg)
    for pg in (ann, cy):
        expect(pg.get_by_text("Saved. Right.")).to_be_visible(timeout=30_000)
    expect(bob.get_by_text(re.compile(r"Saved\. Not quite\."))).to_be_visible(timeout=30_000)

    # the dashboard: 3 joined, 2 right on each screen, Bob's answers among the common wrong
    metric = teacher.locator("[data-testid=stMetricValue]")
    expect(metric).to_have_text("3", timeout=WATCH_MS)
    for k in (NUMBER, MARK):
        expect(teacher.get_by_text(re.compile(rf"^{k + 1}\. .*answered 3 · correct 2"))
               ).to_be_visible(timeout=WATCH_MS)
    expect(teacher.locator("[data-testid=stDataFrame]").first).to_be_visible()

    # pause reaches the students' open pages; then predict first, and the teacher's reveal
    teacher.get_by_text("Pause everyone").click()
    for pg in (ann, cy):
        expect(pg.get_by_text("Your teacher paused the class")).to_be_visible(timeout=WATCH_MS)
    teacher.get_by_text("Pause everyone").click()
    expect(ann.get_by_text("Your teacher paused the class")).to_have_count(0, timeout=WATCH_MS)
    open_screen(ann, PREDICT)
    ann.get_by_text(CHAPTER.screens[PREDICT].params["choices"][2]).click()
    submit(ann)
    expect(ann.get_by_text(re.compile("checked when your teacher reveals"))).to_be_visible(
        timeout=30_000)
    revealed = teacher.locator("[data-testid=stMultiSelect]").filter(has_text="Revealed")
    revealed.get_by_role("combobox").click()
    teacher.keyboard.type("5. Predict")
    teacher.keyboard.press("Enter")
    teacher.keyboard.press("Escape")
    expect(revealed.locator("[data-tag]")).to_have_count(1, timeout=30_000)
    expect(ann.get_by_text(re.compile(r"Saved\. Your answer: .*Right\."))).to_be_visible(
        timeout=WATCH_MS)

    # a student's context without the key: no dashboard, no export
    cy.goto(app_url + "/teach_class")
    cy.get_by_text("Open a class you started").click()
    cy.get_by_role("textbox", name="Class code").fill(code)
    cy.get_by_role("textbox", name="Teacher key").fill(key[:-3] + "abc")
    cy.get_by_role("button", name="Open the dashboard").click()
    expect(cy.get_by_text("No class has this code and key.")).to_be_visible(timeout=30_000)
    expect(cy.locator("[data-testid=stMetricValue]")).to_have_count(0)
    expect(cy.get_by_role("button", name=re.compile("Export the answers"))).to_have_count(0)
    for pg in (teacher, ann, bob, cy):
        assert not pg.js_errors
        pg.context.close()
