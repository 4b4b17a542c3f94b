#!/usr/bin/env bash
# Packs what benchmarks/gpu_session.sh needs into .gpu/ (ignored by git; the device tool carries it), within the
# 64 MiB a call may send: the packaged MiniLM with fp16 weights (45 MB instead of 91), arxiv_journals recompressed
# with xz (9.9 MB instead of 15.8), arxiv_categories with only the rows the objectives' seeds 0-2 draw kept whole
# (same length, so the same draws), medical_abstracts as it is, and the orjson wheel for the image's Python 3.12.
# (vocab.txt stays behind: the fast tokenizer reads tokenizer.json.)
#   bash benchmarks/gpu_pack.sh && grep -qx '/.gpu/' .git/info/exclude || echo '/.gpu/' >> .git/info/exclude
set -eu
DATA=${MIREAD_BENCH_DATA:-../shared/data}
PY=${PY:-.venv/bin/python}
mkdir -p .gpu/data .gpu/minilm16 .gpu/whl
xz -9e -T2 -c <(zcat "$DATA/arxiv_journals.jsonl.gz") > .gpu/data/arxiv_journals.jsonl.xz
cp "$DATA/medical_abstracts.jsonl.gz" .gpu/data/
"$PY" - "$DATA" <<'EOF'
import gzip, json, shutil, sys
from pathlib import Path

import numpy as np
from safetensors.torch import load_file, save_file

from core.embedding.models import packaged_model_path

data, model = Path(sys.argv[1]), Path(packaged_model_path())
rows = [json.loads(line) for line in gzip.open(data / "arxiv_categories.jsonl.gz", "rt")]
keep = set()
for seed in (0, 1, 2):  # objectives.py's draw of the transfer papers
    keep |= set(np.random.default_rng([seed, 1]).permutation(len(rows))[:1500].tolist())
with gzip.open(".gpu/data/arxiv_categories.jsonl.gz", "wt", compresslevel=9) as out:
    for i, r in enumerate(rows):
        out.write(json.dumps(r if i in keep else {"id": r["id"], "title": "", "abstract": "", "category": "",
                                                  "field": ""}) + "\n")
for name in ("1_Pooling", "config.json", "config_sentence_transformers.json", "modules.json",
             "sentence_bert_config.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"):
    (shutil.copytree if (model / name).is_dir() else shutil.copy)(model / name, Path(".gpu/minilm16") / name)
weights = load_file(model / "model.safetensors")
save_file({k: v.half() if v.is_floating_point() else v for k, v in weights.items()},
          ".gpu/minilm16/model.safetensors", metadata={"format": "pt"})
# The fp16 file as its header and two xz'd byte planes (high bytes compress to 16 MB, low to 23): 39 MB, not 45,
# which keeps the working tree and .gpu/ together under the 64 MiB a call carries. gpu_session.sh joins them.
import lzma, struct
raw = Path(".gpu/minilm16/model.safetensors").read_bytes()
head = 8 + struct.unpack("<Q", raw[:8])[0]
body = np.frombuffer(raw[head:], dtype=np.uint8).reshape(-1, 2)
Path(".gpu/minilm16/model.head").write_bytes(raw[:head])
for plane, name in ((0, "lo"), (1, "hi")):
    Path(f".gpu/minilm16/model.{name}.xz").write_bytes(lzma.compress(body[:, plane].tobytes(), preset=6))
Path(".gpu/minilm16/model.safetensors").unlink()
EOF
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_17_x86_64 -d .gpu/whl "$(grep -i '^orjson==' requirements.txt)"
du -sh .gpu
