"""α after any step of a recorded run, stored compactly (numpy only): the one replay of a
trace in Python (`solvers.smo.replay`, the Step-through page's run, the classroom's steps).

An ``AlphaTape`` holds α at every ``CHECKPOINT_EVERY``-th step plus the entries each step
changed, so any k is reached by replaying < ``CHECKPOINT_EVERY`` recorded steps. Replaying
assigns the recorded numbers, so going back and forth gives identical floats, and the last
step gives the solver's α exactly. The browser's replay (ui/browser/step_player_state.js alphaAt)
assigns the same numbers from the player's payload (tests/test_step_player.py holds the two
together).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: α is stored in full every CHECKPOINT_EVERY steps; steps in between are replayed.
CHECKPOINT_EVERY = 64

@dataclass(frozen=True, eq=False)
class AlphaTape:
    """α after every step, stored as checkpoints plus each step's changed entries.

    ``ptr[t-1]:ptr[t]`` indexes the (``idx``, ``val``) pairs written by step t (1 ≤ t ≤ T);
    ``checkpoints[c]`` is α after step c·every.
    """

    alpha0: np.ndarray
    every: int
    checkpoints: np.ndarray
    ptr: np.ndarray
    idx: np.ndarray
    val: np.ndarray

    @property
    def n_steps(self) -> int:
        return len(self.ptr) - 1

    def changed_at(self, k: int) -> np.ndarray:
        """Indices written by step k (empty for k = 0)."""
        if k <= 0:
            return np.zeros(0, dtype=np.int64)
        return self.idx[self.ptr[k - 1] : self.ptr[k]].astype(np.int64)

    def alpha_at(self, k: int) -> np.ndarray:
        """α after step k (a fresh copy)."""
        k = int(min(max(k, 0), self.n_steps))
        c = k // self.every
        a = self.checkpoints[c].copy()
        lo, hi = self.ptr[c * self.every], self.ptr[k]
        if hi > lo:
            # apply in recorded order: a later write to the same entry wins
            for i, v in zip(self.idx[lo:hi], self.val[lo:hi]):
                a[i] = v
        return a

    @property
    def nbytes(self) -> int:
        return sum(x.nbytes for x in (self.alpha0, self.checkpoints, self.ptr, self.idx, self.val))


def make_tape(alpha0: np.ndarray, changes, every: int = CHECKPOINT_EVERY) -> AlphaTape:
    """Build a tape from α₀ and an iterable of (indices, new values), one per step, applied in
    order (a later write to the same entry wins)."""
    a = np.array(alpha0, dtype=float)
    checkpoints = [a.copy()]
    ptr = [0]
    idx_parts, val_parts = [], []
    t = 0
    for ii, vv in changes:
        ii = np.asarray(ii, dtype=np.int32).reshape(-1)
        vv = np.asarray(vv, dtype=float).reshape(-1)
        for i, v in zip(ii, vv):
            a[i] = v
        idx_parts.append(ii)
        val_parts.append(vv)
        ptr.append(ptr[-1] + len(ii))
        t += 1
        if t % every == 0:
            checkpoints.append(a.copy())
    idx = np.concatenate(idx_parts) if idx_parts else np.zeros(0, dtype=np.int32)
    val = np.concatenate(val_parts) if val_parts else np.zeros(0)
    return AlphaTape(
        alpha0=np.array(alpha0, dtype=float),
        every=int(every),
        checkpoints=np.array(checkpoints),
        ptr=np.array(ptr, dtype=np.int64),
        idx=idx.astype(np.int32),
        val=val.astype(float),
    )


def diff_changes(prev: np.ndarray, new: np.ndarray):
    ch = np.flatnonzero(new != prev)
    return ch, new[ch]

