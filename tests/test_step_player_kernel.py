"""The step player's kernel (ui/browser/step_player_state.js, `makeKernel`) is the engine's to
the last bit: node evaluates it on points, near the origin and far from it, over the
Gaussian's whole range (exp down to 0), and each value's 64 bits must be those of
svm_engine's kernel K(X, Z) (the compiled kernel code the solvers use). So the browser's
replay of a run shades with the server's kernel values; only its sums (u, g, kept up to date
step by step) are in another order."""

import json
import math
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import svm_engine as se

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import { readFileSync } from "node:fs";
import { makeKernel } from "./ui/browser/step_player_state.js";
const job = JSON.parse(readFileSync(0, "utf8"));
const view = new DataView(new ArrayBuffer(8));
const hex = (v) => { view.setFloat64(0, v); return view.getBigUint64(0).toString(16); };
const out = job.kernels.map((spec) => {
  const K = makeKernel(spec);
  return job.A.map(([ax, ay]) => job.B.map(([bx, by]) => hex(K(ax, ay, bx, by))));
});
process.stdout.write(JSON.stringify(out));
"""

KERNELS = [se.Linear(), se.Polynomial(2, 0.0), se.Polynomial(3, 1.0), se.Polynomial(5, 0.5),
           se.Gaussian(0.4), se.Gaussian(3.0), se.Gaussian(1 / math.sqrt(2)), se.Gaussian(0.05)]


def spec(k) -> dict:
    """As ui/step_through/player.py's kernel_spec sends it."""
    from ui.step_through.player import kernel_spec

    return kernel_spec(k)


def from_hex(h: str) -> float:
    return struct.unpack(">d", bytes.fromhex(h.zfill(16)))[0]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (make js)")
@pytest.mark.parametrize("offset", [0.0, 1e3, 1e7])
def test_the_browser_kernel_gives_the_engines_bits(offset):
    rng = np.random.default_rng(7)
    A = rng.normal(size=(40, 2)) * 3 + offset
    # B: some of A (K(x, x)), near points, and points whose distance takes the Gaussian's
    # exp over its range, down to below −708 (0)
    far = np.array([[0.0, r] for r in (1.0, 5.0, 12.0, 30.0, 60.0, 150.0, 400.0)]) + A[0]
    B = np.vstack([A[:3], rng.normal(size=(10, 2)) * 3 + offset, far])
    job = {"kernels": [spec(k) for k in KERNELS], "A": A.tolist(), "B": B.tolist()}
    done = subprocess.run(["node", "--input-type=module", "-e", SCRIPT], input=json.dumps(job),
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    got = json.loads(done.stdout)
    for k, values in zip(KERNELS, got, strict=True):
        js = np.array([[from_hex(h) for h in row] for row in values])
        want = k(A, B)
        if k.name == "gaussian":
            assert (want == 0.0).any() and (want == 1.0).any()     # the whole range is met
        bad = np.argwhere(js.view(np.int64) != want.view(np.int64))
        assert len(bad) == 0, (k.label, [(js[i, j], want[i, j]) for i, j in bad[:5]])
