#!/usr/bin/env bash
# Runs the Quix Streams peer (zones_job.py) with the pinned quixstreams, installing it into
# the project's .venv first when it is missing. Arguments go to zones_job.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
venv="$root/.venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if ! "$venv/bin/python" -c 'import quixstreams' 2>/dev/null; then
    "$venv/bin/pip" install --quiet -r "$here/requirements.txt" >&2
fi
exec "$venv/bin/python" "$here/zones_job.py" "$@"
