"""The step player's record of an SMO run, defined once: what the server sends per step and per
state, each field's name, its typed-array dtype and its meaning. ``player.player_payload``
encodes these dataclasses field by field (``encode``); the browser decodes the fields
``step_player_state.js`` lists in STEP_FIELDS and CURVE_FIELDS, and tests/js/step_cases.json
(``json_schema()``, written by tests/js/step_cases.py) holds the two together: a node test
fails when the JS list and this schema disagree.

Dtypes: "f8"/"f4" little-endian floats, "u1" bytes, "index" the smallest unsigned type that holds
an index of the run ("u2" up to 65,535 points, else "i4").
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

INDEX = "index"


def _f(dtype: str, doc: str):
    return field(metadata={"dtype": dtype, "doc": doc})


@dataclass(frozen=True)
class StepArrays:
    """Per step t = 1..T (length T; ``a_new`` 2T)."""

    i: np.ndarray = _f(INDEX, "i of the pair (0-based)")
    j: np.ndarray = _f(INDEX, "j of the pair (0-based)")
    a_new: np.ndarray = _f("f8", "(αᵢ, αⱼ) after the step, interleaved: the replay assigns them")
    aj_unc: np.ndarray = _f("f4", "the unclipped αⱼ (display only)")
    L: np.ndarray = _f("f4", "the segment's lower end L of αⱼ")
    H: np.ndarray = _f("f4", "the segment's upper end H of αⱼ (∞: a ray)")
    eta: np.ndarray = _f("f4", "η = K̃ᵢᵢ + K̃ⱼⱼ − 2K̃ᵢⱼ")
    Ei: np.ndarray = _f("f4", "Eᵢ = h(xᵢ) − yᵢ with the b before the step")
    Ej: np.ndarray = _f("f4", "Eⱼ = h(xⱼ) − yⱼ with the b before the step")
    flags: np.ndarray = _f("u1", "1: αⱼ was clipped to [L, H]; 2: an α hit 0 or C")


@dataclass(frozen=True)
class CurveArrays:
    """Per state k = 0..T (length T + 1; NaN = ∞)."""

    b: np.ndarray = _f("f8", "the bias b (it enters h)")
    dual: np.ndarray = _f("f4", "the dual objective")
    primal: np.ndarray = _f("f4", "the primal objective (NaN: ∞, a violated hard margin)")
    kkt: np.ndarray = _f("f4", "m(α) − M(α)")


#: the payload's keys of the two records
RECORDS = {"steps": StepArrays, "curve": CurveArrays}


def encode(record, typed, index_dtype: str) -> dict:
    """{field: typed(array, dtype)} for every field of ``record`` (``typed``: player.typed)."""
    return {f.name: typed(getattr(record, f.name),
                          index_dtype if f.metadata["dtype"] == INDEX else f.metadata["dtype"])
            for f in fields(record)}


def json_schema() -> dict:
    """The two records as JSON Schema (draft 2020-12): each field a typed array
    {"dtype", "bdata"} whose dtype is the field's."""
    def prop(f):
        dtypes = ["u2", "i4"] if f.metadata["dtype"] == INDEX else [f.metadata["dtype"]]
        return {"description": f.metadata["doc"], "type": "object", "required": ["dtype", "bdata"],
                "properties": {"dtype": {"enum": dtypes}, "bdata": {"type": "string"}}}

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "SVM Lab step player: the per-step and per-state records of an SMO run",
        "type": "object",
        "required": list(RECORDS),
        "properties": {
            key: {"description": cls.__doc__, "type": "object", "additionalProperties": False,
                  "required": [f.name for f in fields(cls)],
                  "properties": {f.name: prop(f) for f in fields(cls)}}
            for key, cls in RECORDS.items()
        },
    }
