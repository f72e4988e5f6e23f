"""The Kernels page: the quadratic feature map, Gram matrices and Mercer's check, σ and the
degree side by side."""
