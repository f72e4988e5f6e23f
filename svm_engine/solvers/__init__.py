"""Solvers: each receives arrays (Q or K, y, C), never kernel names, and returns α and its run."""
