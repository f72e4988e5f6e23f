"""Process helpers for the tests of the fit workers (psutil)."""

from __future__ import annotations

import os
import time

import psutil


def gone(pid: int, timeout: float = 5.0) -> bool:
    """True once no process (or only a zombie) has this id."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def tree_cpu_seconds(pid: int, seconds: float, *, include_root: bool = True) -> float:
    """CPU seconds (user + system) that process ``pid`` and its descendants use in the next
    ``seconds`` of wall time (processes that start or end meanwhile count from when seen)."""
    def sample():
        out = {}
        try:
            root = psutil.Process(pid)
            procs = ([root] if include_root else []) + root.children(recursive=True)
        except psutil.Error:
            return out
        for p in procs:
            try:
                t = p.cpu_times()
                out[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        return out

    before = sample()
    time.sleep(seconds)
    after = sample()
    return sum(t - before.get(p, t) for p, t in after.items())


def children_cpu_seconds(seconds: float) -> float:
    """CPU seconds that this process's descendants (fork server, workers) use in the next
    ``seconds`` of wall time."""
    return tree_cpu_seconds(os.getpid(), seconds, include_root=False)
