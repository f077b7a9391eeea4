#!/usr/bin/env bash
# Runs the processor, failure, output-refusal, poison-pill, hostile-input and transaction
# tests built with AddressSanitizer and ThreadSanitizer, each in its own build folder
# (.build-address, .build-thread). A report makes the process it is in exit (halt_on_error,
# inherited by the child processes the tests start), and the test that started it fails.
# SANITIZERS=address or SANITIZERS=thread runs one of them (default: both).
#
# ThreadSanitizer needs a librdkafka whose threads it can see: Debian's starts them with C11
# thrd_create, which this toolchain's TSan runtime does not register (TSan then crashes in its
# allocator on the first allocation of such a thread). So for the thread run this script
# builds librdkafka 2.0.2 from Debian's own source package with pthreads
# (--disable-c11threads) into .build-thread/librdkafka, and builds and runs against it.
# Our locks are NIOLockedValueBox (pthread mutexes, which TSan sees), not Synchronization's
# Mutex, whose futex TSan cannot see (it reported the accesses inside withLock as races).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
filter='ProcessorBehaviourTests|StateRestoreTests|FailureTests|HostileInputTests|OutputRefusalTests|PoisonPillTests|TransactionFlowTests'

librdkafka_with_pthreads() {
  local prefix="$PWD/.build-thread/librdkafka"
  [ -f "$prefix/lib/pkgconfig/rdkafka.pc" ] && return
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      | "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/zonestream-src.sources >/dev/null
  fi
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev >/dev/null
  local work="$PWD/.build-thread/librdkafka-source"
  rm -rf "$work" && mkdir -p "$work"
  (cd "$work" && apt-get source -qq librdkafka=2.0.2-1 >/dev/null)
  (cd "$work"/librdkafka-2.0.2 \
    && ./configure --prefix="$prefix" --disable-c11threads --disable-ssl --disable-gssapi --disable-sasl \
         --disable-zstd --disable-curl >/dev/null \
    && make -j2 libs >/dev/null && make install >/dev/null)
}

for sanitizer in ${SANITIZERS:-address thread}; do
  environment=()
  if [ "$sanitizer" = thread ]; then
    mkdir -p .build-thread
    librdkafka_with_pthreads
    environment=(PKG_CONFIG_PATH="$PWD/.build-thread/librdkafka/lib/pkgconfig"
                 LD_LIBRARY_PATH="$PWD/.build-thread/librdkafka/lib")
  fi
  echo "sanitize: building with -sanitize=$sanitizer" >&2
  env "${environment[@]}" swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build-$sanitizer"
  echo "sanitize: running the tests under $sanitizer" >&2
  env "${environment[@]}" ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" TSAN_OPTIONS="halt_on_error=1" \
    swift test --skip-build --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" --filter "$filter"
done
