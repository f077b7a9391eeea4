"""Sums `perf script` samples of ZoneStream's processor children by thread and by part.

Reads the samples (`perf script -F pid,comm,ip,sym,dso`: a header line per sample, then its
call chain from the leaf up, samples separated by blank lines), the bench builds report of the
same run, and the build's version; prints the JSON results file. See cpu-by-part.sh.
"""

import collections
import json
import re
import sys

# The first part a sample's call chain names, from the leaf up, takes the sample.
PARTS = [
    ("decoding the input", ("SampleFastPath", "WorkoutEventDecoder", "EventValidator", "StrictJSONParser")),
    ("encoding outputs", ("Writer",)),
    ("the engine", ("10ZoneEngine",)),
    ("producing (ZoneStream's side)", ("KafkaProducerC7produce", "DeliveryTracker", "DeliveryReceipt")),
    ("commits and changelog", ("Commit", "hangelog", "Ledger")),
    ("the record loop", ("WorkerLoopV7process", "WorkerLoopV10applyBatch")),
    ("consuming (librdkafka's batch call)", ("takeBatch",)),
]
FRAME = re.compile(r"\s*[0-9a-f]+\s+(.*)\s+\((.*)\)$")
HEADER = re.compile(r"\s*(.*?)\s+(\d+)\s*$")


def samples(path):
    with open(path) as text:
        for block in text.read().split("\n\n"):
            lines = [line for line in block.split("\n") if line.strip()]
            if not lines:
                continue
            header = HEADER.match(lines[0])
            if not header:
                continue
            frames = [match.group(1) for match in map(FRAME.match, lines[1:]) if match]
            yield int(header.group(2)), header.group(1), frames


def thread_group(comm):
    if comm.startswith("zs-worker"):
        return "workers"
    if comm.startswith("rdk:"):
        return "librdkafka's threads"
    if comm == "zs-delivery":
        return "delivery reports"
    return "the rest (stages, tables, HTTP, heap trim)"


def part(frames):
    for frame in frames:
        for name, keys in PARTS:
            if any(key in frame for key in keys):
                return name
    return "Kafka client and allocator (no ZoneStream frame)"


def shares(counter):
    total = sum(counter.values())
    return {name: round(count / total, 3) for name, count in counter.most_common()}


def main():
    samples_path, report_path, version = sys.argv[1], sys.argv[2], sys.argv[3]
    comms_by_pid = collections.defaultdict(set)
    collected = list(samples(samples_path))
    for pid, comm, _ in collected:
        comms_by_pid[pid].add(comm)
    children = {pid for pid, comms in comms_by_pid.items() if "zs-processor" in comms and "zs-bench-run" not in comms}
    threads = collections.Counter()
    parts = collections.Counter()
    for pid, comm, frames in collected:
        if pid not in children:
            continue
        group = thread_group(comm)
        threads[group] += 1
        if group == "workers":
            parts[part(frames)] += 1
    with open(report_path) as report:
        builds = json.load(report)["builds"]
    cpu = [build["cpuSecondsPerMillionRecords"]["median"] for build in builds]
    ratio = [build["ratioToFloor"]["median"] for build in builds]
    print(json.dumps({
        "what": "Where a ZoneStream processor's CPU goes on the gym traffic (coaches' class plans read): "
                "perf samples at 999 Hz of every CPU while `zonestream bench builds` ran the build as three "
                "run children (the bench's uncounted first run, then one round of two); shares of the "
                "children's samples by thread, and of the workers' samples by the first part of a "
                "record's path their call chain names.",
        "build": version,
        "processorChildren": len(children),
        "samples": sum(threads.values()),
        "byThread": shares(threads),
        "workersByPart": shares(parts),
        "sameRun": {"cpuSecondsPerMillionRecords": cpu, "ratioToFloor": ratio},
    }, indent=1))


if __name__ == "__main__":
    main()
