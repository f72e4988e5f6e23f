"""The live class's store: ``Store(url)`` (use ``get_store``), every method one transaction.

A student's code lets them join and answer; every teacher call checks the teacher's key
(``NotTeacher``). ``submit`` returns only after its transaction has committed, so an answer
acknowledged to a student is in the database (on disk, for SQLite: ``database``).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ui.classroom.model import (
    NICKNAME_MAX,
    SCREENS_MAX,
    TITLE_MAX,
    Activity,
    AnswerRow,
    ClassState,
    Dashboard,
    Feedback,
    Seat,
    ShownAnswer,
    StudentRow,
)
from ui.classroom.store import export
from ui.classroom.store.database import make_engine, migrate
from ui.classroom.store.errors import ClassEnded, ClassNotFound, NotOpen, NotStudent, NotTeacher
from ui.classroom.store.links import LinkTable
from ui.classroom.store.schema import answers, classes, ended_classes, students
from ui.classroom.store.secrets_text import (
    answer_json,
    clean_nickname,
    digest,
    new_code,
    new_secret,
    normal_code,
    same_secret,
)

RETENTION_DAYS = 7  # a class and its answers are deleted this long after it started
RETENTION_S = RETENTION_DAYS * 86_400
PURGE_EVERY_S = 3_600  # each process purges at most this often (on a class's start)
# a student's last_seen is written at most this often: 200 open pages are 10 writes a second
# (at 5 s they were 40, and held answers' commits back: bench_live_class.py)
TOUCH_EVERY_S = 20.0
STUDENTS_MAX = 500  # seats in one class
ATTEMPTS_MAX = 400  # answers one student may send in one class
ACTIVITY_MAX = 2_000_000  # characters of an activity's JSON
TEXT_MAX = 4_000  # characters of a feedback's message or summary kept
STATUSES = ("correct", "wrong", "invalid")


def _shown_code(code: object) -> str:
    return "".join(ch for ch in str(code)[:12] if ch.isprintable()).strip()


class Store(LinkTable):
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)
        self._lock = threading.Lock()
        self._touched: dict[tuple[str, str], float] = {}
        self._activities: dict[tuple[int, str], Activity] = {}  # (class id, code) → activity
        self._last_purge = 0.0

    # --------------------------------------------------------------- transactions

    @contextlib.contextmanager
    def _write(self):
        """A transaction that writes (SQLite: BEGIN IMMEDIATE); committed on leaving."""
        with self.engine.connect() as c:
            c.execution_options(write=True)
            with c.begin():
                yield c

    @contextlib.contextmanager
    def _read(self):
        with self.engine.connect() as c, c.begin():
            yield c

    def _class(self, c, code: str):
        norm = normal_code(code)
        row = c.execute(select(*_CLASS_COLUMNS).where(classes.c.code == norm)).first() \
            if norm else None
        if row is not None:
            return row
        if norm and c.execute(select(ended_classes.c.code)
                              .where(ended_classes.c.code == norm)).first():
            raise ClassEnded(f"The class {norm} has ended: the teacher ended it, and its "
                             "answers are deleted.")
        if norm:
            raise ClassNotFound(f"No class has the code {norm}. Check the code on the "
                                "teacher's screen.")
        raise ClassNotFound(f"“{_shown_code(code)}” is not a class code: a class code has six "
                            "letters and digits (no 0, O, 1, I or L).")

    def _teacher(self, c, code: str, key: str):
        row = self._class(c, code)
        if not same_secret(key, row.key_hash):
            raise NotTeacher(f"That is not the teacher's key of class {row.code}: only the "
                             "teacher who started it may do this.")
        return row

    def _student(self, c, class_id: int, token: str | None):
        if not isinstance(token, str) or not token:
            return None
        s = c.execute(select(students).where(students.c.class_id == class_id,
                                             students.c.token_hash == digest(token))).first()
        return s if s is not None and same_secret(token, s.token_hash) else None

    def _seat(self, c, row, token: str | None):
        """The student row of this token in this class; NotStudent otherwise."""
        s = self._student(c, row.id, token)
        if s is None:
            raise NotStudent("You are not in this class any more: join it again with its code.")
        return s

    def _activity(self, c, row) -> Activity:
        """The class's activity, read and parsed once per process (it never changes): the
        students' pages read the class's state every second or two."""
        a = self._activities.get((row.id, row.code))
        if a is None:
            text = c.execute(select(classes.c.activity).where(classes.c.id == row.id)).scalar_one()
            a = Activity.from_json(text)
            with self._lock:
                if len(self._activities) > 1_000:
                    self._activities.clear()
                self._activities[row.id, row.code] = a
        return a

    def _n_screens(self, c, row) -> int:
        return len(self._activity(c, row).screens)

    # ---------------------------------------------------------------- everyone

    def create_class(self, activity: Activity) -> tuple[str, str]:
        """A new class: (its code, the teacher's key). The key is shown only to the teacher;
        the store keeps its SHA-256."""
        if not isinstance(activity, Activity) or not activity.screens:
            raise ValueError("An activity needs at least one screen.")
        if len(activity.screens) > SCREENS_MAX:
            raise ValueError(f"An activity has at most {SCREENS_MAX} screens.")
        title = " ".join(str(activity.title).split())[:TITLE_MAX]
        text = activity.to_json()
        if len(text) > ACTIVITY_MAX:
            raise ValueError("The activity is too large to store (its pictures hold too "
                             "many points).")
        self.maybe_purge()
        key = new_secret()
        for _ in range(50):
            code = new_code()
            try:
                with self._write() as c:
                    if c.execute(select(ended_classes.c.code)
                                 .where(ended_classes.c.code == code)).first():
                        continue
                    c.execute(insert(classes).values(
                        code=code, title=title, activity=text, key_hash=digest(key),
                        pace=None, paused=False, revealed="[]", anonymise=False,
                        shown_answer=None, created_at=time.time()))
            except IntegrityError:  # another class took the code meanwhile
                continue
            return code, key
        raise RuntimeError("no free class code was found; try again")

    def class_state(self, code: str) -> ClassState:
        """What anyone with the code may know. ClassNotFound / ClassEnded."""
        with self._read() as c:
            return self._state(c, self._class(c, code))

    def _state(self, c, row) -> ClassState:
        shown = None
        if row.shown_answer is not None:
            a = c.execute(select(answers, students.c.nickname)
                          .join(students, students.c.id == answers.c.student_id)
                          .where(answers.c.id == row.shown_answer,
                                 answers.c.class_id == row.id)).first()
            if a is not None:
                name = a.nickname
                if row.anonymise:
                    rank = c.execute(select(func.count()).select_from(students).where(
                        students.c.class_id == row.id, students.c.id <= a.student_id)
                    ).scalar_one()
                    name = f"Student {rank}"
                shown = ShownAnswer(a.screen, name, json.loads(a.answer), a.summary)
        return ClassState(code=row.code, title=row.title,
                          activity=self._activity(c, row), pace=row.pace,
                          paused=bool(row.paused), revealed=frozenset(json.loads(row.revealed)),
                          anonymise=bool(row.anonymise), shown=shown,
                          created_at=row.created_at)  # fmt: skip

    def is_teacher(self, code: str, key: str) -> bool:
        try:
            with self._read() as c:
                self._teacher(c, code, key)
        except (ClassNotFound, NotTeacher):
            return False
        return True

    # ---------------------------------------------------------------- students

    def join(self, code: str, nickname: str, token: str | None = None) -> Seat:
        """A seat in the class; with the token of a seat of this class, that seat again
        (its nickname kept). ValueError for an empty or too long nickname, a full class."""
        with self._write() as c:
            row = self._class(c, code)
            s = self._student(c, row.id, token)
            now = time.time()
            if s is not None:
                c.execute(update(students).where(students.c.id == s.id).values(last_seen=now))
                return Seat(s.id, token, s.nickname, s.seed)  # type: ignore[arg-type]
            nick = clean_nickname(nickname)
            taken = set(c.execute(select(students.c.nickname)
                                  .where(students.c.class_id == row.id)).scalars())
            if len(taken) >= STUDENTS_MAX:
                raise ValueError(f"This class is full ({STUDENTS_MAX} students).")
            nick = _free_name(nick, taken)
            token, seed = new_secret(), secrets.randbelow(2**31 - 2) + 1  # seed 0: the book's
            sid = c.execute(insert(students).values(
                class_id=row.id, nickname=nick, token_hash=digest(token), seed=seed,
                joined_at=now, last_seen=now)).inserted_primary_key[0]
        return Seat(sid, token, nick, seed)

    def submit(self, code: str, token: str, screen: int, answer: dict,
               feedback: Feedback) -> AnswerRow:  # fmt: skip
        """Keep one answer and its check; returns once it is committed. ValueError (a message
        for the student) for a bad answer, NotOpen for a screen not open or a paused class,
        NotStudent for a token that is not a seat of this class."""
        text = answer_json(answer)
        if not isinstance(feedback, Feedback) or feedback.status not in STATUSES:
            raise ValueError("The answer's check is missing.")
        summary, message = feedback.summary[:TEXT_MAX], feedback.message[:TEXT_MAX]
        with self._write() as c:
            row = self._class(c, code)
            s = self._seat(c, row, token)
            if not isinstance(screen, int) or not 0 <= screen < self._n_screens(c, row):
                raise ValueError("That screen is not part of this class.")
            if row.paused:
                raise NotOpen("Your teacher paused the class: wait, then submit again.")
            if row.pace is not None and screen > row.pace:
                raise NotOpen("Your teacher has not opened this screen yet.")
            n = c.execute(select(func.count()).select_from(answers)
                          .where(answers.c.student_id == s.id)).scalar_one()
            if n >= ATTEMPTS_MAX:
                raise ValueError(f"You have sent {ATTEMPTS_MAX} answers in this class: that "
                                 "is the most it keeps.")
            now = time.time()
            aid = c.execute(insert(answers).values(
                class_id=row.id, student_id=s.id, screen=screen, answer=text,
                status=feedback.status, summary=summary, message=message, at=now,
            )).inserted_primary_key[0]
            c.execute(update(students).where(students.c.id == s.id).values(last_seen=now))
        return AnswerRow(aid, s.id, screen, json.loads(text), feedback.status, summary,
                         message, now)  # fmt: skip

    def my_answers(self, code: str, token: str) -> dict[int, AnswerRow]:
        """The student's latest answer to each screen (NotStudent for a foreign token)."""
        with self._read() as c:
            s = self._seat(c, self._class(c, code), token)
            rows = c.execute(select(answers).where(answers.c.student_id == s.id)
                             .order_by(answers.c.id)).all()
        return {a.screen: _answer_row(a) for a in rows}

    def touch(self, code: str, token: str) -> None:
        """The student is still here (written at most every TOUCH_EVERY_S per seat)."""
        if not isinstance(token, str) or not token:
            return
        now, k = time.monotonic(), (normal_code(code), digest(token))
        with self._lock:
            if now - self._touched.get(k, -TOUCH_EVERY_S) < TOUCH_EVERY_S:
                return
            if len(self._touched) > 20_000:
                self._touched.clear()
            self._touched[k] = now
        cls = select(classes.c.id).where(classes.c.code == k[0]).scalar_subquery()
        with self._write() as c:
            c.execute(update(students).where(students.c.class_id == cls,
                                             students.c.token_hash == k[1])
                      .values(last_seen=time.time()))

    # ---------------------------------------------------------------- the teacher

    def _set(self, code: str, key: str, **values) -> None:
        with self._write() as c:
            row = self._teacher(c, code, key)
            c.execute(update(classes).where(classes.c.id == row.id).values(**values))

    def set_pace(self, code: str, key: str, upto: int | None) -> None:
        """Students may open screens 0 … upto (None: all)."""
        with self._write() as c:
            row = self._teacher(c, code, key)
            if upto is not None and (not isinstance(upto, int)
                                     or not 0 <= upto < self._n_screens(c, row)):
                raise ValueError("The pace must be one of the activity's screens.")
            c.execute(update(classes).where(classes.c.id == row.id).values(pace=upto))

    def set_paused(self, code: str, key: str, paused: bool) -> None:
        self._set(code, key, paused=bool(paused))

    def set_revealed(self, code: str, key: str, screen: int, revealed: bool) -> None:
        """End (or bring back) "predict first" on one screen for everyone."""
        with self._write() as c:
            row = self._teacher(c, code, key)
            if not isinstance(screen, int) or not 0 <= screen < self._n_screens(c, row):
                raise ValueError("That screen is not part of this class.")
            now = set(json.loads(row.revealed))
            now = now | {screen} if revealed else now - {screen}
            c.execute(update(classes).where(classes.c.id == row.id)
                      .values(revealed=json.dumps(sorted(now))))

    def set_anonymise(self, code: str, key: str, on: bool) -> None:
        self._set(code, key, anonymise=bool(on))

    def show_answer(self, code: str, key: str, answer_id: int | None) -> None:
        """Show one answer of this class to everyone (None: show none)."""
        with self._write() as c:
            row = self._teacher(c, code, key)
            if answer_id is not None and c.execute(select(answers.c.id).where(
                    answers.c.id == answer_id, answers.c.class_id == row.id)).first() is None:
                raise ValueError("That answer is not one of this class.")
            c.execute(update(classes).where(classes.c.id == row.id)
                      .values(shown_answer=answer_id))

    def dashboard(self, code: str, key: str) -> Dashboard:
        """The class's state, its students and every answer, oldest first. Answers are read
        before students, so every answer's student is in the list."""
        with self._read() as c:
            row = self._teacher(c, code, key)
            rows = c.execute(select(answers).where(answers.c.class_id == row.id)
                             .order_by(answers.c.id)).all()
            seats = c.execute(select(students).where(students.c.class_id == row.id)
                              .order_by(students.c.id)).all()
            state = self._state(c, row)
        return Dashboard(state, tuple(StudentRow(s.id, s.nickname, s.joined_at, s.last_seen)
                                      for s in seats),
                         tuple(_answer_row(a) for a in rows))  # fmt: skip

    def export_csv(self, code: str, key: str) -> str:
        return export.to_csv(self.dashboard(code, key))

    def end_class(self, code: str, key: str) -> None:
        """Delete the class, its students and their answers; its code then says it ended."""
        with self._write() as c:
            row = self._teacher(c, code, key)
            _delete_classes(c, [row.id])
            c.execute(insert(ended_classes).values(code=row.code, ended_at=time.time()))
        self._activities.pop((row.id, row.code), None)

    def purge(self, older_than_s: float) -> int:
        """Delete the classes started more than ``older_than_s`` ago (their codes say they
        ended, for as long again); returns how many."""
        now = time.time()
        cutoff = now - float(older_than_s)
        with self._write() as c:
            old = c.execute(select(classes.c.id, classes.c.code)
                            .where(classes.c.created_at < cutoff)).all()
            c.execute(delete(ended_classes).where(ended_classes.c.ended_at < cutoff))
            if old:
                _delete_classes(c, [r.id for r in old])
                c.execute(insert(ended_classes),
                          [{"code": r.code, "ended_at": now} for r in old])
        return len(old)

    def maybe_purge(self) -> None:
        """``purge(RETENTION_S)`` when this process has not purged for PURGE_EVERY_S."""
        with self._lock:
            if time.monotonic() - self._last_purge < PURGE_EVERY_S and self._last_purge:
                return
            self._last_purge = time.monotonic()
        self.purge(RETENTION_S)


# a class's row without its activity (``Store._activity`` reads that once)
_CLASS_COLUMNS = [col for col in classes.c if col.name != "activity"]


def _delete_classes(c, ids: list[int]) -> None:
    # explicit, not only ON DELETE CASCADE: the rows go whatever the connection's settings
    c.execute(delete(answers).where(answers.c.class_id.in_(ids)))
    c.execute(delete(students).where(students.c.class_id.in_(ids)))
    c.execute(delete(classes).where(classes.c.id.in_(ids)))


def _free_name(nick: str, taken: set[str]) -> str:
    """``nick``, or "nick 2", "nick 3"… when another student has it (cut to fit)."""
    if nick not in taken:
        return nick
    for i in range(2, STUDENTS_MAX + 2):
        tail = f" {i}"
        cand = nick[:NICKNAME_MAX - len(tail)].rstrip() + tail
        if cand not in taken:
            return cand
    return nick


def _answer_row(a) -> AnswerRow:
    return AnswerRow(a.id, a.student_id, a.screen, json.loads(a.answer), a.status, a.summary,
                     a.message, a.at)  # fmt: skip
