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

    def cache_keys(self, prefix: str) -> list[str]:
        """The keys that start with `prefix`, newest first."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self.connect() as conn:
            rows = conn.execute("SELECT key FROM cache WHERE key LIKE ? ESCAPE '\\' ORDER BY created DESC",
                                (pattern,)).fetchall()
        return [row[0] for row in rows]
