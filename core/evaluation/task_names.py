"""The journal finder's two task names and how each queries its held-out papers, for the modules that format,
interval and run them (kept apart so that none of them imports another for a name)."""

from __future__ import annotations

JOURNAL_TASK, TITLE_TASK = "journals", "journals-title"
JOURNAL_TASKS: tuple[str, ...] = (JOURNAL_TASK, TITLE_TASK)
QUERIED_BY = {JOURNAL_TASK: "its title and abstract", TITLE_TASK: "its title alone"}  # the pages' words
