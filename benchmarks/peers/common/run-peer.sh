#!/usr/bin/env bash
# Runs one peer's zones_job.py in its own virtual environment, .venv/peers/NAME in the
# project, made from the peer's pinned requirements.txt on first use (install-peer.sh).
#   bash benchmarks/peers/common/run-peer.sh NAME [zones_job.py arguments]
set -euo pipefail
name="$1"
shift
peers="$(cd "$(dirname "$0")/.." && pwd)"
bash "$peers/common/install-peer.sh" "$name"
exec "$(cd "$peers/../.." && pwd)/.venv/peers/$name/bin/python" "$peers/$name/zones_job.py" "$@"
