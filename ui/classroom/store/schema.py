"""The store's tables (SQLAlchemy Core): what the Alembic migrations in ``migrations/`` build.
tests/test_store_migrations.py checks that the migrated schema equals ``METADATA``.

JSON is kept as text (``model.as_json``) and times as seconds since the epoch (floats), the same
on SQLite and PostgreSQL. Ids are never given out again after a delete (SQLite's
AUTOINCREMENT; PostgreSQL's sequences): a page that remembers an answer's id never finds
another answer under it. Secrets (the teacher's key, a student's token, a link's reveal key)
are kept only as their SHA-256 (hex).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

# named constraints: the same names on both databases, so a later migration can drop them
METADATA = MetaData(naming_convention={
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

CODE_LEN = 6
DIGEST_LEN = 64  # sha256 in hex

classes = Table(
    "classes", METADATA,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LEN), nullable=False, unique=True),
    Column("title", Text, nullable=False),
    Column("activity", Text, nullable=False),  # Activity.to_json()
    Column("key_hash", String(DIGEST_LEN), nullable=False),
    Column("pace", Integer, nullable=True),  # None: every screen open
    Column("paused", Boolean, nullable=False, default=False),
    Column("revealed", Text, nullable=False, default="[]"),  # JSON list of screens
    Column("anonymise", Boolean, nullable=False, default=False),
    Column("shown_answer", Integer, nullable=True),  # an answers.id of this class
    Column("created_at", Float, nullable=False, index=True),  # purge reads it
    sqlite_autoincrement=True,
)

students = Table(
    "students", METADATA,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("nickname", String(64), nullable=False),
    Column("token_hash", String(DIGEST_LEN), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    UniqueConstraint("class_id", "token_hash", name="uq_students_class_token"),
    sqlite_autoincrement=True,
)

answers = Table(
    "answers", METADATA,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"),
           nullable=False),
    Column("screen", Integer, nullable=False),
    Column("answer", Text, nullable=False),  # as_json(answer)
    Column("status", String(16), nullable=False),
    Column("summary", Text, nullable=False),
    Column("message", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_answers_class_id_id", "class_id", "id"),  # the dashboard: a class's, in order
    Index("ix_answers_student_id", "student_id"),
    sqlite_autoincrement=True,
)

# A class's code once the teacher ended it (the class and its rows are gone): a student who
# comes back is told it ended, not that the code is made up, and the code is not given out
# again until purge forgets it. Holds nothing else.
ended_classes = Table(
    "ended_classes", METADATA,
    Column("code", String(CODE_LEN), primary_key=True),
    Column("ended_at", Float, nullable=False, index=True),
)

links = Table(
    "links", METADATA,
    Column("id", String(16), primary_key=True),  # the spec's content address (teacher.spec_id)
    Column("spec", Text, nullable=False),  # its canonical JSON
    Column("key_hash", String(DIGEST_LEN), nullable=True),  # the reveal key's; None: none
    Column("revealed", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
)
