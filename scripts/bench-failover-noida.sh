#!/usr/bin/env bash
# Runs `zonestream bench failover` on noida-db, the second Kafka implementation: starts it on a
# free loopback port with a fresh data directory, runs the steps it supports and stops it.
# noida-db never expires a member that stops heartbeating, so the crash (SIGKILL) step is left
# out: a killed member's partitions would never be reassigned. Writes
# benchmarks/results/failover-noida.json. Extra arguments go to the benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --noida-db
swift build -c release --product zonestream
noida=$(ls .venv/lib/python*/site-packages/noida_db/noida-db | head -n 1)
version=$(.venv/bin/pip show noida-db 2>/dev/null | sed -n 's/^Version: //p')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
data=$(mktemp -d)
"$noida" start --data-dir "$data" --host 127.0.0.1 --only kafka --kafka-port "$port" >"$data.log" 2>&1 &
broker=$!
cleanup() {
  kill -CONT "$broker" 2>/dev/null || true
  kill "$broker" 2>/dev/null || true
  wait "$broker" 2>/dev/null || true
  rm -rf "$data" "$data.log"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.2
done
.build/release/zonestream bench failover --cluster "127.0.0.1:$port" \
  --broker-name "noida-db $version" --broker-pid "$broker" --steps scale-out,scale-in,broker-pause "$@"
