#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium: the gym board is tested in a real headless browser; noida-db: the integration
# tests run on it as well as on the embedded broker (ZONESTREAM_TEST_BROKERS=mock: only there).
# prometheus: its promtool checks docs/prometheus/alerts.yml; systemd: systemd-analyze rates the unit.
bash scripts/bootstrap.sh chromium prometheus systemd --noida-db
# The benchmark peers' pinned environments (the peer tests run each one), made while the
# build runs: downloading them is mostly waiting on the network.
mkdir -p .build
peers_log=.build/peer-environments.log
( for requirements in benchmarks/peers/*/requirements.txt; do
      bash benchmarks/peers/common/install-peer.sh "$(basename "$(dirname "$requirements")")"
  done ) > "$peers_log" 2>&1 &
peers_pid=$!
# The formatter's configuration (.swift-format) holds for every Swift file of the tree.
swift format lint --strict --recursive --parallel \
    Package.swift Plugins Sources Tests benchmarks/Package.swift benchmarks/Benchmarks benchmarks/Tools fuzz/Package.swift fuzz/Sources/DecoderFuzzer
# Warnings are errors in this (debug) build (Package.swift); every import is a declared dependency.
swift build --build-tests --explicit-target-dependency-import-check error
# The Debian package (a static-stdlib release build in .build-release): the tests install it, and
# the processes they start run its binary. (Built beside the debug build, the two took 626 s
# against 642 s one after the other: not worth two compilers' memory at once.)
bash scripts/package.sh
wait "$peers_pid" || { cat "$peers_log" >&2; echo "test: a peer's environment could not be made" >&2; exit 1; }
# The processes the tests start (processor, broker, load generator) run the packaged release
# build: what ships, at its speed rather than the debug build's.
ZS_CHILD_EXECUTABLE="$PWD/.build-release/release/zonestream" swift test --skip-build "$@"
