#!/usr/bin/env bash
# Where a ZoneStream processor's CPU goes on the gym traffic: by thread (workers, librdkafka's
# threads, the rest) and, inside the workers, by part of a record's path (decoding, the engine,
# encoding outputs, the record loop, librdkafka's consume and produce calls, allocation).
#
#   bash benchmarks/cpu-by-part.sh [ZONESTREAM]     (default: .build/release/zonestream)
#
# Samples every CPU at 999 Hz with `perf record -a -g` (software clock, so it works on a VM
# without hardware counters) while `zonestream bench builds` runs the build as run children
# over the same preloaded gym traffic: the bench's uncounted first run, then one round of two,
# all three counted here. The processor children are told apart from the bench process by
# their threads (a child has `zs-processor`, the bench has `zs-bench-run`). A sample is given
# to the first part its call chain names, from the leaf up; chains that leave ZoneStream's code
# through a library built without frame pointers (librdkafka, libc) stop there and count as
# "Kafka client and allocator". Writes benchmarks/results/cpu-by-part.json
# (another path: CPU_PARTS_RESULTS=FILE). Installs perf (linux-perf) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

zonestream="${1:-.build/release/zonestream}"
[ -x "$zonestream" ] || { echo "cpu-by-part: no zonestream at $zonestream (swift build -c release --product zonestream builds it)" >&2; exit 1; }
command -v perf > /dev/null || bash scripts/bootstrap.sh linux-perf
results="${CPU_PARTS_RESULTS:-benchmarks/results/cpu-by-part.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

perf record -F 999 -a -g -o "$work/perf.data" -- \
    "$zonestream" bench builds --against same="$zonestream" --rounds 1 \
    --class-plans-for this --class-plans-for same --report "$work/builds.json" > "$work/bench.log" 2>&1
perf script -i "$work/perf.data" -F pid,comm,ip,sym,dso 2> /dev/null > "$work/samples.txt"
python3 -B benchmarks/cpu_by_part.py "$work/samples.txt" "$work/builds.json" "$("$zonestream" --version)" > "$results"
echo "cpu-by-part: wrote $results"
