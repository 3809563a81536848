#!/bin/sh
# Installs onnxruntime-node (ONNX Runtime's CPU build for Node.js, which runs
# the com.microsoft contrib ops) into .ort/ at the repository root, a
# git-ignored folder. Tests that compare onyx with ONNX Runtime use it when
# it is there and skip otherwise. Only the CPU build is needed: the
# install step that fetches CUDA libraries is skipped. Usage: scripts/fetch-onnxruntime-node.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ONNXRUNTIME_NODE_INSTALL_CUDA=skip ONNXRUNTIME_NODE_INSTALL=skip \
  npm install --no-save --no-audit --no-fund onnxruntime-node@1.x --prefix "$root/.ort"
node -e "const ort = require('$root/.ort/node_modules/onnxruntime-node'); console.log('onnxruntime-node', require('$root/.ort/node_modules/onnxruntime-node/package.json').version);"
