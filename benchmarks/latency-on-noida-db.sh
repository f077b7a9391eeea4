#!/usr/bin/env bash
# The latency measurement (`zonestream bench latency`) on noida-db instead of the embedded mock.
#
#   bash benchmarks/latency-on-noida-db.sh [RUNS] [bench latency options...]
#   bash benchmarks/latency-on-noida-db.sh 3 --seconds 10 --rate 100000
#
# Writes every run's figures and the medians to benchmarks/results/latency-on-noida-db.json
# (another path: LATENCY_RESULTS=FILE). PEERS="quixstreams bytewax" measures those peer stream
# processors too, each run on a fresh noida-db of its own, at the same rate:
#
#   PEERS="quixstreams bytewax" LATENCY_RESULTS=benchmarks/results/peer-latency-on-noida-db.json \
#     bash benchmarks/latency-on-noida-db.sh 3 --rate 10000 --seconds 60
#
# The mock finds a fetch's position by walking every batch its partition holds, so at 100,000
# samples/s its cost per fetch grows all through a run, and so does every client's latency
# (benchmarks/README.md). noida-db, the second Kafka implementation the integration
# tests run on, keeps an offset index. It keeps its data in one JSON file that it rewrites as
# it goes, which slows it down as the file grows, so each run gets a fresh noida-db with an
# empty data directory, and so does each client: measured second on the same noida-db, either
# client's p99 was several milliseconds worse. Each run measures ZoneStream and the floor (the
# Kafka path alone), each on a broker of its own.
#
# Installs noida-db into .venv when missing (scripts/bootstrap.sh --noida-db) and builds the
# release `zonestream` when it is not there (another build: ZONESTREAM=PATH). Every noida-db it
# starts is stopped by PID.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-3}"
shift || true
case "$runs" in
  ''|*[!0-9]*) echo "latency-on-noida-db: RUNS must be a whole number, not '$runs'" >&2; exit 2 ;;
esac

bash scripts/bootstrap.sh --noida-db
noida="$(ls .venv/lib/python3*/site-packages/noida_db/noida-db 2>/dev/null | head -n 1)"
[ -x "$noida" ] || { echo "latency-on-noida-db: noida-db is not installed in .venv" >&2; exit 1; }
zonestream="${ZONESTREAM:-.build/release/zonestream}"
if [ -z "${ZONESTREAM:-}" ] && [ ! -x "$zonestream" ]; then swift build -c release --product zonestream; fi
[ -x "$zonestream" ] || { echo "latency-on-noida-db: ZONESTREAM=$zonestream is not an executable" >&2; exit 1; }

broker_pid=""
data_dir=""
stop_broker() {
  if [ -n "$broker_pid" ] && kill -0 "$broker_pid" 2>/dev/null; then
    kill "$broker_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$broker_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$broker_pid" 2>/dev/null || true
  fi
  broker_pid=""
  [ -z "$data_dir" ] || rm -rf "$data_dir"
  data_dir=""
}

start_broker() {
  data_dir="$(mktemp -d /tmp/zs-noida-latency.XXXXXX)"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$noida" start --data-dir "$data_dir/data" --host 127.0.0.1 --only kafka --kafka-port "$port" >"$data_dir/log" 2>&1 &
  broker_pid=$!
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$broker_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "latency-on-noida-db: noida-db did not listen on port $port:" >&2
  tail -n 20 "$data_dir/log" >&2
  exit 1
}

# One client (zonestream or floor) on a fresh noida-db; its figures line goes to $lines.
lines="$(mktemp /tmp/zs-noida-latency-lines.XXXXXX)"
trap 'stop_broker; rm -f "$lines"' EXIT
output_bytes=""
measure() {
  local client="$1" extra=()
  shift
  case "$client" in
    floor) extra=(--clients floor --floor-output-bytes "$output_bytes") ;;
    zonestream) extra=(--clients zonestream) ;;
    *) extra=(--peer "$client") ;;
  esac
  start_broker
  echo "latency-on-noida-db: $client, run $run of $runs, on a fresh noida-db (PID $broker_pid, 127.0.0.1:$port)"
  timeout 900 "$zonestream" bench latency --bootstrap-servers "127.0.0.1:$port" --runs 1 \
    "${extra[@]}" "$@" | tee -a "$lines"
  stop_broker
  if [ "$client" = zonestream ]; then
    output_bytes="$(sed -n 's/.*ZoneStream: .* zone changes of \([0-9]*\) bytes.*/\1/p' "$lines" | tail -n 1)"
    [ -n "$output_bytes" ] || { echo "latency-on-noida-db: ZoneStream's run printed no figures" >&2; exit 1; }
  fi
}

# ZoneStream first in odd runs (the floor pads its outputs to the size of ZoneStream's zone
# changes, so the first run needs ZoneStream's), the floor first in even ones.
for run in $(seq 1 "$runs"); do
  if [ $((run % 2)) -eq 1 ]; then measure zonestream "$@"; measure floor "$@"
  else measure floor "$@"; measure zonestream "$@"; fi
  for peer in ${PEERS:-}; do measure "$peer" "$@"; done
done

noida_version="$(.venv/bin/pip show noida-db 2>/dev/null | sed -n 's/^Version: //p')"
python3 - "$lines" "${LATENCY_RESULTS:-benchmarks/results/latency-on-noida-db.json}" "$noida_version" "$*" <<'PY'
import json, os, re, statistics, sys, time
lines_path, results_path, noida_version, arguments = sys.argv[1:5]
figures = {"ZoneStream": [], "floor": []}
peers = {}
settings = ""
for line in open(lines_path):
    if not settings and line.startswith("latency bench: broker "):
        settings = re.sub(r"^latency bench: broker [^,]*, ", "", line.strip())
    match = re.search(r"(ZoneStream|floor|peer [\w-]+): +p50 / p90 / p99 / p99.9 / max ([\d.]+) / [\d.]+ / ([\d.]+) / ([\d.]+)", line)
    if match:
        run = tuple(float(match.group(i)) for i in (2, 3, 4))
        client = match.group(1)
        if client.startswith("peer "):
            peers.setdefault(client[5:], []).append(run)
        else:
            figures[client].append(run)
for client, runs in list(figures.items()) + list(peers.items()):
    if runs:
        medians = [statistics.median(run[i] for run in runs) for i in range(3)]
        listed = ", ".join("%.1f / %.1f / %.1f" % run for run in runs)
        print("latency-on-noida-db: %s p50 / p99 / p99.9, median of %d: %.1f / %.1f / %.1f ms (runs: %s)"
              % (client, len(runs), *medians, listed))
memory_kb = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal:")), 0)
report = {
    "broker": "noida-db %s, a fresh one for each client's run" % noida_version,
    "arguments": arguments,
    "settings": settings,
    "machine": "%d cores, %d GiB" % (os.cpu_count() or 0, round(memory_kb / 1048576)),
    "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
}
for client, runs in figures.items():
    key = "zoneStream" if client == "ZoneStream" else "floor"
    report[key + "Runs"] = [{"p50Ms": p50, "p99Ms": p99, "p999Ms": p999} for p50, p99, p999 in runs]
    if runs:
        report[key + "Median"] = {name: statistics.median(run[i] for run in runs)
                                  for i, name in enumerate(["p50Ms", "p99Ms", "p999Ms"])}
if peers:
    report["peers"] = {
        peer: {"runs": [{"p50Ms": p50, "p99Ms": p99, "p999Ms": p999} for p50, p99, p999 in runs],
               "median": {name: statistics.median(run[i] for run in runs)
                          for i, name in enumerate(["p50Ms", "p99Ms", "p999Ms"])}}
        for peer, runs in peers.items()}
os.makedirs(os.path.dirname(results_path) or ".", exist_ok=True)
with open(results_path, "w") as output:
    json.dump(report, output, indent=2)
    output.write("\n")
print("latency-on-noida-db: wrote %s" % results_path)
PY
