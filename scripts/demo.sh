#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds, and runs the demo
# (a simulated gym class through the real pipeline on the embedded broker).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build -c release --product zonestream
exec .build/release/zonestream demo "$@"
