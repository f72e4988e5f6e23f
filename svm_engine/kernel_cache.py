"""The kernel column cache: columns of K_eff computed when a solver step needs them, kept in a
bounded LRU cache (LIBSVM's Cache and the get_Q of its QMatrix; Chang & Lin 2011, §5).

Never an n × n matrix: at most `cache_slots(n, cache_mb)` columns (default 200 MB, as
scikit-learn's SVC). The values come from `kernel_values.py`; the compiled SMO
(`solvers/smo_fast.py`) asks for columns with `fetch` (on its active set) and `fetch_full`
(on all points).

Slots hold columns in original index order. A slot is valid on all n points ("full"), or on
the active set of the shrinking epoch it was computed in ("partial"): within an epoch the
active set only shrinks, so a partial column stays valid until the next gradient
reconstruction starts a new epoch. LRU order is a doubly linked list over the slots with a
sentinel node (index S).

After an edit (warm start) the previous fit's cache (`PreviousColumns`: its rows, with the
first p and last s points kept) may hold the column of the same point: then its kept entries
are copied — the same numbers, computed by the same code — and only the added points' are
computed (`full_column`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import njit
from .kernel_values import LINEAR, kernel_column, kernel_eff_column, kernel_value

DEFAULT_CACHE_MB = 200.0                 # scikit-learn's SVC(cache_size=200)
KEEP_COLUMNS_MB = 8.0                    # a fit hands on its column cache up to this size


class SavedColumns(NamedTuple):
    """The columns a fit hands on to the next warm start (`kept_columns`)."""

    rows: np.ndarray        # S × n: slot s holds the column of point slot_col[s]
    col_slot: np.ndarray    # point → slot, −1 when not cached
    slot_full: np.ndarray   # 1 when the slot is valid on all n points


class PreviousColumns(NamedTuple):
    """`SavedColumns` of the fit before an edit, and where its points are now."""

    rows: np.ndarray
    col_slot: np.ndarray
    slot_full: np.ndarray
    ends: np.ndarray        # (p, s): its first p and last s points are the first p and last s


class ColumnCache(NamedTuple):
    """The LRU cache of one run (`new_cache`)."""

    rows: np.ndarray        # S × n
    slot_col: np.ndarray    # slot → point, −1 when free
    col_slot: np.ndarray    # point → slot, −1 when not cached
    slot_epoch: np.ndarray  # the shrinking epoch a partial slot is valid in (−1: none)
    slot_full: np.ndarray   # 1 when valid on all n points
    prv: np.ndarray         # LRU list (S + 1 nodes, S the sentinel): previous
    nxt: np.ndarray         #   and next
    used: np.ndarray        # [slots in use]
    previous: PreviousColumns


class Layout(NamedTuple):
    """The active set (shrinking, `smo_fast`): columns are fetched on these points."""

    active: np.ndarray       # the active points' indices, increasing, in positions 0..na−1
    na: int                  # how many are active
    XT_active: np.ndarray    # their features (features × points), in the same order
    inactive: np.ndarray     # the other points' indices, increasing
    XT_inactive: np.ndarray  # their features


#: `PreviousColumns` when there is no earlier fit to copy columns from.
NO_COLUMNS = PreviousColumns(np.empty((0, 0)), np.empty(0, np.int64), np.empty(0, np.uint8),
                             np.zeros(2, np.int64))


@njit(cache=True, nogil=True)
def new_cache(n, n_slots, previous):
    """An empty cache of n_slots columns of n points (n_slots = 0: none, a dummy of one)."""
    use_cache = n_slots > 0
    S = max(n_slots, 2) if use_cache else 1
    prv, nxt = np.zeros(S + 1, np.int64), np.zeros(S + 1, np.int64)
    prv[S] = S
    nxt[S] = S
    return ColumnCache(np.empty((S, n if use_cache else 1)), np.full(S, -1, np.int64),
                       np.full(n, -1, np.int64), np.full(S, -1, np.int64),
                       np.zeros(S, np.uint8), prv, nxt, np.zeros(1, np.int64), previous)


@njit(cache=True, nogil=True)
def lru_unlink(s, prv, nxt):
    nxt[prv[s]] = nxt[s]
    prv[nxt[s]] = prv[s]


@njit(cache=True, nogil=True)
def lru_front(s, prv, nxt):
    h = len(nxt) - 1
    nxt[s] = nxt[h]
    prv[s] = h
    prv[nxt[h]] = s
    nxt[h] = s


@njit(cache=True, nogil=True)
def slot_for(c, cache):
    """The slot of column c, allocated (evicting the least recently used) if needed;
    returns (slot, hit)."""
    prv, nxt = cache.prv, cache.nxt
    s = cache.col_slot[c]
    if s >= 0:
        lru_unlink(s, prv, nxt)
        lru_front(s, prv, nxt)
        return s, True
    S = cache.rows.shape[0]
    if cache.used[0] < S:
        s = cache.used[0]
        cache.used[0] += 1
    else:
        s = prv[S]                        # least recently used
        lru_unlink(s, prv, nxt)
        cache.col_slot[cache.slot_col[s]] = -1
    cache.slot_col[s] = c
    cache.col_slot[c] = s
    cache.slot_full[s] = 0
    cache.slot_epoch[s] = -1
    lru_front(s, prv, nxt)
    return s, False


@njit(cache=True, nogil=True)
def full_column(c, row, kp, X, XT, cache):
    """row = K_eff[:, c] on all n points, diagonal term included: copied from the previous
    fit's cache where it holds the column (module docstring), else computed."""
    n = X.shape[0]
    old = cache.previous
    p, s, n_old = old.ends[0], old.ends[1], len(old.col_slot)
    c_old = c if c < p else (c - n + n_old if c >= n - s else -1)
    if c_old >= 0 and old.col_slot[c_old] >= 0 and old.slot_full[old.col_slot[c_old]]:
        src = old.rows[old.col_slot[c_old]]
        for t in range(p):
            row[t] = src[t]
        for t in range(n - s, n):
            row[t] = src[t - n + n_old]
        for t in range(p, n - s):          # added points (never c: c is kept)
            row[t] = kernel_value(kp, X, t, X, c)
        return
    kernel_eff_column(kp, XT, n, X[c], c, row)


@njit(cache=True, nogil=True)
def on_active(row, act, na, buf):
    """A cached column (original order) on the active positions 0..na−1: the row itself
    when every point is active, else gathered into buf."""
    if na == len(row):
        return row
    for p in range(na):
        buf[p] = row[act[p]]
    return buf


@njit(cache=True, nogil=True)
def fetch(c, pc, buf, lay, kp, X, cache, use_cache, epoch):
    """K_eff[:, c] on the active positions 0..na−1 (c is active, at position pc).
    Returns a cache row when the layout is the identity, else `buf`."""
    act, na, XTa = lay.active, lay.na, lay.XT_active
    n = X.shape[0]
    if use_cache:
        s, hit = slot_for(c, cache)
        row = cache.rows[s]
        if hit and (cache.slot_full[s] or cache.slot_epoch[s] == epoch):
            return on_active(row, act, na, buf)
        if na == n:
            full_column(c, row, kp, X, XTa, cache)
            cache.slot_full[s] = 1
            return row
        kernel_eff_column(kp, XTa, na, X[c], pc, buf)
        for p in range(na):
            row[act[p]] = buf[p]
        cache.slot_full[s] = 0
        cache.slot_epoch[s] = epoch
        return buf
    kernel_eff_column(kp, XTa, na, X[c], pc, buf)
    return buf


@njit(cache=True, nogil=True)
def fetch_full(c, buf, lay, kp, X, XT, cache, use_cache, epoch):
    """K_eff[:, c] on all n points (original order): a cache row or `buf`."""
    inact, XTi = lay.inactive, lay.XT_inactive
    n = X.shape[0]
    ni = n - lay.na
    if use_cache:
        s, hit = slot_for(c, cache)
        row = cache.rows[s]
        if hit and cache.slot_full[s]:
            return row
        if hit and cache.slot_epoch[s] == epoch:
            # valid on the active set: compute the inactive points only
            kernel_column(kp, XTi, ni, X[c], buf)
            for q in range(ni):
                row[inact[q]] = buf[q]
        else:
            full_column(c, row, kp, X, XT, cache)
        cache.slot_full[s] = 1
        return row
    kernel_eff_column(kp, XT, n, X[c], c, buf)
    return buf


# -- sizes, and what a fit hands on ----------------------------------------------------------

def cache_slots(n: int, cache_mb: float) -> int:
    """How many kernel columns of n float64 fit in cache_mb megabytes (≥ 2, ≤ n)."""
    return int(min(n, max(2, (cache_mb * 2**20) // (8 * n))))


def caches_columns(problem) -> bool:
    """Cache kernel columns unless they are cheaper to compute than to copy (linear kernel,
    few features)."""
    return problem.spec.code != LINEAR or problem.X.shape[1] > 16


def column_slots(n: int, use_cache: bool, warm: bool, cache_mb=DEFAULT_CACHE_MB) -> int:
    """Slots of a run's column cache: cache_mb worth, 0 without a cache. A warm start needs
    few columns: its cache stays small enough to hand on (KEEP_COLUMNS_MB)."""
    if not use_cache:
        return 0
    return cache_slots(n, min(cache_mb, KEEP_COLUMNS_MB) if warm else cache_mb)


def previous_columns(saved: SavedColumns | None, p: int = 0, s: int = 0) -> PreviousColumns:
    """The previous fit's saved columns, its first p and last s points kept, or none."""
    if saved is None:
        return NO_COLUMNS
    return PreviousColumns(saved.rows, saved.col_slot, saved.slot_full,
                           np.array([p, s], dtype=np.int64))


def kept_columns(saved: SavedColumns, use_cache: bool) -> SavedColumns | None:
    """The column cache a result hands on (see `smo_fast.solve`), or None."""
    if use_cache and saved.rows.nbytes <= KEEP_COLUMNS_MB * 2**20:
        return saved
    return None


__all__ = ["DEFAULT_CACHE_MB", "KEEP_COLUMNS_MB", "NO_COLUMNS", "ColumnCache", "Layout",
           "PreviousColumns", "SavedColumns", "cache_slots", "caches_columns", "column_slots",
           "fetch", "fetch_full", "full_column", "kept_columns", "new_cache", "previous_columns",
           "slot_for"]
