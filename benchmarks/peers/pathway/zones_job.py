"""ZoneStream's benchmark peer: the heart-rate half of ZoneStream's job, written for Pathway.

A pipeline as Pathway's docs build one: its Kafka reader (`pw.io.kafka.read`, raw records
with their metadata), the records grouped by session and reduced by a stateful reducer
(`pw.reducers.stateful_many`) that keeps each session's zones, current zone, last sample time
and durations and applies each batch's records in their input order (the step is
../common/zones.py, shared by every peer), the reduced table turned into a stream of its
changes (`to_stream`), each batch's zone changes flattened into rows, and its Kafka writer
(`pw.io.kafka.write`) for those rows. It runs in this process with Pathway's default of one
worker thread, no persistence, and prints one JSON line ({"records", "seconds",
"records_per_second", "cpu_seconds", "zone_changes", "peak_rss_bytes"}), timed from the first
record to the last, as `zonestream bench` times ZoneStream.
"""

import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))

import pathway as pw  # noqa: E402

import zones  # noqa: E402
from progress import Progress, arguments  # noqa: E402


def build(args, progress):
    settings = {
        "bootstrap.servers": args.bootstrap_servers,
        "group.id": args.group,
        "auto.offset.reset": "earliest",
        "session.timeout.ms": "6000",
    }
    raw = pw.io.kafka.read(
        settings, topic=args.input, format="raw", with_metadata=True, autocommit_duration_ms=100)

    def session_of(key):
        return key.decode() if key else ""

    def counted(data):
        progress.record()
        return data

    events = raw.select(
        session=pw.apply(session_of, raw.key),
        offset=raw._metadata["offset"].as_int(),
        data=pw.apply(counted, raw.data),
    )

    @pw.reducers.stateful_many
    def sessions(state, rows):
        """(the session's state as JSON, the zone changes of this batch as JSON texts)."""
        current = json.loads(state[0]) if state is not None else None
        produced = []
        # A batch's records of one session, in the order they were written to its partition.
        for (offset, data), count in sorted(rows, key=lambda row: row[0][0]):
            if count <= 0:
                continue
            current, changes = zones.step(current, json.loads(data))
            produced += [json.dumps(change, separators=(",", ":")) for change in changes]
        progress.zone_changes += len(produced)
        return (json.dumps(current), tuple(produced))

    reduced = events.groupby(events.session).reduce(
        events.session, out=sessions(events.offset, events.data))
    stream = reduced.to_stream()
    changes = stream.select(stream.session, change=pw.apply(lambda out: out[1], stream.out)).flatten(pw.this.change)
    pw.io.kafka.write(
        changes, {"bootstrap.servers": args.bootstrap_servers, "linger.ms": "5"}, args.output,
        format="plaintext", key=changes.session, value=changes.change)


def stop_when_done(progress, args):
    """Pathway reads a Kafka topic forever: once every record is counted and its changes are
    written (no new change for a moment), report and leave."""
    started = time.monotonic()
    while time.monotonic() - started < args.timeout:
        time.sleep(0.2)
        if progress.done:
            settled = progress.zone_changes
            time.sleep(1.5)
            if progress.zone_changes == settled:
                break
    progress.report()
    sys.stdout.flush()
    os._exit(0 if progress.done else 1)


def main():
    args = arguments(__doc__.splitlines()[0], "pathway")
    progress = Progress(args.records)
    build(args, progress)
    if not args.live:
        threading.Thread(target=stop_when_done, args=(progress, args), daemon=True).start()
    pw.run(monitoring_level=pw.MonitoringLevel.NONE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
