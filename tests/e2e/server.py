"""Start `streamlit run app.py` on a free localhost port and drive it with Playwright + Debian chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TINY_ENV = {"MIREAD_WARM_NUMBA": "0", "MIREAD_DEVICE": "cpu", "MIREAD_MODEL": "tiny"}  # a server on the tiny model, no warm-up

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def streamlit_server(workspace: Path, env: dict[str, str] | None = None, timeout: float = 90,
                     app_root: Path = ROOT, log_path: Path | None = None):
    """Yield the base URL of a running app (the checkout at `app_root`) on `workspace`; stop it afterwards. Its output
    goes to `log_path` (default: streamlit-PORT.log beside the workspace)."""
    port = free_port()
    full_env = {**os.environ, "MIREAD_WORKSPACE": str(workspace), "HF_HUB_OFFLINE": "1",
                "PYTHONPATH": str(app_root), **(env or {})}
    log = open(log_path or Path(workspace).parent / f"streamlit-{port}.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=app_root, env=full_env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"streamlit did not start; see {log.name}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def wait_idle(page, timeout: float = 120_000) -> None:
    """Wait until the app has rendered its navigation and the script has finished running."""
    page.wait_for_selector("[data-testid=stSidebarNav] >> text=Domain map", timeout=timeout)
    page.wait_for_timeout(500)
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_timeout(500)
    page.wait_for_selector(IDLE, timeout=timeout)
