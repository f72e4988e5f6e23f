"""The data-source block: files in and out (CSV, TSV, svmlight), the import panel, the
points table editor."""
