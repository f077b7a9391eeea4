#!/usr/bin/env python3
"""Reads ZoneStream's finished workouts and prints the minutes each one spent per zone.

    pip install -r examples/requirements.txt
    python3 examples/minutes_per_zone.py --bootstrap-servers 127.0.0.1:9092

Each record on `workouts-finished` is one JSON object (docs/reference/contract.md,
schemas/workouts-finished.schema.json); its `zone_groups` hold, per quantity, the zone
configuration and the milliseconds credited to each zone.
"""
import argparse
import json

from confluent_kafka import Consumer


def describe(workout):
    """One line per quantity: `session person quantity: Z1 0.0 min | Z2 1.5 min | ...`."""
    lines = []
    for quantity, group in workout["zone_groups"].items():
        zones = " | ".join(f"Z{zone['index']} {zone['duration_ms'] / 60000:.1f} min" for zone in group["zone_durations"])
        lines.append(f"{workout['session']} {workout['person'] or '-'} {quantity}: {zones}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-servers", default="127.0.0.1:9092")
    parser.add_argument("--topic", default="workouts-finished")
    parser.add_argument("--group", default="minutes-per-zone")
    parser.add_argument("--max-workouts", type=int, default=0, help="stop after this many (0: run until Ctrl-C)")
    parser.add_argument("--idle-timeout", type=float, default=0, help="stop after this many seconds without a record (0: never)")
    args = parser.parse_args()

    consumer = Consumer({"bootstrap.servers": args.bootstrap_servers, "group.id": args.group, "auto.offset.reset": "earliest"})
    consumer.subscribe([args.topic])
    seen = 0
    idle = 0.0
    try:
        while args.max_workouts == 0 or seen < args.max_workouts:
            message = consumer.poll(1.0)
            if message is None:
                idle += 1.0
                if args.idle_timeout and idle >= args.idle_timeout:
                    break
                continue
            idle = 0.0
            if message.error():
                print(f"error: {message.error()}")
                continue
            workout = json.loads(message.value())
            if workout.get("schema") != 1:  # docs/how-to/upgrade.md: a new schema number is a breaking change
                print(f"skipping a record of schema {workout.get('schema')}")
                continue
            for line in describe(workout):
                print(line, flush=True)
            seen += 1
    except KeyboardInterrupt:
        pass
    finally:
        consumer.close()


if __name__ == "__main__":
    main()
