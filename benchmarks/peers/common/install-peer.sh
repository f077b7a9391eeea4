#!/usr/bin/env bash
# Makes one peer's virtual environment, .venv/peers/NAME in the project, from the peer's
# pinned requirements.txt, unless it is there already from the same file. Each peer has its
# own, so their pins never meet.
#   bash benchmarks/peers/common/install-peer.sh NAME
set -euo pipefail
name="$1"
peers="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$peers/../.." && pwd)"
here="$peers/$name"
venv="$root/.venv/peers/$name"
stamp="$venv/requirements.txt"
[ -f "$here/requirements.txt" ] || { echo "peer $name: no $here/requirements.txt" >&2; exit 2; }
if ! cmp -s "$here/requirements.txt" "$stamp"; then
    echo "peer $name: installing $(tr '\n' ' ' < "$here/requirements.txt")into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
    cp "$here/requirements.txt" "$stamp"
fi
