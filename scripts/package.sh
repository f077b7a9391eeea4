#!/usr/bin/env bash
# Builds ZoneStream's Debian package: a release binary with the Swift runtime linked in
# (--static-swift-stdlib, so the host needs no Swift toolchain), its systemd unit, the default
# settings as a configuration file and a system user made at install.
#   bash scripts/package.sh            # writes .build-release/debian/zonestream_VERSION_ARCH.deb
#   sudo apt-get install ./.build-release/debian/zonestream_*.deb
# The release build has its own build folder, .build-release: linking the standard library
# statically changes every compile command, so sharing .build would rebuild everything each
# time a debug and a release build took turns.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh dpkg-dev

scratch=.build-release
# Built as the Dockerfile's build stage builds it: from a directory holding exactly what its
# COPY lines name (so the image and the package are the same build, and a file the build needs
# that the Dockerfile forgets fails here), with the checkout's commit passed along for
# `zonestream --version` (the copy has no git history).
context="$scratch/context"
rm -rf "$context"
mkdir -p "$context"
awk '/^FROM /{stage++} stage==1 && /^COPY / && !/--from/ {print $2, $3}' Dockerfile |
while read -r source destination; do
    [ "$destination" = "./" ] && destination="$source"
    mkdir -p "$context/$(dirname "$destination")"
    cp -a "$source" "$context/$destination"  # timestamps kept: the next build is incremental
done
git rev-parse --short=12 HEAD > "$context/.build-commit" 2>/dev/null || rm -f "$context/.build-commit"
swift build -c release --product zonestream --static-swift-stdlib --package-path "$context" --scratch-path "$scratch"
binary="$scratch/release/zonestream"

# The version is the binary's own (zonestream --version: "zonestream 0.7.0 (commit ...)").
version=$("$binary" --version | sed -n 's/^zonestream \([0-9][0-9.]*\).*/\1/p')
[ -n "$version" ] || { echo "package: cannot read the version from $binary --version" >&2; exit 1; }
architecture=$(dpkg --print-architecture)
output="$scratch/debian"
root="$output/zonestream_${version}_${architecture}"
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/zonestream" \
    "$root/usr/share/doc/zonestream"

install -m 0755 --strip "$binary" "$root/usr/bin/zonestream"
install -m 0644 deploy/systemd/zonestream.service "$root/lib/systemd/system/zonestream.service"
install -m 0644 config/zonestream.yaml "$root/etc/zonestream/zonestream.yaml"
# The README, the docs and every file they link to (the dashboard, the alert rules, the
# schemas, the Kubernetes files, the benchmarks' results), followed until no page links
# further, in the repository's layout, so their links hold on the host.
doc="$root/usr/share/doc/zonestream"
pending=(README.md CHANGELOG.md docs/how-to/*.md docs/reference/*.md docs/explanation/*.md)
declare -A packaged=()
while [ "${#pending[@]}" -gt 0 ]; do
    page=${pending[0]}
    pending=("${pending[@]:1}")
    [ -z "${packaged[$page]:-}" ] || continue
    packaged[$page]=1
    if [ -d "$page" ]; then
        mkdir -p "$doc/$page"
        cp -R "$page/." "$doc/$page/"
        while IFS= read -r inner; do pending+=("$inner"); done < <(find "$page" -name '*.md')
        continue
    fi
    install -m 0644 -D "$page" "$doc/$page"
    case "$page" in *.md) ;; *) continue ;; esac
    while IFS= read -r link; do
        target=$(realpath -m --relative-to=. "$(dirname "$page")/$link")
        case "$target" in ..* | .build* | .git*) continue ;; esac
        [ -e "$target" ] && pending+=("$target")
    done < <(grep -o '](\([^):# ]*\)' "$page" | sed 's/^](//' | sort -u)
done
install -m 0755 deploy/debian/postinst deploy/debian/prerm deploy/debian/postrm "$root/DEBIAN/"
echo /etc/zonestream/zonestream.yaml > "$root/DEBIAN/conffiles"

# The shared libraries the binary links (librdkafka, jansson, the C and C++ runtimes), with
# the versions this build saw, as dpkg-shlibdeps finds them.
shlibs=$(mktemp -d)
trap 'rm -rf "$shlibs"' EXIT
mkdir -p "$shlibs/debian"
printf 'Source: zonestream\n\nPackage: zonestream\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$OLDPWD/$root/usr/bin/zonestream" 2>/dev/null \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCHITECTURE@/$architecture/" -e "s/@DEPENDS@/$depends/" \
    -e "s/@INSTALLED_SIZE@/$installed_size/" deploy/debian/control > "$root/DEBIAN/control"

dpkg-deb --root-owner-group --build "$root" "$output/zonestream_${version}_${architecture}.deb" >/dev/null
rm -rf "$root"
echo "$output/zonestream_${version}_${architecture}.deb"
