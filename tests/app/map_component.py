"""Read what the Domain map component was sent in an AppTest run: the heavy instance's points table and the light
instances' state, decoded as the browser gets them (JSON, Arrow tables as pandas frames)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from ui.map.packing import unpack

ARROW_REF = "__streamlit_arrow_ref__"


def _decode(proto: Any, kept: dict | None = None) -> dict:
    if proto.WhichOneof("data") == "bytes":  # the heavy instance's packed meta and points (ui/map/packing.py)
        meta, table = unpack(proto.bytes)
        mark = (meta.get("hub", "map"), meta.get("role"), meta["key"])
        if table is None:  # the meta alone: the browser draws the points it was sent before under this key
            return {"meta": meta, "points": (kept or {}).get(mark), "bytes": len(proto.bytes)}
        if kept is not None:
            kept[mark] = table.to_pandas()
            return {"meta": meta, "points": kept[mark], "bytes": len(proto.bytes)}
        return {"meta": meta, "points": table.to_pandas(), "bytes": len(proto.bytes)}
    if proto.mixed.json:
        data = json.loads(proto.mixed.json)
        blobs = {ref: pa.ipc.open_stream(blob.data).read_all().to_pandas()
                 for ref, blob in proto.mixed.arrow_blobs.items()}
        return {k: blobs[v[ARROW_REF]] if isinstance(v, dict) and ARROW_REF in v else v for k, v in data.items()}
    return json.loads(proto.json) if proto.json else {}


def remember_points(at: AppTest) -> None:
    """Keep what this run sent the heavy instances, as the browser keeps it under the map's key: a later run that
    sends their meta alone (`kept`, ui/map/component.py) still reads its points (tests/app/conftest.py, each run)."""
    kept = at.__dict__.setdefault("_map_kept", {})
    for element in at.get("bidi_component"):
        if element.proto.component_name.endswith("miread_map"):
            _decode(element.proto, kept)


def map_sent(at: AppTest, hub: str = "map") -> dict:
    """{"points": DataFrame, "meta": …, "page": {state, codes, mask, rings}, "events": {state}} of this run, for the
    map whose registry entry is `hub` (the Domain map's by default). The points hold the hover text too, as the
    browser joins it (`text`: the text instance's table alone, when sent)."""
    out: dict[str, Any] = {}
    kept = at.__dict__.setdefault("_map_kept", {})  # what this AppTest's "browser" was sent, by map key (as index.js)
    for element in at.get("bidi_component"):
        proto = element.proto
        if not proto.component_name.endswith(("miread_map", "miread_map_control")):
            continue
        data = _decode(proto, kept)
        if proto.component_name.endswith("miread_map"):
            if data["meta"].get("role") == "list":  # the selection's list (its figures by row), drawn in the browser
                if data["meta"].get("hub", "map") == hub:
                    out["list"] = data
            elif data["meta"].get("role") == "text":  # the hover text, its own instance after the state (§31u)
                if data["meta"].get("hub", "map") == hub:
                    out["text"], out["text_key"] = data["points"], data["meta"]["key"]
                    out["text_bytes"] = data.get("bytes")
            elif data["meta"].get("hub", "map") == hub:
                out["points"], out["meta"], out["bytes"] = data["points"], data["meta"], data.get("bytes")
                if "density" in data:  # a density overview's grid (ui/map/overview.py)
                    out["density"] = data["density"]
        elif data.get("role") and data.get("hub") == hub:
            out[data["role"]] = data
    if out.get("text") is not None and out.get("points") is not None and out["text_key"] == out["meta"]["key"]:  # the card's text, as the
        out["points"] = pd.concat([out["points"], out["text"]], axis=1)  # browser joins it to the points (takeText)
    return out


def highlighted_rows(sent: dict) -> list[int]:
    """The rows a map's page state highlighted (`map_sent`'s bitmask, unpacked; [] when nothing is)."""
    bits = column(sent["page"], "mask")
    if bits is None:
        return []
    return np.flatnonzero(np.unpackbits(bits.astype(np.uint8))[:len(sent["points"])]).tolist()


def column(data: dict, name: str) -> np.ndarray | None:
    """A 1-D array the page sent (an Arrow table of one column)."""
    value = data.get(name)
    if value is None:
        return None
    return value.iloc[:, 0].to_numpy() if isinstance(value, pd.DataFrame) else np.asarray(value)


def card_years(sent: dict) -> list[str]:
    """Each paper's year as its map card reads it: the browser makes it from the one year number sent
    (`MapView.cardText` in frontend/map/src/index.js: rounded, '' for none; BENCHMARKS §31m)."""
    years = sent["points"]["yearnum"].to_numpy(dtype=float)
    return ["" if np.isnan(y) else str(round(y)) for y in years]


def legend_names(at: AppTest) -> list[str]:
    """The map's legend labels, in order."""
    return [entry["label"] for entry in map_sent(at)["page"]["state"]["legend"]]
