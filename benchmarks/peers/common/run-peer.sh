#!/usr/bin/env bash
# Runs one peer's zones_job.py in a virtual environment of its own, .venv/peers/NAME in the
# project, made and filled from the peer's pinned requirements.txt on first use (and again
# when that file changes). Each peer has its own, so their pins never meet.
#   bash benchmarks/peers/common/run-peer.sh NAME [zones_job.py arguments]
set -euo pipefail
name="$1"
shift
peers="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$peers/../.." && pwd)"
here="$peers/$name"
venv="$root/.venv/peers/$name"
stamp="$venv/requirements.txt"
if ! cmp -s "$here/requirements.txt" "$stamp"; then
    echo "peer $name: installing $(tr '\n' ' ' < "$here/requirements.txt")into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
    cp "$here/requirements.txt" "$stamp"
fi
exec "$venv/bin/python" "$here/zones_job.py" "$@"
