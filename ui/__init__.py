"""SVM Lab user-interface helpers.

Pure, tested building blocks for the Streamlit pages:

- ``ui.state``   – the Playground's session state, shared with the other pages, and the URL
  (query-parameter) encoding of that state;
- ``ui.figures`` – plotly figures (pure functions, no streamlit);
- ``ui.fitting`` – the engine call the pages cache (pure);
- ``ui.io``      – import (``ui.io_read``: a CSV / svmlight file → a table; ``ui.io_table``:
  its x1, x2, label columns and two classes → points) and CSV / LIBSVM export;
- ``ui.tables``  – the per-point table and the numbers panel;
- ``ui.warmstart`` – mapping a previous α onto edited points;
- ``ui.canvas``  – the click-to-place-points component (the only module here that needs
  streamlit, apart from ``ui.controls`` and ``ui.import_panel``, the import's widgets);
- ``ui.nav``     – which pages exist;
- ``ui.budget``  – every fit's time budget: ``ui.costs`` (predictions, limits, messages),
  ``ui.fit_pool`` (worker processes killed at the budget), ``ui.st_interrupt`` (the one use
  of a Streamlit internal: has this script run been asked to stop?).
"""
