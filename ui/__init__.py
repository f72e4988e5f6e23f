"""SVM Lab's user interface: one package per page, the pieces they share, and the server side.

- ``ui.shared``          – what every page uses (its ``__init__`` lists it for a new page):
  session state and its URL encoding, the data-source and model sidebar blocks
  (``controls``), number formatting (``numbers``) and tables, figures (pure), undo history,
  navigation (``nav.PAGES``), the cached engine call (``fitting``), the solvers' descriptions,
  Streamlit's internals (``st_private``, only there);
- ``ui.data``            – files in and out: reading and writing points, the import panel,
  the table editor;
- ``ui.serving``         – the fit endpoint (``POST /api/refit``), the fit workers and every
  fit's time budget, start-up and warm-up, the route of the browser's modules;
- ``ui.playground``, ``ui.worked_examples``, ``ui.step_through``, ``ui.compare`` – one package
  per page (``pages/1_…`` to ``pages/4_…``): its logic, its figures, its text;
- ``ui.kernels``, ``ui.generalisation`` – the Kernels and Generalisation pages (``pages/5_…``,
  ``pages/6_…``): what they compute (in a fit worker), their figures and their words;
- ``ui.multiclass``, ``ui.regression`` – the More classes and Regression pages (``pages/7_…``,
  ``pages/8_…``): what they compute (in a fit worker) and their figures;
- ``ui.losses``          – the Losses & perceptron page (``pages/9_losses_perceptron.py``);
- ``ui/browser/``        – the browser's code as ES modules (the click canvas, the step player,
  the click plot; ``serving.browser_modules`` serves them, ``tests/js`` unit-tests them) and
  styles;
- ``ui/assets/``         – the tab icon (served locally: nothing leaves the server).

Widgets and components (streamlit) live in ``shared.controls``, ``shared.nav``,
``data.import_panel``, ``playground.canvas``, ``playground.teacher_panel``,
``playground.takeaway_panel``, ``step_through.panels``, ``step_through.player``,
``step_through.plot``, ``shared.click_plot``, ``shared.chart`` and ``serving.warmup``;
Streamlit's internals in ``shared.st_private``; the rest is plain Python tested without a
server.
"""
