"""ZoneStream's benchmark peer: the heart-rate half of ZoneStream's job, written for Bytewax.

A dataflow as Bytewax's docs build one: its Kafka source (reading every partition to its end,
`tail=False`, or on as records come with `--live`), the records keyed by session,
`stateful_flat_map` keeping each session's zones, current zone, last sample time and
durations in Bytewax's keyed state (the step is ../common/zones.py, shared by every peer),
and its Kafka sink for the zone changes. It runs in
this process with one worker (`bytewax.run`'s `-w 1`) and no recovery store, and prints one
JSON line ({"records", "seconds", "records_per_second", "cpu_seconds", "zone_changes",
"peak_rss_bytes"}), timed from the first record to the last, as `zonestream bench` times
ZoneStream.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))

import bytewax.operators as op  # noqa: E402
from bytewax.connectors.kafka import KafkaSink, KafkaSinkMessage, KafkaSource  # noqa: E402
from bytewax.dataflow import Dataflow  # noqa: E402
from bytewax.run import cli_main  # noqa: E402

import zones  # noqa: E402
from progress import Progress, arguments  # noqa: E402


def build(args, progress):
    flow = Dataflow("zonestream-peer")
    # Over the preload: read every partition to its end. Live (latency): read on.
    source = KafkaSource([args.bootstrap_servers], [args.input], tail=args.live)
    messages = op.input("workout-events", flow, source)

    def parse(message):
        progress.record()
        return (message.key.decode(), json.loads(message.value))

    keyed = op.map("parse", messages, parse)

    def session_step(state, event):
        state, changes = zones.step(state, event)
        progress.zone_changes += len(changes)
        return state, changes

    changes = op.stateful_flat_map("zones", keyed, session_step)
    # Compact JSON, as ZoneStream and the other peers write it.
    encoded = op.map(
        "encode", changes,
        lambda item: KafkaSinkMessage(item[0].encode(), json.dumps(item[1], separators=(",", ":")).encode()))
    op.output("zone-changes", encoded, KafkaSink([args.bootstrap_servers], args.output))
    return flow


def main():
    args = arguments(__doc__.splitlines()[0], "bytewax", state_dir=None)
    progress = Progress(args.records)
    cli_main(build(args, progress), workers_per_process=1)
    progress.report()
    return 0 if progress.done else 1


if __name__ == "__main__":
    sys.exit(main())
