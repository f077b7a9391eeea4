#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
