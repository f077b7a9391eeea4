"""How every peer times itself, as `zonestream bench` times ZoneStream: from its first input
record to its last, the records per second and the CPU seconds the process used in that
window (all its threads), then one JSON line on standard output."""

import json
import resource
import sys
import time


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_bytes():
    """This process's own peak resident memory. Not getrusage's ru_maxrss: Linux carries it
    over from the parent through fork and exec, so it reported the bench's peak. VmHWM
    belongs to the address space exec made."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Progress:
    """Counts input records and zone changes; `done` once `target` records were counted."""

    def __init__(self, target):
        self.target = target
        self.records = 0
        self.zone_changes = 0
        self.first = None
        self.last = None
        self.first_cpu = None
        self.last_cpu = None

    def record(self):
        now = time.monotonic()
        if self.first is None:
            self.first, self.first_cpu = now, cpu_seconds()
        self.records += 1
        self.last = now
        if self.records >= self.target:
            self.last_cpu = cpu_seconds()

    @property
    def done(self):
        return self.records >= self.target

    def report(self):
        seconds = (self.last - self.first) if self.first is not None else 0
        cpu = ((self.last_cpu or cpu_seconds()) - self.first_cpu) if self.first_cpu is not None else 0
        print(json.dumps({
            "records": self.records, "seconds": seconds,
            "records_per_second": self.records / seconds if seconds > 0 else 0,
            "cpu_seconds": cpu, "zone_changes": self.zone_changes, "peak_rss_bytes": peak_rss_bytes(),
        }))
        sys.stdout.flush()


def arguments(description, peer, state_dir=None, mock_help=None):
    """The command line every peer takes from `zonestream bench` (benchmarks/peers/*/run.sh)."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--group", default=f"bench-peer-{peer}")
    parser.add_argument("--records", type=int, help="stop after this many input records")
    parser.add_argument("--live", action="store_true",
                        help="read on as records come, until stopped (for latency): no record target")
    parser.add_argument("--state-dir", default=state_dir)
    parser.add_argument("--mock", action="store_true", help=mock_help or "run on the embedded broker")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    if args.live:
        args.records = float("inf")
        args.timeout = 24 * 3600
    elif args.records is None:
        parser.error("--records or --live is required")
    return args
