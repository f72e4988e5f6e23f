"""The fit endpoint's protocol, defined once: the request (``FitRequest``, validated at the
boundary by ``ui.serving.fit_request``) and the answer (``FitAnswer``: what
``ui.serving.fit_answer.answer`` builds, what the canvas reads). ``schema()`` is their JSON
Schema, checked in as ``ui/serving/fit_schema.json`` (tests/test_fit_schema.py fails when it
is stale, and when the browser reads a field it does not name or it names one no browser
code reads).

    .venv/bin/python -m ui.serving.fit_schema     # rewrite fit_schema.json after a change

Symbols: α (dual variables), h(x) = Σ αᵢyᵢK(xᵢ, x) + b, ξᵢ = max(0, 1 − yᵢh(xᵢ)), C (box),
SV = support vector (α > 0).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictFloat,
    StrictInt,
    WithJsonSchema,
    model_validator,
)

from ui.shared import browser_data
from ui.shared.points import MAX_POINTS
from ui.shared.settings import Settings

SCHEMA_FILE = Path(__file__).with_name("fit_schema.json")
MAX_SEQ = 2**53  # integers a browser's JSON numbers hold exactly
SCALE_MAX = 2.0  # the figure's largest scale (fonts, markers and lines)
#: What a teacher link may hide (``style.hide``); ``fit_answer.HIDDEN_FIELDS`` says which
#: answer fields each one leaves out.
HIDE = Literal["numbers", "table"]


class BadRequest(ValueError):
    """The request is not a valid refit request (the message names what is wrong)."""


# ------------------------------------------------------------------------------ request
# Points, settings and axis ranges keep their one check (browser_data, state): a plain
# validator calls it, and the schema says what it accepts.

def _points(value: Any) -> tuple:
    try:
        return browser_data.parse_point_list(value, max_points=MAX_POINTS, source="")
    except browser_data.CanvasError as exc:
        raise ValueError(str(exc)) from None


def _settings(value: Any) -> Settings:
    if not isinstance(value, Mapping):     # a dict from JSON, a Settings from a page
        raise ValueError('must be an object such as {"kernel": "linear", ...}')
    return Settings.parse(value)


def _ranges(value: Any) -> tuple:
    ranges = None
    if isinstance(value, dict) and set(value) <= {"x", "y"}:
        ranges = browser_data.parse_ranges(value.get("x"), value.get("y"))
    if ranges is None:
        raise ValueError('must be {"x": [x0, x1], "y": [y0, y1]}: finite numbers within ±1e9, '
                         f"x0 ≠ x1, y0 ≠ y1; got {value!r:.200}")
    return ranges


_NUMBER = {"type": "number"}
_POINTS_SCHEMA = {
    "type": "array", "maxItems": MAX_POINTS,
    "items": {"type": "array", "prefixItems": [_NUMBER, _NUMBER, {"enum": [1, -1]}],
              "minItems": 3, "maxItems": 3},
    "description": "[[x1, x2, y], ...], y = ±1",
}  # fmt: skip
_RANGE = {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2}
_RANGES_SCHEMA = {"type": "object", "properties": {"x": _RANGE, "y": _RANGE},
                  "required": ["x", "y"], "additionalProperties": False}
Points = Annotated[tuple, PlainValidator(_points), WithJsonSchema(_POINTS_SCHEMA)]
#: the request's "settings": a JSON object, parsed into ui.shared.settings.Settings
SettingsJSON = Annotated[dict, PlainValidator(_settings), WithJsonSchema({
    "type": "object", "description": "the Playground's settings (ui.shared.settings."
    "Settings.parse; missing keys: defaults)"})]
Ranges = Annotated[tuple, PlainValidator(_ranges), WithJsonSchema(_RANGES_SCHEMA)]

#: Strict scalars (no "1" for 1, no true for 1); JSON arrays arrive as lists.
_STRICT = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)


class Warm(BaseModel):
    """The previous answer's points and α: the refit starts from them (``fit_request``)."""

    model_config = _STRICT
    points: Points
    alpha: list[StrictFloat]

    @model_validator(mode="after")
    def _one_alpha_per_point(self) -> Warm:
        if len(self.alpha) != len(self.points[0]):
            raise ValueError(f"alpha must be a list of {len(self.points[0])} numbers, one per "
                             "warm point")
        return self


class Style(BaseModel):
    """How the figure is drawn and what the answer leaves out (a teacher link's present
    mode, hidden support vectors and hidden parts; ``ui.playground.teacher.figure_options``)."""

    model_config = _STRICT
    scale: StrictFloat = Field(1.0, ge=1.0, le=SCALE_MAX)
    show_sv: StrictBool = True
    hide: tuple[HIDE, ...] = ()
    student: StrictBool = False  # the numbers panel without solver internals


class FitRequest(BaseModel):
    """A refit request (JSON). ``view``: the plot's axis ranges, h is sampled around them
    (default: around the points); ``home``: the ranges "reset axes" returns to (default:
    view); ``seq``: echoed in the answer."""

    model_config = _STRICT
    points: Points
    settings: SettingsJSON = Field(default_factory=dict, validate_default=True)
    view: Ranges | None = None
    home: Ranges | None = None
    warm: Warm | None = None
    seq: StrictInt | None = Field(None, ge=0, le=MAX_SEQ)
    style: Style = Style()


# ------------------------------------------------------------------------------- answer
# Built as a dict by fit_answer (no model instance per click: a click's fit takes ~0.1 ms);
# tests/test_fit_schema.py validates real answers against these models.

_OPEN = ConfigDict(extra="forbid")


class Line(BaseModel):
    model_config = _OPEN
    color: str | None
    width: float | None
    dash: str


class Grid(BaseModel):
    """h sampled on a grid: x and y are [start, stop, count]; h base64 float32 row-major."""

    model_config = _OPEN
    x: tuple[float, float, int]
    y: tuple[float, float, int]
    h: str


class Regions(BaseModel):
    model_config = _OPEN
    colorscale: list[tuple[float, str]]
    zmin: float
    zmax: float


class Rings(BaseModel):
    """One group of SV rings (free or bound): centres, sizes (by α/C), colour, line width."""

    model_config = _OPEN
    x: list[float]
    y: list[float]
    size: list[float]
    color: str
    width: float


class Font(BaseModel):
    model_config = ConfigDict(extra="allow")
    color: str
    size: float


class Slack(BaseModel):
    """Slack segments [x0, y0, x1, y1] and their ξ labels [x, y, text]."""

    model_config = _OPEN
    lines: list[tuple[float, float, float, float]]
    labels: list[tuple[float, float, str]]
    style: Line | None
    font: Font | None


class Mark(BaseModel):
    model_config = _OPEN
    size: float
    color: str
    width: float


class FitNumbers(BaseModel):
    """The fit's own numbers (the canvas keeps them for benchmarks: window.__svmlabPerf)."""

    model_config = _OPEN
    solver_ms: float
    n_iter: int
    converged: bool
    warm: bool  # the start actually used
    warm_gradient: bool  # the server still held the previous model: α and gradient reused


_MESSAGE = "why there is no model; with one: a warning (not converged), or empty"


class FitAnswer(BaseModel):
    """An answer: with ``ok`` false, ``kind``, ``message`` and at most the points' figure;
    with ``ok`` true the model's draw data. The fields ``style.hide`` takes out are optional."""

    model_config = _OPEN
    ok: bool
    kind: str = Field(description="ok, need_two_classes, not_separable, over_budget, busy, "
                                  "failed, ...")
    message: str = Field(description=_MESSAGE)
    seq: int | None = Field(None, description="the request's seq, echoed (for clients that "
                                              "pipeline requests: benchmarks/canvas_client.py)")
    server_ms: float
    figure: dict[str, Any] | None = Field(None, description="the Plotly figure; its shading "
                                          "and contours take x, y, z from grid")
    grid: Grid | None = None
    regions: Regions | None = None
    boundary: Line | None = None
    margins: Line | None = None
    rings: list[Rings] | None = None
    slack: Slack | None = None
    misclassified_mark: Mark | None = None
    free: list[int] | None = Field(None, description="free SVs: 0 < α < C")
    bound: list[int] | None = Field(None, description="bound SVs: α = C")
    slack_idx: list[int] | None = Field(None, description="points with ξ > 0")
    misclassified: list[int] | None = None
    alpha: list[float] | None = None
    h: list[float] | None = Field(None, description="h(xᵢ) per point")
    xi: list[float] | None = Field(None, description="ξᵢ per point")
    w_norm: float | None = Field(None, description="‖w‖: the table's δ = y·h(x)/‖w‖")
    category: list[str] | None = None
    panel: list[tuple[str, str]] | None = Field(None, description="the numbers panel's rows")
    fit: FitNumbers | None = None


def parse(body: Any) -> FitRequest:
    """The checked request; BadRequest naming the first bad field."""
    from pydantic import ValidationError

    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object with points and settings")
    try:
        return FitRequest.model_validate(body)
    except ValidationError as exc:
        raise BadRequest(_message(exc.errors(include_url=False))) from None


def _message(errors: list[dict]) -> str:
    """The first error as "field: what is wrong" (the browser's console and tests read it)."""
    e = errors[0]
    where = ".".join(str(p) for p in e["loc"])
    if e["type"] == "extra_forbidden":
        expected = ", ".join(_fields_at(e["loc"][:-1]))
        return f"unknown field: {where} (expected {expected})"
    if e["type"] == "missing":
        return f"{where} is missing"
    msg = e["msg"].removeprefix("Value error, ")
    got = "" if "got" in msg else f"; got {e.get('input')!r:.60}"
    return f"{where}: {msg}{got}"


def _fields_at(loc: tuple) -> list[str]:
    model: type[BaseModel] = FitRequest
    for part in loc:
        model = {"warm": Warm, "style": Style}.get(str(part), model)
    return list(model.model_fields)


def parse_style(value: Any) -> Style:
    """A figure style (``Style``) from a mapping (None: the defaults); BadRequest otherwise."""
    from pydantic import ValidationError

    try:
        return Style.model_validate(value or {})
    except ValidationError as exc:
        raise BadRequest("style: " + _message(exc.errors(include_url=False))) from None


def schema() -> dict:
    """The JSON Schema of the request and the answer (what ``fit_schema.json`` holds)."""
    return {"request": FitRequest.model_json_schema(mode="validation"),
            "answer": FitAnswer.model_json_schema(mode="validation")}


def schema_text() -> str:
    return json.dumps(schema(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


if __name__ == "__main__":
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}")
