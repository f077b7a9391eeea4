#!/usr/bin/env bash
# Installs the system packages ZoneStream builds against, only when missing, plus any
# packages named as arguments (scripts/test.sh adds chromium for the board's browser test).
# With --noida-db it also installs the second Kafka implementation the integration tests run
# on (noida-db, pinned, from PyPI) into the project's venv, .venv/.
# Called by the README's two commands (scripts/demo.sh, scripts/test.sh); safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

NOIDA_DB_VERSION=0.2.3
JSONSCHEMA_VERSION=4.26.0
KUBERNETES_VALIDATE_VERSION=1.37.0
with_noida_db=false
extra=()
for argument in "$@"; do
  if [ "$argument" = --noida-db ]; then with_noida_db=true; else extra+=("$argument"); fi
done
needed=(librdkafka-dev libjansson-dev pkg-config kcat "${extra[@]}")
if $with_noida_db && ! python3 -m venv --help >/dev/null 2>&1; then needed+=(python3 python3-venv); fi
# The tests render the Kubernetes manifests with kubectl's kustomize; Debian's kubectl is the
# fallback where the machine has none.
if $with_noida_db && ! command -v kubectl >/dev/null 2>&1; then needed+=(kubernetes-client); fi
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

if $with_noida_db; then
  if ! .venv/bin/python -c "import noida_db" >/dev/null 2>&1 \
      || [ "$(.venv/bin/pip show noida-db 2>/dev/null | sed -n 's/^Version: //p')" != "$NOIDA_DB_VERSION" ]; then
    echo "bootstrap: installing noida-db $NOIDA_DB_VERSION into .venv" >&2
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check "noida-db==$NOIDA_DB_VERSION"
  fi
  # The JSON Schema validator the tests check outputs with (schemas/, scripts/validate-json.py),
  # the example consumer's client (examples/requirements.txt) and the offline validator of the
  # Kubernetes manifests, all pinned.
  if ! .venv/bin/python -c "import jsonschema, confluent_kafka, kubernetes_validate" >/dev/null 2>&1; then
    echo "bootstrap: installing jsonschema, kubernetes-validate and examples/requirements.txt into .venv" >&2
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check "jsonschema==$JSONSCHEMA_VERSION" \
        "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" -r examples/requirements.txt
  fi
fi
