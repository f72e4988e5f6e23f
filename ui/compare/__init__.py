"""The Compare solvers page: the same problem through every solver, the figures, and the
scaling measurement."""
