"""Settings for the core: workspace, default model, device, batch size, max length (env overrides)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value and value.strip().isdigit() else default


def _env_flag(name: str, default: bool) -> bool:
    """A yes/no variable: unset -> default; '0', 'false', 'no', 'off' or empty -> False; anything else -> True."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def _env_bytes_or_off(name: str, default: int) -> int | None:
    """A size in bytes: unset or malformed -> default; 'off', 'never' or a negative number -> None (never)."""
    value = (os.environ.get(name) or "").strip().lower()
    if value in ("off", "never") or value.startswith("-"):
        return None
    return int(value) if value.isdigit() else default


@dataclass
class Settings:
    """Runtime settings; every field can be overridden by a MIREAD_* environment variable."""

    workspace: Path = field(default_factory=lambda: Path(os.environ.get("MIREAD_WORKSPACE", "workspace")))
    default_model: str = field(default_factory=lambda: os.environ.get("MIREAD_MODEL", "minilm"))
    device: str = field(default_factory=lambda: os.environ.get("MIREAD_DEVICE", "auto"))
    batch_size: int = field(default_factory=lambda: _env_int("MIREAD_BATCH_SIZE", 32))
    max_length: int = field(default_factory=lambda: _env_int("MIREAD_MAX_LENGTH", 256))
    exact_search_limit: int = field(default_factory=lambda: _env_int("MIREAD_EXACT_SEARCH_LIMIT", 50_000))
    # above this many vectors search uses compressed IVF-PQ codes + exact re-ranking from the matrix file on disk
    compressed_search_above: int = field(default_factory=lambda: _env_int("MIREAD_COMPRESSED_SEARCH_ABOVE", 2_000_000))
    # UMAP/t-SNE maps of bigger corpora are fitted on a seeded sample this size, the rest placed from neighbours
    map_fit_sample: int = field(default_factory=lambda: _env_int("MIREAD_MAP_FIT_SAMPLE", 200_000))
    # maps of more papers than this open as a density overview with the papers of the zoomed window drawn on it
    map_draw_limit: int = field(default_factory=lambda: _env_int("MIREAD_MAP_DRAW_LIMIT", 2_000_000))
    # who draws a large map's points: 'auto' (on the CPU when the browser's WebGL is software and the map large,
    # frontend/map/src/raster.js), 'cpu' or 'gl' at any size
    map_raster: str = field(default_factory=lambda: os.environ.get("MIREAD_MAP_RASTER", "auto").strip().lower())
    # a played time map draws its faded papers as one picture from this many drawn papers on (0: always)
    map_picture_above: int = field(default_factory=lambda: _env_int("MIREAD_MAP_PICTURE_ABOVE", 20_000))
    compressed_opq: bool = field(default_factory=lambda: _env_flag("MIREAD_COMPRESSED_OPQ", False))  # OPQ rotation
    # bf16/int8 CPU encoding: 'auto' (where the CPU runs bf16 natively), '1'/'on', '0'/'off'
    fast_cpu: str = field(default_factory=lambda: os.environ.get("MIREAD_FAST_CPU", "auto").strip().lower())
    # the most bytes a gzip upload may expand to (gzip-bomb guard)
    max_expanded_bytes: int = field(default_factory=lambda: _env_int("MIREAD_MAX_EXPANDED_BYTES", 8 * 2**30))
    # import files of at least this many bytes (CSV/TSV/JSONL) are read in a second process; 'off': never
    read_process_above: int | None = field(
        default_factory=lambda: _env_bytes_or_off("MIREAD_READ_PROCESS_ABOVE", 16 * 2**20))
    # compile UMAP's numba kernels in the background after the first page
    warm_numba: bool = field(default_factory=lambda: _env_flag("MIREAD_WARM_NUMBA", True))
    # never download from the Hugging Face hub (transformers' own variable; the Makefile sets it)
    hub_offline: bool = field(default_factory=lambda: _env_flag("HF_HUB_OFFLINE", False))
    debug: bool = field(default_factory=lambda: _env_flag("MIREAD_DEBUG", False))  # CLI: tracebacks for bugs
    # the bearer token the MCP server's HTTP transport asks for (`mcp --http PORT`; `--token` overrides)
    mcp_token: str | None = field(default_factory=lambda: os.environ.get("MIREAD_MCP_TOKEN", "").strip() or None)
    timing: bool = field(default_factory=lambda: _env_flag("MIREAD_TIMING", False))  # CLI: print each command's time
    demo_corpus: str = "pubmed-demo"


CODE_ROOT = Path(__file__).resolve().parents[1]  # the folder holding the `core` package


def child_environment() -> dict[str, str]:
    """The environment of a process the core starts (a training worker, an import's reading process): this one's,
    with the code's folder first on PYTHONPATH so ``python -m core...`` finds it from any working directory."""
    env = dict(os.environ)  # passed on whole: not configuration read here
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CODE_ROOT), env.get("PYTHONPATH")]))
    return env


def resolve_device(requested: str = "auto") -> str:
    """Return 'cuda' when asked for (or 'auto' and a GPU is present), else 'cpu'."""
    if requested not in ("auto", "cuda", "cpu") and not requested.startswith("cuda:"):
        return "cpu"
    if requested == "cpu" or (requested == "auto" and not _may_have_nvidia_gpu()):
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda" if requested == "auto" else requested
    return "cpu"


def _may_have_nvidia_gpu() -> bool:
    """False only where Linux shows no NVIDIA driver: then 'auto' is the CPU without importing torch (~2 s)."""
    if not sys.platform.startswith("linux"):
        return True
    return any(Path(p).exists() for p in ("/proc/driver/nvidia/version", "/dev/nvidia0", "/dev/nvidiactl"))
