"""Settings own configuration: every variable is read in core/config.py and listed in the README."""

from __future__ import annotations

import re
from pathlib import Path

from core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
READS = re.compile(r"""os\.environ(?:\.get)?\s*[(\[]\s*["']([A-Z_]+)["']|os\.getenv\(\s*["']([A-Z_]+)["']""")


def _sources() -> list[Path]:
    return [p for d in ("core", "app_pages", "ui") for p in (ROOT / d).rglob("*.py")] + [ROOT / "app.py"]


def test_no_module_but_the_settings_reads_an_environment_variable():
    readers = {str(p.relative_to(ROOT)) for p in _sources() if READS.search(p.read_text(encoding="utf-8"))}
    # child processes (training workers, an import's reading process) get theirs from config.child_environment
    assert readers <= {"core/config.py"}, readers


def test_every_variable_the_settings_read_is_in_the_readme_table():
    source = (ROOT / "core" / "config.py").read_text(encoding="utf-8")
    names = {a or b for a, b in READS.findall(source)} | set(re.findall(r'_env_(?:int|flag)\("([A-Z_]+)"', source))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(names) >= 12
    assert not [n for n in names if f"`{n}`" not in readme]


def test_settings_read_their_variables(monkeypatch):
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    monkeypatch.setenv("MIREAD_MAX_EXPANDED_BYTES", "1234")
    monkeypatch.setenv("MIREAD_FAST_CPU", " ON ")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("MIREAD_DEBUG", raising=False)
    s = Settings()
    assert (s.warm_numba, s.max_expanded_bytes, s.fast_cpu, s.hub_offline, s.debug) == (False, 1234, "on", True, False)


def test_the_device_label_names_the_cpu_cores():
    import os

    from core.embedding import device_label

    assert device_label("cpu").startswith(f"CPU ({os.cpu_count()} cores)")
