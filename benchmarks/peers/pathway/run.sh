#!/usr/bin/env bash
# Runs this peer's zones_job.py in its own pinned environment (../common/run-peer.sh).
exec bash "$(dirname "$0")/../common/run-peer.sh" "$(basename "$(dirname "$(readlink -f "$0")")")" "$@"
