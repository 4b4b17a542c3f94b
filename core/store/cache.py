"""A small key/value cache of JSON values (maps, evaluation results)."""

from __future__ import annotations

import json
import time
from typing import Any


class CacheMixin:
    """The `Store` methods for the cache table."""

    def cache_get(self, key: str) -> Any | None:
        with self.connect() as conn:
            row = conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def cache_put(self, key: str, value: Any) -> None:
        with self.connect() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO cache(key, value, created) VALUES (?, ?, ?)",
                (key, json.dumps(value), time.time()),
            )
