"""deploy/: the HAProxy policy with each backend file passes ``haproxy -c``, and serve.py's
ports, backend file and checks. Behaviour through HAProxy: tests/browser/test_serve_haproxy.py."""

from __future__ import annotations

import importlib.util
import re
import socket
import subprocess
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
