#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium: the gym board is tested in a real headless browser; noida-db: the integration
# tests run on it as well as on the embedded broker (ZONESTREAM_TEST_BROKERS=mock: only there).
# prometheus: its promtool checks docs/prometheus/alerts.yml.
bash scripts/bootstrap.sh chromium prometheus --noida-db
swift build --build-tests
swift test --skip-build "$@"
