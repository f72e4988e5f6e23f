"""The Kernel k-means & PCA page: what it computes (compute, in a fit worker) and its figures."""
