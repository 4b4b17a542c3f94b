"""The Streamlit options the repository's .streamlit/config.toml sets, as `make run` reads them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from streamlit import config

ROOT = Path(__file__).resolve().parents[2]


def repo_option(name: str) -> Any:
    """Option `name` as Streamlit reads it when started in the repository's folder (then read back as before)."""
    here = os.getcwd()
    os.chdir(ROOT)  # Streamlit reads .streamlit/config.toml from the folder it is started in (`make run`)
    try:
        config.get_config_options(force_reparse=True)
        return config.get_option(name)
    finally:
        os.chdir(here)
        config.get_config_options(force_reparse=True)
