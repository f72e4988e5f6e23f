"""Alembic's environment for the store's migrations. The store runs them itself
(``database.migrate``: ``upgrade head`` on its own connection, under a lock); from a shell,
``python -c "from ui.classroom.store import get_store; get_store()"`` does the same."""

from alembic import context

from ui.classroom.store.database import database_url, make_engine
from ui.classroom.store.schema import METADATA


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=METADATA, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if (conn := context.config.attributes.get("connection")) is not None:
    _run(conn)
else:
    with make_engine(database_url()).connect() as conn:
        _run(conn)
