"""numba's `njit`, or a do-nothing decorator where numba is missing (it is in
requirements.txt; the fallback only keeps the engine importable, as plain Python)."""

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is in requirements.txt
    def njit(*a, **k):
        return (lambda f: f) if not (a and callable(a[0])) else a[0]

__all__ = ["njit"]
