"""QR codes of links, drawn by ``segno`` (pure Python): PNG to show and download, SVG to
download. Pure: text in, bytes out."""

from __future__ import annotations

import io

import segno

#: PNG pixels per QR module: with the 4-module quiet zone a short link's code is 444 px
PNG_SCALE = 12


class QRError(ValueError):
    """The text does not fit in a QR code."""


def _make(text: str) -> segno.QRCode:
    try:
        # error level M (15 %); segno raises it further when that costs no extra size
        return segno.make(text, error="m", micro=False, boost_error=True)
    except segno.DataOverflowError:
        raise QRError(
            f"the link is too long for a QR code ({len(text):,} characters); use the short link"
        ) from None


def png(text: str, scale: int = PNG_SCALE) -> bytes:
    buf = io.BytesIO()
    _make(text).save(buf, kind="png", scale=scale, border=4, dark="#000000", light="#ffffff")
    return buf.getvalue()


def svg(text: str, scale: int = PNG_SCALE) -> bytes:
    buf = io.BytesIO()
    _make(text).save(buf, kind="svg", scale=scale, border=4, dark="#000000", light="#ffffff",
                     xmldecl=True, svgns=True, title="SVM Lab link")
    return buf.getvalue()


def matrix(text: str) -> list[list[bool]]:
    """The code's modules (True = dark), for tests and for checking a code's size."""
    return [[bool(v) for v in row] for row in _make(text).matrix]
