#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds, and runs the demo
# (a simulated gym class through the real pipeline on the embedded broker).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# A release binary already built from these sources (the test command's package build, or an
# earlier run of this one) is used as it is; otherwise the release build is made.
binary=""
for candidate in .build-release/release/zonestream .build/release/zonestream; do
    [ -x "$candidate" ] || continue
    if [ -z "$(find Package.swift Sources -newer "$candidate" -print -quit)" ]; then
        binary=$candidate
        break
    fi
done
if [ -z "$binary" ]; then
    swift build -c release --product zonestream
    binary=.build/release/zonestream
fi
exec "$binary" demo "$@"
