"""What vulture (tests/test_dead_code.py) reports as unused in svm_engine/, ui/, pages/ and
app.py although something uses it: read by vulture, never run. By name, not by path (code
moves between modules): vulture counts each name below as used wherever it is defined, and
the test checks that each still names something in the app. Add a name only with its reason;
a helper only the tests need belongs in tests/, not here.
"""
# ruff: noqa: B018

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# -- the engine's API for teachers and notebooks (docs/engine_api.md), tested there -----------
_.__getattr__            # svm_engine: se.SVC imported on first use (PEP 562), not at import
_.from_json              # export: an exported model read back
_.decision               # feature_maps.FeaturePlane and precomputed.PrecomputedResult: h(z)
_.totals                 # losses: Σ of each loss over the points
_.n_machines             # multiclass: how many binary machines
_.mistakes_per_epoch     # perceptron: its result's record per epoch
_.weights_after          # perceptron: (w, b) after k updates
_.on_edge                # svr: the points on the tube's edge
_.solver_alpha           # model.diagnostics: the solver's own α (replay_smo's docstring)
_.refined_iter           # model.diagnostics: SMO's iterations after the certificate failed

# -- scikit-learn's estimator protocol (svm_engine/estimator.py: check_estimator reads them) --
_.multi_class            # __sklearn_tags__: binary only
_.sparse                 # __sklearn_tags__: dense input only
_.classes_
_.alpha_
_.dual_coef_
_.support_
_.support_vectors_
_.intercept_
_.coef_
_.n_iter_
_.converged_
_.n_support_             # scikit-learn's SVC / SVR have them (test_estimator_sklearn_parity)
_.fit_status_
_.shape_fit_

# -- signatures fixed by a caller ------------------------------------------------------------
_.typingctx              # numba's @intrinsic passes it (kernel_values.bits_as_float)
_.max_workers            # Streamlit calls scan_component_manifests(max_workers=…) (st_private)
_._launch                # multiprocessing's Popen hook (ui/serving/fit_process.py overrides it)
_.finalizer              # multiprocessing's Popen attribute, set as its own _launch does

# -- the Streamlit fence's contract (tests/test_st_private.py, tests/conftest.py) -------------
_.WRITTEN_FOR
_.APIS
_.memoize_component_scan
_.memoize_script_bytecode

# -- test hooks that must run inside a fit worker, so live in a module the worker imports ------
_.echo                   # ui/serving/fit_worker.py: the pool's round trip
_.fail                   # a task's exception crosses the process boundary
_.hold                   # a busy worker that uses no CPU (lanes, cancels, kills)
_.main_file              # the worker does not see the parent's __main__
_.slow_respond           # a slow answer, for the disconnect tests
_.pids                   # fit_pool.FitPool: its workers' ids (tests/test_fit_pool.py)

# -- called by a library by name ---------------------------------------------------------------
_.revision               # Alembic reads a migration's revision, down_revision, branch_labels,
_.down_revision          # depends_on and downgrade() (ui/classroom/store/migrations/versions)
_.branch_labels
_.depends_on
_.downgrade
_._on_connect            # SQLAlchemy's event listeners (ui/classroom/store/database.py) and
_._on_begin              # the sqlite3 connection attribute they set
_.isolation_level

_.browser_rules          # svm_engine/bounds.py: for the step player payload (being wired in)

# -- the step record's JSON Schema (ui/step_through/step_schema.py) ---------------------------
_.json_schema            # written to tests/js/step_cases.json for the node tests of the decoder
_.Ei                     # StepArrays' fields: encoded by name (dataclasses.fields in encode)
_.Ej
# -- the fit endpoint's schema (ui/serving/fit_schema.py): pydantic reads these -------------
_.model_config           # pydantic: a model's configuration
_._one_alpha_per_point   # pydantic: Warm's model validator
_.colorscale             # FitAnswer's fields: the JSON Schema names them (fit_schema.json),
_.zmin                   # the browser reads them (tests/test_fit_schema.py)
_.boundary
_.misclassified
_.misclassified_mark
_.server_ms
_.slack_idx
_.solver_ms
_.warm_gradient
