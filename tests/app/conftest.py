"""AppTest runs keep what the map's heavy instances were sent, as the browser does (tests/app/map_component.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.map_component import remember_points


@pytest.fixture(autouse=True)
def _browser_keeps_map_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each AppTest run's heavy map data is kept by key, so a run that sends the meta alone still has its points."""
    run = AppTest._run

    def remembering(self: AppTest, *args, **kwargs) -> AppTest:
        result = run(self, *args, **kwargs)
        remember_points(self)
        return result

    monkeypatch.setattr(AppTest, "_run", remembering)
