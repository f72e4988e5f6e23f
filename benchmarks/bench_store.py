"""The live class's store (ui/classroom/store) in one process, a script, not a test: 200
students join one class and each submits an answer; then the reads a live class repeats
(a student's page polls ``class_state``, the teacher's dashboard reads everything). On SQLite
(the default: WAL, every commit synced) and, unless ``--no-postgres``, on PostgreSQL 15 (the
tests' throw-away server, tests/postgres_server.py: fsync off, so its commits are cheaper than
a real server's). Prints median and p95 of each call in ms.

    .venv/bin/python benchmarks/bench_store.py [--students 200] [--no-postgres]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.postgres_server import PostgresServer  # noqa: E402
from ui.classroom.model import Activity, Feedback, Screen  # noqa: E402
from ui.classroom.store import Store  # noqa: E402

FEEDBACK = Feedback("correct", "Right: the margin is 1/‖w‖.", "0.7071")


def timed(fn, n: int) -> list[float]:
    out = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        out.append(1000 * (time.perf_counter() - t))
    return out


def stats(ms: list[float]) -> str:
    p95 = sorted(ms)[max(0, int(0.95 * len(ms)) - 1)]
    return f"median {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms   (n = {len(ms)})"


def measure(url: str, label: str, n: int) -> None:
    s = Store(url)
    code, key = s.create_class(Activity("bench", (Screen("number"),) * 3))
    seats = []
    join = timed(lambda i: seats.append(s.join(code, f"student {i}")), n)
    submit = timed(lambda i: s.submit(code, seats[i].token, 1, {"value": 0.7071}, FEEDBACK), n)
    state = timed(lambda i: s.class_state(code), n)
    board = timed(lambda i: s.dashboard(code, key), 20)
    print(f"== {label}")
    for name, ms in (("join", join), ("submit (returns after COMMIT)", submit),
                     ("class_state (a student's poll)", state),
                     (f"dashboard ({n} students, {n} answers)", board)):
        print(f"{name:40s} {stats(ms)}")
    s.engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        measure(f"sqlite:///{tmp}/bench.db", "SQLite (WAL, synchronous=FULL)", args.students)
    if not args.no_postgres:
        with PostgresServer() as pg:
            measure(pg.new_database("bench"), "PostgreSQL 15 (throw-away server, fsync off)",
                    args.students)


if __name__ == "__main__":
    main()
