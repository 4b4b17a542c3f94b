"""How often the text-encoding detection (core.io.safety.text_encoding) is right on files saved by Excel on Windows
or a classic Mac: five shared exports (../shared/data/exports) re-encoded as Windows-1252, Latin-1 and Mac Roman
(characters an encoding lacks become '?', as Excel writes them). Right = the file's bytes, decoded in the encoding
detected, give the re-encoded text exactly (Latin-1 text read as Windows-1252 is right: no byte in 0x80-0x9F).

    .venv/bin/python benchmarks/bench_encodings.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from core.io.safety import text_encoding

EXPORTS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "exports"
FILES = ("CSV/_baseline_scopus.csv", "CSV/_baseline_embase.csv", "CSV/_baseline_cinahl.csv",
         "TSV/_baseline_refworks.tsv", "CSV/_baseline.csv")


def main(exports: Path = EXPORTS) -> None:
    """Print one line per re-encoded file and the count right."""
    right = total = 0
    with tempfile.TemporaryDirectory() as folder:
        for name in FILES:
            text = (exports / name).read_text(encoding="utf-8-sig")
            for encoding in ("cp1252", "latin_1", "mac_roman"):
                data = text.encode(encoding, "replace")
                path = Path(folder) / f"{encoding}_{Path(name).name}"
                path.write_bytes(data)
                found = text_encoding(path)
                ok = data.decode(found) == data.decode(encoding)
                right, total = right + ok, total + 1
                print(f"{name:30s} {encoding:10s} -> {found:10s} {'right' if ok else 'WRONG'} "
                      f"({sum(b > 127 for b in data)} bytes over 127)")
    print(f"{right}/{total} right")


if __name__ == "__main__":
    import sys

    main(Path(sys.argv[1]) if len(sys.argv) > 1 else EXPORTS)
