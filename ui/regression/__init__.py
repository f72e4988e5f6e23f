"""The Regression page: ε-SVR (seed 002) on 1-D points, its tube, slacks and support vectors."""
