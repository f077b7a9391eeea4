#!/usr/bin/env bash
# CPU for live traffic: one ZoneStream instance taking the load generator's members at 1 Hz
# (heart rate, and power for the half who ride bikes: 1.5 samples a member-second), for the
# sizing rule in docs/how-to/size.md.
#
#   bash benchmarks/cpu-sizing.sh [MEMBERS...]      (default: 3000 30000)
#
# For each member count: a fresh embedded broker (`zonestream broker`, a child process), one
# instance (`zonestream run`, 2 workers, defaults otherwise), and `zonestream loadgen` at the
# rate the members produce (its traffic: every member's heart rate each second, the riders'
# power too) for 60 s (SECONDS_PER_RUN=N). The instance's CPU (user + system, from
# /proc) over the loadgen's run, divided by its wall time, is the cores it kept busy; its
# consumer lag is read from /metrics at the end. Writes benchmarks/results/cpu-sizing.json
# (another path: CPU_RESULTS=FILE). Builds the release `zonestream` when missing
# (another build: ZONESTREAM=PATH). Every process it starts is stopped by PID.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SECONDS_PER_RUN:-60}"
members=("$@")
[ ${#members[@]} -gt 0 ] || members=(3000 30000)
zonestream="${ZONESTREAM:-.build/release/zonestream}"
if [ -z "${ZONESTREAM:-}" ] && [ ! -x "$zonestream" ]; then swift build -c release --product zonestream; fi
results="${CPU_RESULTS:-benchmarks/results/cpu-sizing.json}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
ticks_per_second="$(getconf CLK_TCK)"

runs=()
for count in "${members[@]}"; do
  "$zonestream" broker --partitions 8 --bootstrap-file "$work/bootstrap" >/dev/null 2>"$work/broker.log" &
  broker=$!
  pids+=("$broker")
  for _ in $(seq 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
  bootstrap="$(cat "$work/bootstrap")"
  "$zonestream" run --bootstrap-servers "$bootstrap" --http-port 0 >"$work/run.log" 2>&1 &
  instance=$!
  pids+=("$instance")
  for _ in $(seq 300); do grep -q "partitions assigned" "$work/run.log" && break; sleep 0.1; done
  for _ in $(seq 100); do grep -q "http endpoint listening" "$work/run.log" && break; sleep 0.1; done
  port="$(grep "http endpoint listening" "$work/run.log" | grep -o 'port=[0-9]*' | head -n 1 | cut -d= -f2)"
  # The load generator's members send 1.5 samples a second each (heart rate, and power for
  # the half on bikes): paced at that, one simulated second passes per real second.
  before="$(cpu_ticks "$instance")"
  started="$(date +%s.%N)"
  "$zonestream" loadgen --bootstrap-servers "$bootstrap" --members "$count" \
    --session-seconds "$((seconds * 2))" --duration-s "$seconds" --rate "$((count * 3 / 2))" \
    >"$work/loadgen.log" 2>&1
  ended="$(date +%s.%N)"
  after="$(cpu_ticks "$instance")"
  records="$(grep -o 'sent [0-9]* records' "$work/loadgen.log" | tail -n 1 | cut -d' ' -f2)"
  lag="$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^zonestream_consumer_lag/ { sum += $2 } END { print sum + 0 }')"
  rss="$(awk '/VmHWM/ { print $2 * 1024 }' "/proc/$instance/status")"
  seconds_run="$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.3f", b - a }')"
  cpu="$(awk -v a="$before" -v b="$after" -v t="$ticks_per_second" 'BEGIN { printf "%.3f", (b - a) / t }')"
  runs+=("{\"members\": $count, \"records\": ${records:-0}, \"seconds\": $seconds_run, \"cpuSeconds\": $cpu, \"lagAtEnd\": ${lag:-null}, \"peakRSSBytes\": ${rss:-0}}")
  kill "$instance" "$broker"
  wait "$instance" "$broker" 2>/dev/null || true
  rm -f "$work/bootstrap"
done

python3 - "$results" "$(nproc)" "${runs[@]}" <<'EOF'
import json, sys
path, cores, runs = sys.argv[1], int(sys.argv[2]), [json.loads(run) for run in sys.argv[3:]]
for run in runs:
    run["recordsPerSecond"] = round(run["records"] / run["seconds"])
    run["coresBusy"] = round(run["cpuSeconds"] / run["seconds"], 3)
    run["coresPerThousandMembers"] = round(run["coresBusy"] / run["members"] * 1000, 4)
json.dump({
    "what": "One instance (2 workers) taking the load generator's members live, one simulated second per real second, on the embedded broker (a child process): its CPU over the run as cores busy.",
    "command": "bash benchmarks/cpu-sizing.sh " + " ".join(str(run["members"]) for run in runs),
    "machine": f"{cores} cores, shared VM",
    "runs": runs,
}, open(path, "w"), indent=1)
open(path, "a").write("\n")
print(open(path).read())
EOF
