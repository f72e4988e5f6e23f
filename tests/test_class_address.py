"""Issue 32 item 2: a teacher who opened the app as localhost gets a link students can open,
or is told why not and how to serve the class (ui/playground/class_address.py)."""

from __future__ import annotations

import pytest

from ui.shared import class_address as CA

LOCAL = "http://localhost:8501/"


@pytest.fixture(autouse=True)
def _no_operator_address(monkeypatch):
    monkeypatch.delenv(CA.ENV_CLASS_URL, raising=False)


def test_a_loopback_visit_to_a_server_on_every_interface_uses_the_network_address():
    b = CA.class_base(LOCAL, "", None, ["192.168.1.20", "10.0.0.5"])
    assert b.url == "http://192.168.1.20:8501/" and b.reachable
    assert "192.168.1.20" in b.note and "localhost" in b.note
    assert CA.class_base("http://127.0.0.1:9000/", "", "0.0.0.0", ["172.16.0.9"]).url == \
        "http://172.16.0.9:9000/"


@pytest.mark.parametrize("bind", ["localhost", "127.0.0.1", "::1"])
def test_a_server_on_loopback_only_says_students_cannot_open_it_and_how_to_serve(bind):
    b = CA.class_base(LOCAL, "", bind, ["192.168.1.20"])
    assert not b.reachable and b.url == LOCAL
    assert "cannot open" in b.note and CA.SERVE_HINT in b.note


def test_no_network_address_says_so():
    b = CA.class_base(LOCAL, "", "0.0.0.0", [])
    assert not b.reachable and "no network address" in b.note


def test_a_network_visit_is_kept_as_it_is():
    b = CA.class_base("http://192.168.1.20:8501/", "", "localhost", [])
    assert b == CA.ClassBase("http://192.168.1.20:8501/", "", True)


@pytest.mark.parametrize("typed, url", [
    ("https://svm.school.example", "https://svm.school.example/"),
    ("svm.school.example:8080/", "http://svm.school.example:8080/"),
    ("http://10.1.2.3:8501/lab", "http://10.1.2.3:8501/lab/"),
])
def test_the_typed_class_address_wins(typed, url):
    assert CA.class_base(LOCAL, typed, "localhost", []) == CA.ClassBase(url, "", True)


def test_the_operators_class_address_is_used_when_none_is_typed(monkeypatch):
    monkeypatch.setenv(CA.ENV_CLASS_URL, "https://lab.example")
    assert CA.class_base(LOCAL, "", "localhost", []).url == "https://lab.example/"


@pytest.mark.parametrize("typed", ["ftp://x", "http://", "http://a b", "http://x/?q=1",
                                   "x" * (CA.CLASS_URL_MAX + 1)])
def test_a_bad_class_address_is_named_and_not_used(typed):
    b = CA.class_base(LOCAL, typed, "localhost", [])
    assert b.url == LOCAL and b.note.startswith("Not used: the class address")


def test_loopback_names():
    assert all(map(CA.is_loopback, ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "a.localhost"]))
    assert not any(map(CA.is_loopback, ["192.168.1.2", "example.org", "0.0.0.0"]))


def test_network_addresses_are_never_loopback():
    ips = CA.network_addresses()
    assert all(not CA.is_loopback(ip) and not ip.startswith("169.254.") for ip in ips)
