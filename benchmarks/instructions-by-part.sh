#!/usr/bin/env bash
# Instructions per input record by part of a worker's path, counted by valgrind's callgrind in
# a processor child that takes the gym traffic: reproducible where CPU time is not (this
# machine is shared), so a change to the record path can be weighed before a noisy sitting.
#
#   bash benchmarks/instructions-by-part.sh [ZONESTREAM]     (default: .build/release/zonestream)
#
# Runs `zonestream bench builds` over 200,000 gym records (coaches' class plans read) with a
# second build: the same binary under callgrind. Debian's valgrind 3.19 cannot read the
# release binary's DWARF 5 debug information, so callgrind runs a copy without it (objcopy
# --strip-debug): functions are named from the symbol table. Every figure is the inclusive
# count of a part's function over the records the worker loop applied (its calls to
# `WorkerLoop.process`); a `/metrics` scrape is per scrape (the bench reads the child's count
# there every 100 ms). Writes benchmarks/results/instructions-by-part.json (another path:
# INSTRUCTION_PARTS_RESULTS=FILE). Installs valgrind when missing. About 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

zonestream="${1:-.build/release/zonestream}"
[ -x "$zonestream" ] || { echo "instructions-by-part: no zonestream at $zonestream (swift build -c release --product zonestream builds it)" >&2; exit 1; }
command -v valgrind > /dev/null || bash scripts/bootstrap.sh valgrind
results="${INSTRUCTION_PARTS_RESULTS:-benchmarks/results/instructions-by-part.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

objcopy --strip-debug "$zonestream" "$work/zonestream"
cat > "$work/callgrind.sh" <<WRAPPER
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file="$work/profile.%p" "$work/zonestream" "\$@"
WRAPPER
chmod +x "$work/callgrind.sh"
"$zonestream" bench builds --against callgrind="$work/callgrind.sh" --gym-records 200000 --rounds 1 \
    --class-plans-for this --class-plans-for callgrind --report "$work/builds.json" > "$work/bench.log" 2>&1 ||
    { tail -20 "$work/bench.log" >&2; exit 1; }
profile="$(ls -S "$work"/profile.* | head -1)"
callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$profile" > "$work/callers.txt" 2> /dev/null
python3 -B benchmarks/instructions_by_part.py "$work/callers.txt" "$("$zonestream" --version)" > "$results"
echo "instructions-by-part: wrote $results"
