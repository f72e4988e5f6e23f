"""The address students can open: a teacher who opened the app as http://localhost:8501 would
otherwise hand them a link (and a QR code) to their own phone. Pure decisions, tested in
tests/test_class_address.py; the panel asks Streamlit and the machine for the facts.

Order: the class address the teacher typed (or the operator set: ``SVMLAB_CLASS_URL``, e.g.
HAProxy's public name) → the address the teacher's browser used, when it is not a loopback
one → this machine's network address, when the server listens on it → else the loopback
address with a warning that says how to serve the class.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

#: the operator's class address (what students open), e.g. https://svm.school.example
ENV_CLASS_URL = "SVMLAB_CLASS_URL"
CLASS_URL_MAX = 200
SERVE_HINT = "make run ADDRESS=0.0.0.0"


@dataclass(frozen=True)
class ClassBase:
    url: str        # the base of the links students get ("" outside a browser session)
    note: str       # a plain sentence for the teacher ("" when nothing needs saying)
    reachable: bool  # False: students on other machines cannot open it


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listens_beyond_loopback(bind: str | None) -> bool:
    """Streamlit's server.address: unset or 0.0.0.0 / :: listens on every interface."""
    return not bind or bind in ("0.0.0.0", "::") or not is_loopback(bind)


def parse_class_url(text: str) -> str:
    """The teacher's class address as scheme://host[:port][/prefix], without a trailing /;
    ValueError naming what is wrong."""
    text = (text or "").strip()
    if len(text) > CLASS_URL_MAX:
        raise ValueError(f"the class address is longer than {CLASS_URL_MAX} characters")
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the class address must look like http://192.168.1.20:8501 or "
                         "https://svm.school.example")  # fmt: skip
    if parts.query or parts.fragment or any(c.isspace() for c in text):
        raise ValueError("the class address must be a plain address, without ?, # or spaces")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def class_base(page_base: str, typed: str, bind: str | None, lan_ips: list[str]) -> ClassBase:
    """The base of the students' links. ``page_base`` is the address the teacher's page was
    opened at (without its query), ``typed`` the class address the teacher typed ("" none),
    ``bind`` the server's listening address, ``lan_ips`` this machine's network addresses."""
    if not page_base:
        return ClassBase("", "", False)
    page = urlsplit(page_base)
    path = page.path or "/"
    typed = typed or os.environ.get(ENV_CLASS_URL, "")
    if typed:
        try:
            return ClassBase(parse_class_url(typed) + path, "", True)
        except ValueError as exc:
            return ClassBase(page_base, f"Not used: {exc}.", not is_loopback(page.hostname or ""))
    if not is_loopback(page.hostname or ""):
        return ClassBase(page_base, "", True)
    if not listens_beyond_loopback(bind):
        return ClassBase(page_base, (
            "Students cannot open this link: this server listens on this computer only "
            f"({bind}). Stop it and start it for the class with {SERVE_HINT} (or make "
            "serve), then make the link again; or type the class's address below."), False)
    if not lan_ips:
        return ClassBase(page_base, (
            "Students cannot open this link: you opened the app as "
            f"{page.hostname} and this computer has no network address. Type the class's "
            "address below."), False)
    host = lan_ips[0] if ":" not in lan_ips[0] else f"[{lan_ips[0]}]"
    netloc = f"{host}:{page.port}" if page.port else host
    url = urlunsplit((page.scheme, netloc, path, "", ""))
    return ClassBase(url, (
        f"Made with this computer's network address {lan_ips[0]} (you opened the app as "
        f"{page.hostname}, which on a student's phone is the phone itself). Students must be "
        "on the same network; otherwise type the class's address below."), True)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses that other machines may reach (not loopback nor
    link-local), private ones first. psutil reads the interfaces (no packet is sent)."""
    import socket

    import psutil

    found = []
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(a.address)
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
                found.append(ip)
    return [str(ip) for ip in sorted(set(found), key=lambda ip: (not ip.is_private, ip))]
