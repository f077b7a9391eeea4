"""ZoneStream's benchmark peer: the heart-rate half of ZoneStream's job, written for Quix Streams.

Reads the contract's `workout-events` (JSON), keeps per session (the Kafka key) its heart-rate
zone boundaries (the session_start's app zones, else the contract's default system zones),
its current zone, the last sample's time and the time credited to each zone in Quix's state
store, and produces a `zone_change` event with the cumulative zone durations whenever a
session's zone changes. It stops after `--records` input records and prints one JSON line:
{"records", "seconds", "records_per_second", "zone_changes", "peak_rss_bytes"}, timed from the first
record to the last, as `zonestream bench` times ZoneStream.

On librdkafka's mock cluster (`--mock`) Quix's topic inspection is bypassed (the mock answers
neither DescribeConfigs nor CreateTopics): partitions come from metadata, and state is kept
without changelog topics. On a real broker Quix runs as shipped, changelog topics included.
"""

import argparse
import json
import os
import resource
import sys
import time

from quixstreams import Application
from quixstreams.models.topics import TopicConfig
from quixstreams.models.topics.admin import TopicAdmin

DEFAULT_BOUNDARIES = [91, 114, 136, 158]  # the contract's system zones without metrics
MAX_GAP_MS = 10_000


def zone_of(boundaries, value):
    """Zone k (from 1) holds min <= v < max; a value equal to a boundary is in the upper zone."""
    index = 1
    for boundary in boundaries:
        if value < boundary:
            break
        index += 1
    return index


def inspect_from_metadata(self, topic_names, timeout=None):
    metadata = self.admin_client.list_topics(timeout=timeout or 10)
    found = {}
    for name in topic_names:
        topic = metadata.topics.get(name)
        found[name] = None if topic is None else TopicConfig(
            num_partitions=len(topic.partitions), replication_factor=1,
            extra_config={"retention.ms": "604800000", "retention.bytes": "-1", "cleanup.policy": "delete"},
        )
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--group", default="bench-peer-quixstreams")
    parser.add_argument("--records", type=int, required=True)
    parser.add_argument("--state-dir", default="/tmp/zonestream-bench-quix-state")
    parser.add_argument("--mock", action="store_true", help="bypass topic inspection, no changelog topics")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()

    if args.mock:
        TopicAdmin.inspect_topics = inspect_from_metadata

    app = Application(
        broker_address=args.bootstrap_servers,
        consumer_group=args.group,
        auto_offset_reset="earliest",
        auto_create_topics=not args.mock,
        use_changelog_topics=not args.mock,
        state_dir=args.state_dir,
        commit_interval=1.0,
        loglevel=os.environ.get("PEER_LOG_LEVEL", "WARNING"),
    )
    events = app.topic(args.input, value_deserializer="json", key_deserializer="str")
    changes = app.topic(args.output, value_serializer="json", key_serializer="str")
    progress = {"records": 0, "first": None, "last": None, "zone_changes": 0}

    def count(_event):
        if progress["first"] is None:
            progress["first"] = time.monotonic()
        progress["records"] += 1
        progress["last"] = time.monotonic()
        if progress["records"] >= args.records:
            app.stop()

    def credit(durations, zone, from_ts, to_ts):
        if zone is not None and to_ts > from_ts:
            durations[zone - 1] += min(to_ts - from_ts, MAX_GAP_MS)

    def zone_changes(event, state):
        kind = event.get("type")
        if kind == "session_start":
            zones = (event.get("zones") or {}).get("heart_rate") or {}
            if zones.get("boundaries"):
                state.set("boundaries", zones["boundaries"])
            return []
        if kind == "session_end":
            for key in ("boundaries", "zone", "last_ts", "durations"):
                state.delete(key)
            return []
        if kind != "sample" or event.get("quantity") != "heart_rate":
            return []
        boundaries = state.get("boundaries", DEFAULT_BOUNDARIES)
        ts, value = event["ts"], event["value"]
        last_ts = state.get("last_ts")
        if last_ts is not None and ts <= last_ts:
            return []
        durations = state.get("durations") or [0] * (len(boundaries) + 1)
        previous = state.get("zone")
        credit(durations, previous, last_ts or ts, ts)
        zone = zone_of(boundaries, value)
        state.set("last_ts", ts)
        state.set("durations", durations)
        if zone == previous:
            return []
        state.set("zone", zone)
        progress["zone_changes"] += 1
        return [{
            "schema": 1, "type": "zone_change", "event_id": f"{event['session']}/heart_rate/{ts}",
            "session": event["session"], "quantity": "heart_rate", "ts": ts,
            "previous_zone": previous, "current_zone": zone,
            "zone_durations": [{"index": i + 1, "duration_ms": d} for i, d in enumerate(durations)],
        }]

    frame = app.dataframe(events)
    frame = frame.update(count)
    frame = frame.apply(zone_changes, stateful=True, expand=True)
    frame.to_topic(changes)

    started = time.monotonic()
    app.run(timeout=args.timeout)
    seconds = (progress["last"] or started) - (progress["first"] or started)
    print(json.dumps({
        "records": progress["records"], "seconds": seconds,
        "records_per_second": progress["records"] / seconds if seconds > 0 else 0,
        "zone_changes": progress["zone_changes"],
        "peak_rss_bytes": peak_rss_bytes(),
    }))
    sys.stdout.flush()
    return 0 if progress["records"] >= args.records else 1


def peak_rss_bytes():
    """This process's own peak resident memory. Not getrusage's ru_maxrss: Linux carries it
    over from the parent through fork and exec, so it reported the bench's peak (the same
    626,802,688 bytes in bench.json's peer and bench figures). VmHWM belongs to the
    address space exec made."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


if __name__ == "__main__":
    sys.exit(main())
