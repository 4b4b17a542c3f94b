"""Saved (fine-tuned) models: their specs, by name."""

from __future__ import annotations

import json
import time
from typing import Any


class ModelsMixin:
    """The `Store` methods for the saved-models table."""

    def save_model(self, name: str, spec: dict[str, Any]) -> None:
        with self.connect() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO models(name, spec, created) VALUES (?, ?, ?)",
                (name, json.dumps(spec), time.time()),
            )

    def saved_models(self) -> list[dict[str, Any]]:
        with self.connect() as conn:
            rows = conn.execute("SELECT name, spec FROM models ORDER BY created").fetchall()
        return [dict(json.loads(r["spec"]), name=r["name"]) for r in rows]
