#!/bin/sh
# The image the tests of RUNTIME run in, imported into its store with
# "podman import" or "docker import" (no registry) from the Debian 12
# root that make deb uses, build/debian-root/bookworm.tar
# (debootstrap's minbase with build-essential).  Where the tarball is
# missing, scripts/deb/root.sh makes it, as for make deb (about a
# minute; it unpacks it once in build/container/root, removed again).
# The image is imported again when the tarball changes: its label
# pidfd-check.tarball records the tarball it came from.
#
# Usage: [DEBIAN_MIRROR=URL] scripts/container/image.sh podman|docker
set -u
. scripts/lib/common.sh
rt=${1-}
. scripts/container/runtime.sh
tarball=build/debian-root/bookworm.tar

if [ ! -f "$tarball" ]; then
  scripts/deb/root.sh make build/container/root \
    && scripts/deb/root.sh remove build/container/root || exit 1
  [ -f "$tarball" ] || die "scripts/deb/root.sh made no $tarball"
fi
# What the tarball is: its size, time and the packages it was made with.
stamp=$(printf '%s %s' "$(stat -c '%s-%Y' "$tarball")" \
	  "$(cat "$tarball.made" 2> /dev/null)" | tr -c 'A-Za-z0-9.,:/+-' _)
have=$("$cli" image inspect \
	 --format '{{index .Config.Labels "pidfd-check.tarball"}}' \
	 "$image" 2> /dev/null)
[ "$have" = "$stamp" ] && exit 0
echo "==> $rt import $tarball as $image"
# The image of an older tarball goes: it would stay, untagged.
[ -z "$have" ] || "$cli" rmi "$image" > /dev/null 2>&1
quiet=
[ "$rt" = docker ] || quiet=--quiet
"$cli" import $quiet --change "LABEL pidfd-check.tarball=$stamp" \
  "$tarball" "$image" > /dev/null || die "$rt import failed"
