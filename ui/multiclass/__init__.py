"""The More classes page: k-class SVMs from binary machines (one-vs-rest, one-vs-one), their
regions, scores and votes."""
