#!/usr/bin/env bash
# Wait (bounded) until the database in .env accepts a login, printing progress.
# Usage: wait-for-db.sh [timeout-seconds]   (default 900: a first start takes minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m workshop_lib.oracle wait --timeout "${1:-900}"
