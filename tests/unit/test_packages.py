"""The package layout: every public name resolves, packages import nothing heavy up front, data flows one way."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("io", "store", "embedding", "explore", "training", "evaluation")
# who may import whom (README "Layout"): data flows file -> io -> store -> embedding -> explore/evaluation
ALLOWED = {
    "io": set(),
    "store": {"io"},
    "embedding": {"store", "io"},
    "explore": {"embedding", "store", "io"},
    "training": {"embedding", "store", "io", "evaluation"},  # validation uses the evaluation metrics
    "evaluation": {"embedding", "explore", "store", "io"},
}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_of_a_package_resolves(package):
    import importlib

    module = importlib.import_module(f"core.{package}")
    assert module.__doc__ and len(module.__all__) > 0
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_importing_every_package_loads_no_heavy_library():
    code = ("import sys, core.io, core.store, core.embedding, core.explore, core.training, core.evaluation; "
            "print(sorted(m for m in ('torch', 'transformers', 'umap', 'sklearn', 'faiss', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _core_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("core."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"relative import in {path}")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_the_packages_upstream_of_it(package):
    for path in (ROOT / "core" / package).glob("*.py"):
        others = _core_imports(path) & set(PACKAGES) - {package}
        assert others <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {sorted(others - ALLOWED[package])}"


def test_no_core_module_imports_streamlit_or_grows_past_400_lines():
    for path in (ROOT / "core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import streamlit" not in text, path
        assert text.count("\n") <= 400, f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines"


def test_heavy_libraries_import_safely_from_several_threads_at_once():
    """A fresh server imports umap in a background map thread while the page imports sklearn for PCA."""
    code = """
import threading
from core.lazy import heavy
errors = []
def load(name):
    try:
        heavy(name)
    except Exception as exc:
        errors.append(repr(exc))
names = ["umap", "sklearn.decomposition", "sklearn.cluster", "sklearn.manifold"] * 2
threads = [threading.Thread(target=load, args=(n,)) for n in names]
[t.start() for t in threads]
[t.join() for t in threads]
print(errors)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
