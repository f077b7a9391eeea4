"""ZoneStream's benchmark peer: the heart-rate half of ZoneStream's job, written for Faust.

An app as Faust's docs build one (faust-streaming, the maintained fork of Robinhood's Faust,
the Python port of Kafka Streams' model, on aiokafka): an agent over the input topic, each
session's zones, current zone, last sample time and durations in a Faust table keyed by
session (in memory, backed by its changelog topic, which Faust creates; the step is
../common/zones.py, shared by every peer), and the zone changes sent to the output topic. It
needs a broker that creates topics when asked, so it does not run on the embedded broker. It
stops after `--records` input records (or reads on with `--live`) and prints one JSON line
({"records", "seconds", "records_per_second", "cpu_seconds", "zone_changes",
"peak_rss_bytes"}), timed from the first record to the last, as `zonestream bench` times
ZoneStream.
"""

import asyncio
import json
import logging
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))

import faust  # noqa: E402

import zones  # noqa: E402
from progress import Progress, arguments  # noqa: E402


async def partition_count(bootstrap_servers, topic):
    """The input topic's partitions: the table's changelog topic must have as many."""
    from aiokafka import AIOKafkaConsumer

    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap_servers)
    await consumer.start()
    try:
        await consumer.topics()
        return len(consumer.partitions_for_topic(topic) or [])
    finally:
        await consumer.stop()


def main():
    args = arguments(__doc__.splitlines()[0], "faust", state_dir="/tmp/zonestream-bench-faust-state")
    progress = Progress(args.records)
    partitions = asyncio.run(partition_count(args.bootstrap_servers, args.input))
    if partitions == 0:
        sys.exit(f"faust peer: topic {args.input} not found")
    app = faust.App(
        args.group,
        broker=f"kafka://{args.bootstrap_servers}",
        topic_partitions=partitions,
        store="memory://",
        datadir=args.state_dir,
        consumer_auto_offset_reset="earliest",
        web_enabled=False,
        producer_linger_ms=5,
    )
    events = app.topic(args.input, key_type=bytes, value_type=bytes, value_serializer="raw")
    changes = app.topic(args.output, key_type=bytes, value_type=bytes, value_serializer="raw")
    sessions = app.Table("sessions", default=None)

    @app.agent(events)
    async def zone_changes(stream):
        try:
            await apply(stream)
        except Exception as error:  # noqa: BLE001
            # A crashed agent leaves Faust's worker running with nothing to do: stop instead.
            print(f"faust peer: the agent failed: {error!r}", file=sys.stderr, flush=True)
            os._exit(1)

    async def apply(stream):
        async for key, value in stream.items():
            progress.record()
            session = key.decode()
            state, produced = zones.step(sessions.get(session), json.loads(value))
            if state is None:
                sessions.pop(session, None)
            else:
                sessions[session] = state
            for change in produced:
                await changes.send(key=key, value=json.dumps(change, separators=(",", ":")).encode())
            progress.zone_changes += len(produced)
            if progress.done:
                # Every zone change out, then the report, then out of the worker at once: a
                # signal to itself does not stop Faust's worker when the signal is ignored in
                # the process that started it (a test's, say).
                await app.producer.flush()
                # Faust's worker sends what is printed to its log: the report goes to the real
                # standard output, where the benchmark reads it.
                sys.stdout = sys.__stdout__
                progress.report()
                for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
                    stream.flush()
                os._exit(0)

    logging.getLogger("aiokafka").setLevel(logging.ERROR)
    sys.argv = [sys.argv[0], "worker", "--without-web", "--loglevel", os.environ.get("PEER_LOG_LEVEL", "warn")]
    app.main()


if __name__ == "__main__":
    main()
