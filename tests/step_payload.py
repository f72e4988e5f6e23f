"""The step player's payload read back as the browser reads it (ui/browser/step_player.js),
for the tests: the oracle they compare the server's run with. Not the app's code: the
browser does this itself."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ui.step_through.player import decode


def replay_alpha(payload: Mapping[str, Any]) -> Iterator[np.ndarray]:
    """α after step k for k = 0..T, read from the payload the way step_player.js does
    (assign αᵢ, then αⱼ, of each step in turn). Yields one fresh array per k."""
    a = decode(payload["alpha0"]).astype(float).copy()
    steps = payload["steps"]
    I, J, new = decode(steps["i"]), decode(steps["j"]), decode(steps["a_new"])
    yield a.copy()
    for t in range(int(payload["T"])):
        a[int(I[t])] = new[2 * t]
        a[int(J[t])] = new[2 * t + 1]
        yield a.copy()


def payload_step_bytes(payload: Mapping[str, Any]) -> int:
    """Bytes of the per-step arrays as sent (base64 text), for the compactness check."""
    return sum(len(spec["bdata"]) for group in ("steps", "curve")
               for spec in payload[group].values())
