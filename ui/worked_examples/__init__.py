"""The Worked examples page: the book's examples, book value | app value tables, and
their figures."""
