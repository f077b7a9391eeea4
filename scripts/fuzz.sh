#!/usr/bin/env bash
# Fuzzes the event decoder for a bounded time: libFuzzer (-sanitize=fuzzer) feeds bytes to
# fast decoder and jansson reference and stops at the first disagreement or crash.
# Usage: scripts/fuzz.sh [seconds, default 60]. Seeds: the contract examples' events.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
bash scripts/bootstrap.sh
swift build --package-path fuzz -c release -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
# One seed per input event of the worked examples.
python3 - "$work/corpus" <<'PY'
import glob, json, os, sys
n = 0
for path in sorted(glob.glob("Tests/Fixtures/contract-examples/*.json")):
    for event in json.load(open(path))["events"]:
        value = event.get("value")
        n += 1
        with open(os.path.join(sys.argv[1], f"seed-{n}"), "w") as out:
            out.write(value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
PY
status=0
fuzz/.build/release/DecoderFuzzer "$work/corpus" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
    -artifact_prefix="$work/" -print_final_stats=1 > "$work/log" 2>&1 || status=$?
grep -E "stat::number_of_executed_units|Fatal error|SUMMARY" "$work/log" || true
if [ "$status" -ne 0 ]; then
    echo "fuzz: finding (exit $status); input:"
    for crash in "$work"/crash-*; do [ -f "$crash" ] && xxd "$crash" | head -40; done
    exit 1
fi
echo "fuzz: no finding in ${seconds} s"
