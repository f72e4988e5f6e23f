import atexit
import gc
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# Fits run in worker processes killed at their wall-time budget (ui/serving/budget.py); on a loaded
# machine a page test's fit can take longer than in class. The budget's own tests set their
# limits explicitly (tests/test_budget.py, tests/browser/test_budget_server.py).
os.environ.setdefault("SVMLAB_BUDGET_SLACK", "10")

# The store (ui/classroom/store: live classes, teacher links): each test process (and the app
# servers the browser tests start, which inherit the environment) uses its own SQLite file in a
# temporary folder, never <repo>/var/ nor a database the environment names.
_DB_DIR = tempfile.mkdtemp(prefix="svmlab-test-db-")
atexit.register(shutil.rmtree, _DB_DIR, True)
os.environ["SVMLAB_DATA_DIR"] = _DB_DIR
os.environ["SVMLAB_DATABASE_URL"] = f"sqlite:///{_DB_DIR}/svmlab.db"

# Hypothesis draws the same examples on every run and every machine (profile "ci", the
# default): derandomized (seeded from each test's own code) and without the example database
# (a failure found once would otherwise be replayed only where it was found).
# HYPOTHESIS_PROFILE=dev draws new examples on every run, to search further.
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# no deadline: a loaded 2-core CI runs an example 2–3 times slower than a quiet one
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("dev", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))



def pytest_configure(config):
    """In each process that runs tests (not pytest-xdist's controller, which only hands them
    out: it need not import Streamlit), what AppTest does again for every page it runs and
    whose result cannot change within the session (ui/shared/st_private.py): the scan of
    every installed package for Streamlit components (0.15 s a page test), and the compile
    of each page script (parsed, "magic" added and compiled again on every run)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        return
    from ui.shared.st_private import memoize_component_scan, memoize_script_bytecode

    memoize_component_scan()
    memoize_script_bytecode()


def pytest_collection_finish(session):
    """Freeze what the test process holds once its tests are collected (every test module and
    what it imports: ~1.6 M objects), as app.py freezes a server's start-up objects
    (ui/serving/startup.py): the garbage collector's full passes then walk only what the tests
    make. Without it, each test process spent 2–3 s of CPU in 13–14 full passes."""
    gc.freeze()


BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_ignore_collect(collection_path, config):
    """With -m "not browser" (make test-fast) every test of tests/browser/ is deselected (each
    of its modules marks all its tests browser: tests/test_browser_tests_marked.py): do not
    import them (Playwright, aiohttp: ~0.5 s in each test process) only to deselect them."""
    if collection_path == BROWSER_TESTS and config.getoption("markexpr") == "not browser":
        return True
    return None


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the tests marked slow (e.g. the 5,000-case property runs)")


def pytest_collection_modifyitems(config, items):
    """Tests marked slow run only with --runslow: `make test` (plain pytest) skips them."""
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# ------------------------------------------------------------------ the store's databases


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for this test process (tests/postgres_server.py), started on first
    use. It fails (not skips) when PostgreSQL cannot start, unless SVMLAB_SKIP_POSTGRES=1."""
    if os.environ.get("SVMLAB_SKIP_POSTGRES") == "1":
        pytest.skip("SVMLAB_SKIP_POSTGRES=1: the store's PostgreSQL tests are skipped")
    from tests.postgres_server import PostgresServer, PostgresUnavailable

    try:
        server = PostgresServer().start()
    except PostgresUnavailable as exc:
        pytest.fail(f"PostgreSQL for the store's tests could not start: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """An empty database of each kind: an SQLite file, a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    server = request.getfixturevalue("postgres_server")
    return server.new_database("t_" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:20])


@pytest.fixture
def store(db_url):
    from ui.classroom.store import Store

    s = Store(db_url)
    yield s
    s.engine.dispose()
