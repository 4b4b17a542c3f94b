"""The app listens on this machine only unless told otherwise (issue 41, item 6): `make run` and the Streamlit
configuration bind 127.0.0.1; serving to a network is the explicit `make run ADDRESS=0.0.0.0`, documented."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def test_the_streamlit_configuration_binds_the_loopback_address():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"


def test_make_run_serves_on_127_0_0_1_unless_an_address_is_given():
    def run_line(*args: str) -> str:
        done = subprocess.run(["make", "-n", "-C", str(ROOT), "-o", "demo", "run", *args], capture_output=True,
                              text=True, check=True)
        return next(line for line in done.stdout.splitlines() if "streamlit run" in line)

    assert re.search(r"--server\.address 127\.0\.0\.1\b", run_line())
    assert re.search(r"--server\.address 0\.0\.0\.0\b", run_line("ADDRESS=0.0.0.0"))


def test_the_readme_says_what_serving_to_a_network_exposes():
    readme = (ROOT / "README.md").read_text()
    assert "http://127.0.0.1:8501" in readme and "ADDRESS=0.0.0.0" in readme
    assert "no login" in readme.lower()
