#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium: the gym board is tested in a real headless browser; noida-db: the integration
# tests run on it as well as on the embedded broker (ZONESTREAM_TEST_BROKERS=mock: only there).
# prometheus: its promtool checks docs/prometheus/alerts.yml; systemd: systemd-analyze rates the unit.
bash scripts/bootstrap.sh chromium prometheus systemd --noida-db
# The formatter's configuration (.swift-format) holds for every Swift file of the tree.
swift format lint --strict --recursive --parallel \
    Package.swift Plugins Sources Tests benchmarks/Package.swift benchmarks/Benchmarks fuzz/Package.swift fuzz/Sources/DecoderFuzzer
# Warnings are errors in this (debug) build (Package.swift); every import is a declared dependency.
swift build --build-tests --explicit-target-dependency-import-check error
# The Debian package (a static-stdlib release build in .build-release): the tests install it.
bash scripts/package.sh
swift test --skip-build "$@"
