"""The Generalisation page: training against test accuracy, and k-fold cross-validation over
a grid of C and σ (or the degree)."""
