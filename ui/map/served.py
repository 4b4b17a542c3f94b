"""The map's bundle served by path, not inline (issue 42, BENCHMARKS §31aa).

A components-v2 element made with inline `js` carries the whole script (the map's bundle: ~490 KB) in its message,
in every instance, on every page: the browser hashes it, makes a blob URL of it and compiles it again each time. Made
with a path under the component's asset directory, the element carries the path alone; the browser loads the script
from `/_stcore/bidi-components/<name>/<file>` (the app's own server, `Cache-Control: public`): once per page for all
instances, from its HTTP cache and with V8's code cache on the next.

Streamlit finds a component's asset directory in the `pyproject.toml` of an installed package; the app is not one,
so `served_component` declares the directory to the runtime's component manager the same way (a manifest) before
the component is made or mounted. A Streamlit without that machinery gets the script inline, as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.logger import get_logger

_LOG = get_logger(__name__)
ROOT = Path(__file__).resolve().parents[2]  # the manifest's package root: the repository


def declare_asset_dir(name: str, directory: Path) -> bool:
    """Declare `directory` (under the repository) the asset directory of the component `name` ("package.component")
    on the running Streamlit runtime's component manager, once per runtime. False where there is no runtime or this
    Streamlit lacks the manifest API."""
    try:
        from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
        from streamlit.runtime import Runtime
    except ImportError:
        return False
    if not Runtime.exists():
        return False
    manager = Runtime.instance().bidi_component_registry
    try:
        if manager.get_component_asset_root(name) is None:
            package, _, component = name.partition(".")
            asset_dir = directory.resolve().relative_to(ROOT).as_posix()
            manifest = ComponentManifest(name=package, version="0",
                                         components=[ComponentConfig(name=component, asset_dir=asset_dir)])
            manager.register_from_manifest(manifest, ROOT)
        return manager.get_component_asset_root(name) is not None
    except Exception as error:  # a Streamlit whose manifest machinery differs: the inline script still works
        _LOG.warning("the map's bundle goes inline: %s", error)
        return False


class ServedComponent:
    """A components-v2 component whose script is served by path when the runtime allows it, inline otherwise.
    Callable like the component itself; the asset directory is declared on each runtime before a mount (AppTest
    makes a runtime per test, each with its own component manager)."""

    def __init__(self, name: str, script: Path) -> None:
        self.name, self.script = name, script
        self._made: Any = None
        self.served = False

    def _component(self) -> Any:
        served = declare_asset_dir(self.name, self.script.parent)
        if self._made is None or served != self.served:
            js = self.script.name if served else self.script.read_text(encoding="utf-8")
            self._made, self.served = st.components.v2.component(self.name, js=js), served
        return self._made

    def __call__(self, **kwargs: Any) -> Any:
        return self._component()(**kwargs)
