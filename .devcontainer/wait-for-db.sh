#!/usr/bin/env bash
# Wait (bounded) until the database in .env accepts a login AND its vector pool has the
# size the startup hook sets (the hook may restart the database once after the first
# successful login), printing progress.
# Usage: wait-for-db.sh [timeout-seconds]   (default 900: a first start takes minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m workshop_lib.oracle wait --timeout "${1:-900}" \
  --vector-pool-mb "${WORKSHOP_VECTOR_POOL_MB:-256}"
