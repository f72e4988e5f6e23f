"""The live class: classes, students, answers, ended class codes and teacher links.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("activity", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("pace", sa.Integer(), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("revealed", sa.Text(), nullable=False),
        sa.Column("anonymise", sa.Boolean(), nullable=False),
        sa.Column("shown_answer", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_classes"),
        sa.UniqueConstraint("code", name="uq_classes_code"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_classes_created_at", "classes", ["created_at"])
    op.create_table(
        "students",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], ondelete="CASCADE",
                                name="fk_students_class_id_classes"),
        sa.PrimaryKeyConstraint("id", name="pk_students"),
        sa.UniqueConstraint("class_id", "token_hash", name="uq_students_class_token"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=False),
        sa.Column("screen", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], ondelete="CASCADE",
                                name="fk_answers_class_id_classes"),
        sa.ForeignKeyConstraint(["student_id"], ["students.id"], ondelete="CASCADE",
                                name="fk_answers_student_id_students"),
        sa.PrimaryKeyConstraint("id", name="pk_answers"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_answers_class_id_id", "answers", ["class_id", "id"])
    op.create_index("ix_answers_student_id", "answers", ["student_id"])
    op.create_table(
        "ended_classes",
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_ended_classes"),
    )
    op.create_index("ix_ended_classes_ended_at", "ended_classes", ["ended_at"])
    op.create_table(
        "links",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_links"),
    )


def downgrade() -> None:
    for table in ("links", "ended_classes", "answers", "students", "classes"):
        op.drop_table(table)
