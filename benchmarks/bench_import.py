"""The Playground's import (ui/data/io_read.py + ui/data/io_table.py): time to read a file, choose
its
columns and make the points, for files near the limits (2,000 rows, ~1 MB), against the 2 s
budget of anything a user can click. Prints ms per file and the share of the budget.

    .venv/bin/python benchmarks/bench_import.py
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ui.data import io as pio  # noqa: E402

BUDGET_S = 2.0


def files() -> list[tuple[str, str, bytes]]:
    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(0)
    out = []
    df = pd.DataFrame(rng.normal(size=(2000, 4)), columns=list("abcd"))
    df["species"] = rng.choice(["setosa", "versicolor", "virginica"], 2000)
    buf = io.BytesIO()
    df.to_csv(buf, index=False)
    out.append(("iris-like, 2,000 × 5", "a.csv", buf.getvalue()))
    wide = pd.DataFrame(rng.normal(size=(2000, 60)).round(3))
    wide["y"] = rng.integers(0, 2, 2000)
    buf = io.BytesIO()
    wide.to_csv(buf, index=False, sep=";", decimal=",")
    out.append(("2,000 × 61, decimal comma", "w.csv", buf.getvalue()))
    X = rng.normal(size=(2000, 50))
    X[X < 0.5] = 0
    buf = io.BytesIO()
    dump_svmlight_file(X, rng.integers(0, 2, 2000), buf)
    out.append(("svmlight 2,000 × 50", "a.svmlight", buf.getvalue()))
    return out


def main() -> None:
    t = time.perf_counter()
    from sklearn.datasets import load_svmlight_file  # noqa: F401

    print(f"first svmlight import in a process: + {time.perf_counter() - t:.2f} s "
          "(import of sklearn.datasets)")
    for what, name, data in files():
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            table = pio.read_upload(name, data)
            pio.points_from(table, pio.default_choice(table))
            best = min(best, time.perf_counter() - t)
        print(f"{what:28s} {len(data) / 1e6:5.2f} MB  {best * 1000:6.0f} ms  "
              f"{best / BUDGET_S:6.1%} of the {BUDGET_S:.0f} s budget")


if __name__ == "__main__":
    main()
