"""`make bench`: run every benchmarks/bench_*.py and write what each printed, with the
machine and commit it ran on, to benchmarks/RESULTS.md (the dated figures live there and in
docs/benchmarks.md, never in source files). `--only NAME` runs the scripts whose name holds
NAME; a script that fails or passes its time limit is recorded as such, and the rest run."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT_S = 1800          # one script's wall-clock limit: a hung benchmark must not hang the run


def _machine() -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True,
                            capture_output=True).stdout.strip() or "unknown"
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    return (f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC · commit {commit} · "
            f"{os.cpu_count()} cores · {platform.python_implementation()} "
            f"{platform.python_version()} · load {load} at the start")


def _run(script: Path) -> str:
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, text=True,
                              capture_output=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return f"{out}\n(stopped at the {LIMIT_S} s limit)"
    if done.returncode == 0:
        return done.stdout
    return f"{done.stdout}\n(exit status {done.returncode})\n{done.stderr[-2000:]}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default="", help="run the scripts whose name holds this")
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    args = ap.parse_args(argv)
    scripts = sorted(p for p in HERE.glob("bench_*.py") if args.only in p.name)
    parts = ["# Benchmark results", "", f"Written by `make bench` ({_machine()}).",
             "Each script prints ratios against a reference measured in the same run.",
             f"Scripts run: {', '.join(p.name for p in scripts)}"
             + (f" (`--only {args.only}`)." if args.only else "."), ""]
    for script in scripts:
        print(f"== {script.name}", flush=True)
        text = _run(script)
        print(text, flush=True)
        parts += [f"## {script.name}", "", "```", text.rstrip(), "```", ""]
    args.out.write_text("\n".join(parts))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
