"""deploy/: the HAProxy policy with each backend file passes ``haproxy -c``, and serve.py's
ports, backend file and checks. Behaviour through HAProxy: tests/browser/test_serve_haproxy.py."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"

_spec = importlib.util.spec_from_file_location("svmlab_serve", DEPLOY / "serve.py")
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)


@pytest.fixture(scope="module")
def haproxy():
    path = serve.find_haproxy()
    if path is None:
        pytest.fail("haproxy is missing: apt-get install haproxy (make test does it)")
    return path


def check(haproxy: str, *files: Path, bind: str = "127.0.0.1:8080") -> subprocess.CompletedProcess:
    args = [haproxy, "-c"]
    for f in files:
        args += ["-f", str(f)]
    return subprocess.run(args, capture_output=True, text=True, timeout=60,
                          env={"SVMLAB_BIND": bind, "PATH": "/usr/sbin:/usr/bin:/bin"})  # fmt: skip


def test_the_policy_with_serve_pys_backend_is_valid(haproxy, tmp_path):
    backend = tmp_path / "backend.cfg"
    backend.write_text(serve.backend_config([8511, 8512, 8513], str(tmp_path / "h.sock")))
    out = check(haproxy, DEPLOY / "haproxy.cfg", backend)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Configuration file is valid" in out.stdout
    names = re.findall(r"^\s+server (\S+) 127\.0\.0\.1:(\d+) check$", backend.read_text(), re.M)
    assert names == [("app1", "8511"), ("app2", "8512"), ("app3", "8513")]


def test_the_policy_with_the_compose_backend_is_valid(haproxy):
    out = check(haproxy, DEPLOY / "haproxy.cfg", DEPLOY / "backend-compose.cfg", bind=":8080")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_policy_alone_has_no_backend(haproxy):
    # the servers come only from a backend file: without one, haproxy refuses to start
    out = check(haproxy, DEPLOY / "haproxy.cfg")
    assert out.returncode != 0 and "app" in out.stdout + out.stderr


def test_compose_mounts_the_files_that_exist():
    text = (DEPLOY / "compose.yaml").read_text()
    mounted = re.findall(r"^\s+- \./(\S+):/etc/svmlab/(\S+):ro$", text, re.M)
    assert sorted(mounted) == [("backend-compose.cfg", "backend-compose.cfg"),
                               ("haproxy.cfg", "haproxy.cfg")]  # fmt: skip
    assert all((DEPLOY / src).is_file() for src, _ in mounted)
    assert "context: .." in text and (ROOT / "Dockerfile").is_file()


def test_compose_shares_one_postgres_database_between_the_replicas():
    text = (DEPLOY / "compose.yaml").read_text()
    service = text.split("\n  postgres:\n", 1)[1].split("\n  haproxy:\n", 1)[0]
    assert "image: postgres:15" in service and "pg_isready -U svmlab -d svmlab" in service
    assert "- svmlab-db:/var/lib/postgresql/data" in service and "ports:" not in service
    assert text.rstrip().endswith("volumes:\n  svmlab-db:")
    app = text.split("\n  app:\n", 1)[1].split("\n  postgres:\n", 1)[0]
    assert re.search(r'SVMLAB_DATABASE_URL: "postgresql\+psycopg://svmlab:\$\{SVMLAB_DB_PASSWORD:-'
                     r'svmlab\}@postgres:5432/svmlab"', app)
    assert "condition: service_healthy" in app
    docker = (ROOT / "Dockerfile").read_text()
    assert 'VOLUME ["/app/var"]' in docker and "chown 10001:10001 /app/var" in docker


def test_serve_opens_the_store_once_and_every_process_computes_the_same_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'class.db'}"
    assert serve.store_check({**os.environ, "SVMLAB_DATABASE_URL": url}) == url
    assert (tmp_path / "class.db").stat().st_size > 0  # migrated
    env = {k: v for k, v in os.environ.items()
           if k not in ("SVMLAB_DATABASE_URL", "SVMLAB_DATA_DIR")}
    code = "from ui.classroom.store import database_url; print(database_url())"
    got = {subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          env={**env, "PYTHONPATH": str(ROOT)}).stdout.strip()
           for cwd in (ROOT, tmp_path)}  # fmt: skip
    assert got == {f"sqlite:///{ROOT / 'var' / 'svmlab.db'}"}
    with pytest.raises(RuntimeError, match="SQLite file"):
        serve.store_check({**os.environ, "SVMLAB_DATABASE_URL": "sqlite://"})


def test_app_ports_are_consecutive_or_free_and_a_taken_one_is_named():
    ports = serve.app_ports(3, 0)
    assert len(set(ports)) == 3
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        with pytest.raises(ValueError, match=f"port {taken} "):
            serve.app_ports(1, taken)
    with pytest.raises(ValueError, match="at least 1"):
        serve.app_ports(0, 8511)


def test_serve_reports_a_missing_haproxy(monkeypatch, capsys):
    monkeypatch.setattr(serve, "find_haproxy", lambda: None)
    assert serve.serve(serve.parse_args(["-n", "1"])) == 2
    assert "apt-get install haproxy" in capsys.readouterr().err


def test_serve_refuses_a_port_that_is_taken(haproxy, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        assert serve.serve(serve.parse_args(["-n", "2", "--first-app-port", str(taken)])) == 2
    assert f"port {taken} on 127.0.0.1 is taken" in capsys.readouterr().err


# -- supervision: a dead process is started again after a pause that grows in a crash loop --


def test_backoff_doubles_for_quick_deaths_up_to_its_cap_and_resets_after_a_healthy_run():
    b = serve.Backoff(first=1.0, cap=30.0, healthy=60.0)
    assert [b.after_death(0.5) for _ in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert b.after_death(60.0) == 1  # it had run a minute: an occasional death
    assert b.after_death(3.0) == 2
    assert b.after_death(59.9) == 4  # just short of healthy: still a crash loop


def _dies(status: int) -> list[str]:
    return [sys.executable, "-c", f"import sys; sys.exit({status})"]


def test_a_dead_child_is_started_again_when_its_pause_is_over(tmp_path):
    with open(tmp_path / "child.log", "a") as log:
        child = serve.Child("app2", _dies(3), log)
        child.start()
        first = child.proc
        first.wait(timeout=30)
        t0 = child.started
        assert child.tend(t0 + 0.1) == "app2 exited with status 3; starting it again in 1 s"
        assert child.tend(t0 + 0.5) is None and child.proc is first  # the pause
        said = child.tend(t0 + 1.1)
        assert child.proc is not first and said == f"app2 started again (pid {child.proc.pid})"
        child.proc.wait(timeout=30)
        # a second quick death: twice the pause
        assert child.tend(child.started + 0.1).endswith("starting it again in 2 s")
        assert child.tend(child.started + 1.5) is None
        assert child.tend(child.started + 2.2).startswith("app2 started again")
        child.proc.wait(timeout=30)
        # a death after a healthy run: the first pause again
        assert child.tend(child.started + 61).endswith("starting it again in 1 s")


def test_a_running_child_is_left_alone(tmp_path):
    with open(tmp_path / "child.log", "a") as log:
        child = serve.Child("app1", [sys.executable, "-c", "import time; time.sleep(60)"], log)
        child.start()
        try:
            assert child.tend(child.started + 1000) is None and child.proc.poll() is None
        finally:
            child.proc.kill()
            child.proc.wait(timeout=30)
