#!/usr/bin/env bash
# Installs the system packages ZoneStream builds against, only when missing, plus any
# packages named as arguments (scripts/test.sh adds chromium for the board's browser test).
# Called by the README's two commands (scripts/demo.sh, scripts/test.sh); safe to run again.
set -euo pipefail

needed=(librdkafka-dev libjansson-dev pkg-config kcat "$@")
missing=()
for package in "${needed[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "bootstrap: add /opt/swift/usr/bin to PATH" >&2
  fi
  echo "bootstrap: the Swift 6 toolchain is required (swift not on PATH)" >&2
  exit 1
fi
