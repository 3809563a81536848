#!/usr/bin/env bash
# Op counts of the real models in ../shared/models: ONNX nodes, onnx-dialect
# ops as imported (the importer already folds shape computations), and ops
# after --canonicalize --cse, printed as a Markdown table. The transformer's
# symbolic sequence length is bound to 16, as in its reference input.
#   scripts/model-op-counts.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
opt="${1:-build}/bin/onyx-opt"
models=../shared/models
if [[ ! -x "$opt" ]]; then
  echo "model-op-counts.sh: $opt is not built" >&2
  exit 1
fi

# Ops and, of them, onnx.Constant: "N (C)". Op names are capitalized, which
# keeps attribute names such as onnx.name out of the count.
count_ops() {
  "$opt" "$@" | grep -oE '(^|[ "])onnx\.[A-Z][A-Za-z]*' |
    awk '{ n++ } /Constant/ { c++ } END { printf "%d (%d)", n, c }'
}

echo "| model | ONNX nodes | imported ops (constants) | after canonicalize, cse (constants) |"
echo "|---|---:|---:|---:|"
for path in "$models"/*.onnx; do
  model=$(basename "$path" .onnx)
  nodes=$(python3 - "$models/manifest.json" "$(basename "$path")" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))["models"]
for entry in manifest.values():
    for export in entry["exports"].values():
        if export["file"] == sys.argv[2]:
            print(export["num_nodes"])
PY
  )
  bind=()
  [[ $model == transformer_block* ]] && bind=(--bind-dims=seq=16)
  imported=$(count_ops "$path" "${bind[@]}")
  canonical=$(count_ops "$path" "${bind[@]}" --canonicalize --cse)
  echo "| $model | $nodes | $imported | $canonical |"
done
