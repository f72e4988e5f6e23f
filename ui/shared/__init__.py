"""Pieces every page uses. A new page starts here (read pages/3_step_through.py for one that
uses them all):

- ``nav.run_through_app()``: a page's first call; register the page in ``nav.PAGES``.
- ``session``: the page's state, one dataclass (``ui/<page>/page_state.py``, a
  ``session.PageState`` with its ``KEY`` and widget ``PREFIX``) under one session key:
  ``page = Cls.of(ss)``; widget keys ``Cls.widget_key(name)``; ``page.widgets.restore(ss)``
  then ``page.widgets.keep(ss, names)`` keep the widget values across visits to other
  pages. What pages share (the Playground's points, undo, present mode, the student view) is
  ``session.Shared``. No raw string key in ``st.session_state`` (tests/test_session_keys.py).
- ``controls.data_source(ss, P, sources, generators=, sliders=, options=, upload=)``: the
  data-source block (a source chooser, a source's own widgets, a generator's ``Sliders``, a
  file source's ``ui.data.import_panel.Upload``) → ``Source``, from which the page makes its
  points (More classes, Regression); ``controls.points_sidebar(ss, P, n=, noise=, labels=,
  on_change=)``: the same block for two-class points (the Playground's points, a book dataset
  or a generator) → (X, y, title); ``controls.source_settings`` gives the chosen source's
  suggested settings.
- ``controls.model_sidebar(ss, P, settings, lock=, fixed_loss=)``: the model block (kernel
  with q and c or σ, loss, hard margin, C; keys ``P`` + ``controls.MODEL_KEYS``) → settings;
  ``controls.limits_caption`` the solvers' point limits within the time budget.
- ``numbers``: how every number is printed (``fmt_num``, ``fmt_setting``, ``fmt_fixed``,
  ``fmt_pct``, ``fmt_tex``, ``linear_combination``, ``hyperplane_equation``); no format spec
  of a page's own (tests/test_number_formats.py); ``markdown``: user text inside st.markdown
  (``plain``) and the line naming the points and the model (``points_and_model``);
  ``labels``: the settings' words, and a kernel's formula (``kernel_formula``); ``cite``:
  the sources by title and author (``cite("chapter", 16)``); ``sv_labels``: the one rule
  for the tables' point labels (``point_labels``, ``LABEL_LEGEND``).
- ``chart.show_chart(fig, key=, title=, settings=)``: every chart a page draws, with PNG and
  SVG buttons whose image carries the title and the settings line (``chart.model_words`` puts
  a settings dict in words); ``plotly_config`` the Plotly config (no cloud Share button).
  Every chart has an accessible name and description (``name=``, ``description=``,
  ``table=``; default: ``describe.describe_figure``); ``describe`` writes a model's picture
  in words (``describe_model``) from the numbers the numbers panel prints.
- ``state`` (the Playground's session state), ``settings`` (``Settings``: its settings,
  frozen and validated once by ``Settings.parse``), ``points`` (their check and axis ranges),
  ``links`` (the one URL codec: the Playground's query and the frame teacher links use too),
  ``fitting`` (the cached engine call), ``fit_words`` (a fit's verdict in a student's words:
  "not converged: what failed — try …", from the engine's typed diagnostics), ``tables`` (the
  points table, the numbers panel), ``figures`` (the Playground's picture, pure;
  ``slack_drawing`` its ξ segments and labels, placed clear of the markers by
  ``label_placement``), ``palette`` (every plot's colours, once: Okabe–Ito darkened to 3:1 on
  the shading; ui/browser/palette.js is generated from it), ``history`` (undo),
  ``book_setups`` (the book's datasets with the settings of its worked examples),
  ``quick_controls`` (kernel, σ, loss and C beside the plot: the sidebar's settings, one
  state), ``drawer`` (a phone's sidebar drawer closes after
  a page link is followed; app.py draws it on every page), ``class_address`` (the address
  students can open) and ``qr`` (its QR code): teacher links and live classes;
  ``store_page`` (the live class's store for a page, or its message); ``reveal`` (a
  teacher link's hidden points hidden on every page until the teacher's reveal),
  ``stepper`` (First / Back / slider / Next / Last over a recorded run: Losses, Kernel
  perceptron, Kernel k-means); ``poll``
  (ask every few seconds and rerun the page on a change: the Join page, reveals), ``present``
  (present mode on any page: the session's one switch), ``student`` (the student view: one
  switch per session, in every page's sidebar; ``unless``/``full_view`` wrap a solver's
  internals).
- ``theory``: the chapter's theory written with a fitted model's numbers (pure); ``why``
  its collapsed "Why?" panels (``why_panel``, ``show_sections``).
- ``browser_data``: Plotly figures as JSON text for the browser's modules, the checks of what
  a browser sends back; ``click_plot``: a Plotly chart that reports a click (More classes,
  Regression).
- ``formulas``: the problem a setting solves (loss × bias × kernel × solver) as text, its
  bound and kernel read from the engine (``svm_engine.problem``), never re-derived.
- ``st_private``: every non-public Streamlit API the app uses, and only there.
- ``page_style``: the accessibility CSS app.py adds to every page (captions' contrast, the
  sidebar's focus ring and collapsed tab order, ``hidden_heading`` for screen readers).
"""
