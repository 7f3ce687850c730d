#!/bin/sh
# Refuse to build on any base but the one pinned in base.conf: the
# glibc-source package version and the sha256 of its tarball.
#
# Usage: scripts/build/check-base.sh
set -u
. ./base.conf

fail ()
{
  printf 'check-base: %s\n' "$*" >&2
  printf 'check-base: the series is pinned to glibc-source %s (base.conf);\n' \
    "$GLIBC_SOURCE_VERSION" >&2
  printf 'check-base: base.conf says how to re-pin it to another base.\n' >&2
  exit 1
}

case $GLIBC_SOURCE_VERSION in
  2.36-9+deb12u*) ;;
  *) fail "base.conf names $GLIBC_SOURCE_VERSION, not a Debian 12 glibc 2.36" ;;
esac

version=$(dpkg-query -W -f='${Version}' glibc-source 2> /dev/null)
[ "$version" = "$GLIBC_SOURCE_VERSION" ] \
  || fail "installed glibc-source is '${version:-none}'"
[ -f "$GLIBC_TARBALL" ] || fail "$GLIBC_TARBALL is missing"
sum=$(sha256sum "$GLIBC_TARBALL" | cut -d ' ' -f 1)
[ "$sum" = "$GLIBC_TARBALL_SHA256" ] \
  || fail "$GLIBC_TARBALL has sha256 $sum"
exit 0
