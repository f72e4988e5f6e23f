"""The live class, without the pages: a shared layer of plain Python (no streamlit).

- ``model``: the data types the exercises, the store and the two pages share (an activity of
  screens, a student's task, feedback, the class's state, the dashboard's rows);
- ``exercises``: each exercise kind's seeded variants, the parsing of a student's answer and
  its check by the engine, with feedback that says why; ``activities``: the ready activities;
- ``store``: classes, students, answers and teacher links in a database (SQLAlchemy: an SQLite
  file by default, PostgreSQL across machines), its schema by Alembic migrations;
- ``ratelimit``: joins and answers per session.
"""
