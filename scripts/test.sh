#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium: the gym board is tested in a real headless browser.
bash scripts/bootstrap.sh chromium
swift build --build-tests
swift test --skip-build "$@"
