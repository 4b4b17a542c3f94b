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
    "training": {"embedding", "store", "io", "evaluation", "explore"},  # validation uses the evaluation metrics; the
    # job kinds (core/training/job_kinds.py) name the map fit (core/explore/maps/job.py) beside embedding
    "evaluation": {"embedding", "explore", "store", "io"},
}
# the two floors above the packages: figures draw what the packages compute; the CLI may use all of core
FLOORS = ("plots", "cli", "mcp")  # mcp: the MCP server over the library (issue 33), a sibling of the CLI
# the modules at core's root: the ground floor every package stands on, and the demo (an entry point like the CLI)
ROOT_MAY_IMPORT = {"config": set(), "errors": set(), "lazy": set(), "records": set(), "labels": set(), "eta": set(),
                   "text_evidence": set(), "journal_forms": set(), "journal_identity": {"journal_forms"},
                   "frames": set(),
                   "display": {"labels", "records"}, "demo": {"config", "embedding", "errors", "explore", "io", "records", "store"},
                   "__init__": set(), "__main__": {"cli"}}
# the UI: routes (app_pages/) use page helpers (ui/) and core; helpers never import a route; neither imports the CLI
UI_MAY_IMPORT = {"app_pages": {"core", "ui"}, "ui": {"core", "ui"}}
PLOTS_MAY_IMPORT = {"errors", "labels", "display", "lazy", "plots"}


@pytest.mark.parametrize("package", PACKAGES + ("plots",))
def test_every_public_name_of_a_package_resolves(package):
    import importlib

    module = importlib.import_module(f"core.{package}")
    assert module.__doc__ and len(module.__all__) > 0
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_importing_every_package_loads_no_heavy_library():
    code = ("import sys, core.io, core.store, core.embedding, core.explore, core.training, core.evaluation, core.plots; "
            "print(sorted(m for m in ('torch', 'transformers', 'umap', 'sklearn', 'faiss', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _imported_modules(path: Path) -> set[str]:
    """The dotted names a file imports from (module level or inside functions), `core.x` for `from core import x`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"relative import in {path}")
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # a submodule imported by name
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _core_imports(path: Path) -> set[str]:
    """The first-level parts of core a file imports: packages ("store") and root modules ("errors")."""
    return {name.split(".")[1] for name in _imported_modules(path) if name.startswith("core.")}


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_the_packages_upstream_of_it(package):
    for path in (ROOT / "core" / package).glob("*.py"):
        others = _core_imports(path) & (set(PACKAGES) | set(FLOORS)) - {package}
        assert others <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {sorted(others - ALLOWED[package])}"


def test_figures_import_nothing_of_core_but_errors_labels_and_display():
    for path in (ROOT / "core" / "plots").glob("*.py"):
        others = _core_imports(path) - PLOTS_MAY_IMPORT
        assert not others, f"{path.relative_to(ROOT)} imports {sorted(others)}"


def test_no_module_outside_the_cli_imports_it():
    for path in (ROOT / "core").rglob("*.py"):
        if path.relative_to(ROOT / "core").parts[0] not in ("cli", "__main__.py"):
            assert "cli" not in _core_imports(path), path.relative_to(ROOT)


def test_only_the_cli_command_imports_the_mcp_server():
    for path in (ROOT / "core").rglob("*.py"):
        if path.relative_to(ROOT / "core").parts[0] != "mcp" and path != ROOT / "core" / "cli" / "mcp.py":
            assert "mcp" not in _core_imports(path), path.relative_to(ROOT)


def test_the_cli_never_imports_streamlit():
    for path in [*(ROOT / "core" / "cli").glob("*.py"), *(ROOT / "core" / "mcp").glob("*.py")]:
        assert "streamlit" not in {name.split(".")[0] for name in _imported_modules(path)}, path.relative_to(ROOT)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _circles() -> set[tuple[str, str]]:
    """Pairs of core modules that import each other (a package's lazy facade imports none of its modules)."""
    modules = {_module_name(path): path for path in (ROOT / "core").rglob("*.py")}
    edges = {name: {m for m in _imported_modules(path) if m in modules and m != name} for name, path in modules.items()}
    return {tuple(sorted((a, b))) for a, targets in edges.items() for b in targets if a in edges.get(b, set())}


def test_no_two_modules_of_plots_or_the_cli_import_each_other():
    floors = {pair for pair in _circles() if any(m.split(".")[1] in FLOORS for m in pair)}
    assert not floors, sorted(floors)


def test_no_two_core_modules_import_each_other():
    assert not _circles(), sorted(_circles())


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


def test_the_settings_module_imports_no_core_package():
    """core/config.py sits under every package (issue 30: device_label moved to core.embedding.device)."""
    assert not _core_imports(ROOT / "core" / "config.py") - {"errors"}


def _top_imports(path: Path) -> set[str]:
    """The project's top-level packages a file imports (core, ui, app_pages)."""
    return {name.split(".")[0] for name in _imported_modules(path)} & {"core", "ui", "app_pages"}


def test_every_module_falls_under_a_layering_rule():
    """Every .py of the app is in a package above, a floor, the root of core, or the UI: none escapes the rules."""
    groups = set(PACKAGES) | set(FLOORS)
    for path in (ROOT / "core").rglob("*.py"):
        parts = path.relative_to(ROOT / "core").parts
        assert parts[0] in groups or (len(parts) == 1 and path.stem in ROOT_MAY_IMPORT), path.relative_to(ROOT)
    for folder in UI_MAY_IMPORT:
        assert list((ROOT / folder).glob("*.py")), folder


@pytest.mark.parametrize("name", sorted(ROOT_MAY_IMPORT))
def test_the_root_modules_of_core_import_only_what_they_stand_on(name):
    path = ROOT / "core" / f"{name}.py"
    assert _core_imports(path) <= ROOT_MAY_IMPORT[name], f"core/{name}.py imports {sorted(_core_imports(path))}"


@pytest.mark.parametrize("folder", sorted(UI_MAY_IMPORT))
def test_the_ui_imports_core_and_its_helpers_never_a_route_nor_the_cli(folder):
    for path in (ROOT / folder).rglob("*.py"):
        assert _top_imports(path) <= UI_MAY_IMPORT[folder], path.relative_to(ROOT)
        assert "cli" not in _core_imports(path), path.relative_to(ROOT)


def test_core_never_imports_the_ui():
    for path in (ROOT / "core").rglob("*.py"):
        assert not _top_imports(path) - {"core"}, path.relative_to(ROOT)


def test_no_two_ui_modules_import_each_other():
    modules = {_module_name(path): path for folder in UI_MAY_IMPORT for path in (ROOT / folder).rglob("*.py")}
    edges = {name: {m for m in _imported_modules(path) if m in modules and m != name} for name, path in modules.items()}
    pairs = {tuple(sorted((a, b))) for a, targets in edges.items() for b in targets if a in edges.get(b, set())}
    assert not pairs, sorted(pairs)
