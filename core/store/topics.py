"""Names users give to topics (clusters) of a map, per corpus, model, clustering and level."""

from __future__ import annotations

import time

from core.errors import StoreError
from core.store.files import check_printable

SCHEMA = """
CREATE TABLE IF NOT EXISTS topic_names (
    corpus TEXT, model TEXT, clustering TEXT, level TEXT, cluster INTEGER, name TEXT, updated REAL,
    PRIMARY KEY (corpus, model, clustering, level, cluster)
);
"""
MAX_NAME = 80


class TopicsMixin:
    """The `Store` methods for topic names."""

    def topic_names(self, corpus: str, model: str, clustering: str, level: str) -> dict[int, str]:
        """The names given to clusters of one level of one clustering (cluster -> name)."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT cluster, name FROM topic_names WHERE corpus = ? AND model = ? AND clustering = ? "
                "AND level = ?", (corpus, model, clustering, level)).fetchall()
        return {int(r["cluster"]): r["name"] for r in rows}

    def rename_topic(self, corpus: str, model: str, clustering: str, level: str, cluster: int, name: str) -> str:
        """Give a cluster a name (an empty name goes back to its keywords); the name as stored."""
        self.corpus(corpus)  # an unknown corpus says so
        name = " ".join(str(name or "").split())
        if len(name) > MAX_NAME:
            raise StoreError(f"a topic name may have at most {MAX_NAME} characters, this one has {len(name)}")
        check_printable(name, "a topic name")
        with self.transaction() as conn:
            conn.execute("DELETE FROM topic_names WHERE corpus = ? AND model = ? AND clustering = ? AND level = ? "
                         "AND cluster = ?", (corpus, model, clustering, level, int(cluster)))
            if name:
                conn.execute("INSERT INTO topic_names VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (corpus, model, clustering, level, int(cluster), name, time.time()))
        return name
