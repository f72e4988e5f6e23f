"""SVM Lab's user interface: one package per page, the pieces they share, and the server side.

The shared layer, which every page may import:

- ``ui.shared``          – what the pages use (its ``__init__`` lists it for a new page): the
  data-source and model sidebar blocks (``controls``), session state and its URL encoding,
  number formatting (``numbers``), labels and tables, figures (pure), undo history,
  navigation (``nav.PAGES``), the cached engine call (``fitting``), the book's setups, the
  browser's data (``browser_data``), every chart with its PNG/SVG buttons (``chart``), the
  click plot, Streamlit's internals (``st_private``, only there);
- ``ui.data``            – files in and out: reading and writing points, the upload step and
  the import panel, the table editor;
- ``ui.serving``         – the fit endpoint (``POST /api/refit``), the fit workers and every
  fit's time budget, start-up and warm-up, the route of the browser's modules;
- ``ui.classroom``       – the live class without its pages (plain Python, no streamlit): the
  data types, the exercises (seeded variants, answers parsed and checked by the engine), the
  ready activities, the store (classes, answers and teacher links in SQLite or PostgreSQL)
  and rate limits.

One package per page (``pages/1_…`` to ``pages/9_…``), each its logic, its figures, its text:

- ``ui.playground``      – the Playground: its sidebar and panels, the click canvas, teacher
  links and their QR codes, the model to take away;
- ``ui.worked_examples`` – the book's examples (one module each, the book's values as data)
  and their figures;
- ``ui.step_through``    – the recorded run, what a step shows and says, the step player;
- ``ui.compare``         – every solver on one problem, the scaling run, the solvers' notes;
- ``ui.kernels``, ``ui.generalisation`` – the Kernels and Generalisation pages: what they
  compute (in a fit worker), their figures and their words;
- ``ui.multiclass``, ``ui.regression`` – the More classes and Regression pages: what they
  compute (in a fit worker) and their figures;
- ``ui.losses``          – the Losses & perceptron page;
- ``ui.knn_perceptron``  – the Kernel perceptron & k-NN page: what it computes (in a fit
  worker: the dual perceptron's run, k-NN's regions, Voronoi edges and neighbours), its
  figures and words;
- ``ui.kmeans_pca``      – the Kernel k-means & PCA page: what it computes (in a fit worker)
  and its figures;
- ``ui.join``, ``ui.teach`` – a live class's two pages: a student joins and answers (``flow``
  decides, ``views`` draws); the teacher starts a class and follows it (``summary``: the
  dashboard in numbers, ``figures``, ``builder``, ``views``);
- ``ui.sources``         – the Sources page: the course's documents by title and author
  (``shared.cite`` holds them) and the app's conventions.

Beside them: ``ui/browser/`` (the browser's code as ES modules: the click canvas, the step
player, the click plot; ``serving.browser_modules`` serves them, ``tests/js`` unit-tests them)
and styles; ``ui/assets/`` (the tab icon, served locally: nothing leaves the server);
``ui/fit_worker_boot.py`` (the fit workers' preload: it imports the pages' compute modules, so
it sits above the layers, named by ``serving.fit_process.BOOT_MODULE``).

Imports (tests/test_ui_layers.py): ``shared``, ``data``, ``serving`` and ``classroom`` import
no page's package; a page's package imports those and the engine, not another page's, except:

- ``ui.worked_examples`` → ``ui.step_through``: the two-point example shows SMO's first step
  in its box with the Step-through page's own recorder and drawing (``record.build_run``,
  ``box_chart``: the step player's step_box.js), so the two pages draw the same picture, not
  a copy of it.

Widgets and components (streamlit) live in ``shared.controls``, ``shared.nav``,
``shared.click_plot``, ``shared.chart``, ``data.import_panel``, ``playground.sidebar``,
``playground.panels``, ``playground.canvas``, ``playground.teacher_panel``,
``playground.takeaway_panel``, ``step_through.panels``, ``step_through.player``,
``step_through.box_chart``, ``step_through.plot``, ``serving.browser_modules`` and
``serving.warmup``; Streamlit's internals in ``shared.st_private``; the rest is plain Python
tested without a server.
"""
