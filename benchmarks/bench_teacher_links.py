"""Cost of teacher links (a script, not a test): the largest spec a link may hold (2,000
points in float64, a 500-character question) through every step a server takes, beside the
ordinary Playground link of the same points (``ui.shared.state.decode_query``) as the reference
measured in the same run.

Prints the median of ``--repeat`` runs for: the long link (encode, decode), the store (put of
a stored spec, get: ui/classroom/store on a fresh SQLite file in a temporary folder),
``open_link`` into a fresh session, and the QR code of a short link (PNG and SVG); and each as
a ratio to the reference.

    .venv/bin/python benchmarks/bench_teacher_links.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ui.classroom.store import Store  # noqa: E402
from ui.playground import teacher as T  # noqa: E402
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL  # noqa: E402
from ui.shared import links, qr  # noqa: E402
from ui.shared.points import MAX_POINTS


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(MAX_POINTS, 2)) / 3  # not float32-exact: float64 is stored
    y = np.where(rng.random(MAX_POINTS) < 0.5, 1, -1)
    spec = TS.make_spec(X, y, {"kernel": "gaussian", "sigma": 0.5}, title="t" * TS.TITLE_MAX,
                       question="q" * TS.QUESTION_MAX, locked=list(TS.LOCKS),
                       hidden=list(TS.HIDES))  # fmt: skip
    blob = TS.encode_blob(spec)
    plain = links.encode_query(X, y, spec.settings)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/links.db")
        link_id = TL.put_link(spec, store)
        short = f"http://classroom.example:8501/?t={link_id}"
        ref = median_ms(lambda: links.decode_query(plain), args.repeat)
        rows = [
            ("reference: Playground link decode_query", ref),
            ("long link: encode_blob", median_ms(lambda: TS.encode_blob(spec), args.repeat)),
            ("long link: decode_blob", median_ms(lambda: TS.decode_blob(blob), args.repeat)),
            ("store: put (already stored)",
             median_ms(lambda: TL.put_link(spec, store), args.repeat)),
            ("store: get", median_ms(lambda: TL.get_link(link_id, store), args.repeat)),
            ("open_link(t=...) into a new session",
             median_ms(lambda: T.open_link({}, {"t": link_id}, store), args.repeat)),
            ("QR code PNG of the short link", median_ms(lambda: qr.png(short), args.repeat)),
            ("QR code SVG of the short link", median_ms(lambda: qr.svg(short), args.repeat)),
        ]  # fmt: skip
        store.engine.dispose()
    print(f"spec: {MAX_POINTS} points (float64), canonical JSON "
          f"{len(spec.canonical()):,} bytes, long link ts= {len(blob):,} characters")  # fmt: skip
    for name, ms in rows:
        print(f"{name:42s} {ms:8.2f} ms   ×{ms / ref:6.1f} of the reference")


if __name__ == "__main__":
    main()
