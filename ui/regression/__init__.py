"""The Regression page: ε-SVR (Odobez's kernel lecture) on 1-D points, its tube, slacks and
support vectors."""
