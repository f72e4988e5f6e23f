"""The step player's payload read back by the browser's own code, for the tests: node runs
ui/browser/step_player_state.js (prepareRun, alphaAt) on the payload, and the tests compare
its α with Python's (svm_engine.tape, which the page's state_at reads). No Python mirror of the
browser's replay: the JS itself is held to Python's on real runs."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import { readFileSync } from "node:fs";
import { alphaAt, prepareRun } from "./ui/browser/step_player_state.js";
const R = prepareRun(JSON.parse(readFileSync(0, "utf8")));
const out = new Float64Array((R.T + 1) * R.n);
for (let k = 0; k <= R.T; k++) out.set(alphaAt(R, k), k * R.n);
process.stdout.write(Buffer.from(out.buffer).toString("base64"));
"""


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(type(v))


def replay_alpha(payload: Mapping[str, Any]) -> Iterator[np.ndarray]:
    """α after step k for k = 0..T, as the browser's alphaAt (step_player_state.js, run in
    node) gives it from the payload. Yields one fresh array per k."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed (make js)")
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT],
                          input=json.dumps(payload, default=_plain), capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=True)
    a = np.frombuffer(base64.b64decode(done.stdout), dtype="<f8")
    yield from a.reshape(int(payload["T"]) + 1, int(payload["n"])).copy()


def payload_step_bytes(payload: Mapping[str, Any]) -> int:
    """Bytes of the per-step arrays as sent (base64 text), for the compactness check."""
    return sum(len(spec["bdata"]) for group in ("steps", "curve")
               for spec in payload[group].values())
