"""Instructions per record by part of a worker's path, from a callgrind profile of a processor.

Reads `callgrind_annotate --inclusive=yes --tree=caller` output (a block per function: its
callers with their call counts, then the function's inclusive count on its `*` line) and the
build's version; prints the JSON results file. See instructions-by-part.sh.
"""

import json
import re
import sys

# Each part: the mangled-name fragments of its functions (their inclusive counts add up).
PARTS = [
    ("the record loop, everything a record costs once taken", ("13ZoneProcessor10WorkerLoopV7processySb",)),
    ("decoding the input", ("14SampleFastPathO6decode_", "19WorkoutEventDecoderV13decodeGeneral")),
    ("the engine", ("12SessionStoreV6handle_6wallMs7outputs",)),
    ("encoding and producing outputs", ("13ZoneProcessor10WorkerLoopV14produceOutputs",)),
    ("taking records from librdkafka's queue, the record loop included", ("9ZoneKafka0B5QueueC9takeBatch",)),
    ("the worker thread in all (commits, changelog, expiry included)", ("13ZoneProcessor10WorkerLoopV3runyyF",)),
]
PROCESS = "13ZoneProcessor10WorkerLoopV7processySb"
SCRAPE = "8ZoneHTTP16OperatorEndpointV7metrics"
COUNT = re.compile(r"^\s*([\d,]+)\s")
CALLS = re.compile(r"\(([\d,]+)x\)")


def number(text):
    return int(text.replace(",", ""))


def functions(path):
    """Each function's inclusive count and calls (the sum of its callers' call counts)."""
    found = {}
    calls = 0
    with open(path) as text:
        for line in text:
            if " < " in line:
                match = CALLS.search(line)
                calls += number(match.group(1)) if match else 0
            elif " * " in line:
                count = COUNT.match(line)
                if count:
                    name = line.split(" * ", 1)[1].strip()
                    inclusive, total = found.get(name, (0, 0))
                    found[name] = (inclusive + number(count.group(1)), total + calls)
                calls = 0
            elif not line.strip():
                calls = 0
    return found


def matching(found, fragment):
    # A recursive function's cycle entries ('2 suffix) repeat its count; take the plain name.
    return [(count, calls) for name, (count, calls) in found.items() if fragment in name and "'" not in name]


def main():
    profile_path, version = sys.argv[1], sys.argv[2]
    found = functions(profile_path)
    records = sum(calls for _, calls in matching(found, PROCESS))
    if records == 0:
        sys.exit("instructions_by_part: the profile has no WorkerLoop.process calls")
    parts = {}
    for name, fragments in PARTS:
        count = sum(count for fragment in fragments for count, _ in matching(found, fragment))
        parts[name] = round(count / records)
    scrapes = matching(found, SCRAPE)
    scrape_calls = sum(calls for _, calls in scrapes)
    result = {
        "what": "Instructions per input record by part of a ZoneStream worker's path: callgrind's inclusive "
        "counts in a processor child taking the gym traffic (coaches' class plans read) under "
        "`zonestream bench builds`, over the records its worker loop applied.",
        "build": version,
        "records": records,
        "instructionsPerRecord": parts,
        "metricsScrape": {
            "scrapes": scrape_calls,
            "instructionsEach": round(sum(count for count, _ in scrapes) / scrape_calls) if scrape_calls else None,
        },
        "command": "bash benchmarks/instructions-by-part.sh",
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
