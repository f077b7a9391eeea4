"""ZoneStream's benchmark peer: the heart-rate half of ZoneStream's job, written for Quix Streams.

A Quix Streams application as its docs build one: a streaming dataframe over the input topic,
each session's zones, current zone, last sample time and durations in Quix's state store
(`stateful=True`; the step is ../common/zones.py, shared by every peer), and the zone changes
to the output topic. It stops after `--records` input records and prints one JSON line
({"records", "seconds", "records_per_second", "cpu_seconds", "zone_changes",
"peak_rss_bytes"}), timed from the first record to the last, as `zonestream bench` times
ZoneStream.

On librdkafka's mock cluster (`--mock`) Quix's topic inspection is bypassed (the mock answers
neither DescribeConfigs nor CreateTopics): partitions come from metadata, and state is kept
without changelog topics. On a real broker Quix runs as shipped, changelog topics included.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))

from quixstreams import Application  # noqa: E402
from quixstreams.models.topics import TopicConfig  # noqa: E402
from quixstreams.models.topics.admin import TopicAdmin  # noqa: E402

import zones  # noqa: E402
from progress import Progress, arguments  # noqa: E402


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
    args = arguments(__doc__.splitlines()[0], "quixstreams", state_dir="/tmp/zonestream-bench-quix-state", mock_help="bypass topic inspection, no changelog topics")

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
    progress = Progress(args.records)

    def count(_event):
        progress.record()
        if progress.done:
            app.stop()

    def zone_changes(event, state):
        # The session's state under one key of Quix's state store.
        before = state.get("session")
        after, produced = zones.step(before, event)
        if after is None:
            if before is not None:
                state.delete("session")
        else:
            state.set("session", after)
        progress.zone_changes += len(produced)
        return produced

    frame = app.dataframe(events)
    frame = frame.update(count)
    frame = frame.apply(zone_changes, stateful=True, expand=True)
    frame.to_topic(changes)

    app.run(timeout=args.timeout)
    progress.report()
    return 0 if progress.done else 1


if __name__ == "__main__":
    sys.exit(main())
