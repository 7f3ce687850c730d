#!/bin/sh
# Install, with apt-get, the Debian packages that building and testing
# the series need and that are missing, and say which ones.  The
# glibc-source package is installed at the version pinned in base.conf.
# With ABI set to a cross ABI of scripts/lib/abi.sh, also Debian 12's
# cross compilers for it and its libc and kernel headers.  PACKAGEs are
# further ones a caller needs (scripts/target/build-kernel.sh).
#
# Usage: [ABI=...] scripts/build/install-deps.sh [PACKAGE...]
set -u
. scripts/lib/common.sh
. ./base.conf

# The i686 libc needs gcc -m32: gcc-12-multilib, not the gcc-multilib
# metapackage, which conflicts with every cross compiler of Debian 12.
packages="gcc g++ make gawk bison gperf python3 ccache git xz-utils
	  linux-libc-dev gcc-12-multilib g++-12-multilib strace groff-base $*"
if [ -n "${ABI-}" ]; then
  . scripts/lib/abi.sh
  abi_load
  if [ -n "$cross" ]; then
    # Package names spell the triplet with dashes (x86-64); with
    # --no-install-recommends the -cross libraries must be named, as the
    # table's cross column does.
    triplet=$(echo "$abi_compiler" | tr _ -)
    packages="$packages gcc-$triplet g++-$triplet
	      libc6-dev-${abi_cross%%:*}-cross
	      linux-libc-dev-${abi_cross#*:}-cross"
    # An ABI that the compiler of another builds with an option (n32 of
    # the mips64el compiler) needs its libgcc and libstdc++ from the
    # compiler's multilib package.
    [ "$abi_compiler" = "$host" ] \
      || packages="$packages gcc-12-multilib-$triplet g++-12-multilib-$triplet"
  fi
fi


installed_version ()
{
  dpkg-query -W -f='${Status} ${Version}\n' "$1" 2> /dev/null \
    | sed -n 's/^install ok installed //p'
}

missing=
for p in $packages; do
  [ -n "$(installed_version "$p")" ] || missing="$missing $p"
done
[ "$(installed_version glibc-source)" = "$GLIBC_SOURCE_VERSION" ] \
  || missing="$missing glibc-source=$GLIBC_SOURCE_VERSION"
[ -z "$missing" ] && exit 0

grep -q '^ID=debian' /etc/os-release 2> /dev/null \
  && grep -q '^VERSION_ID="12"' /etc/os-release \
  || die "this is not Debian 12; install these by hand:$missing"
command -v apt-get > /dev/null || die "no apt-get; install by hand:$missing"
[ "$(id -u)" -eq 0 ] || die "run as root to install:$missing"

printf '==> installing:%s\n' "$missing"
export DEBIAN_FRONTEND=noninteractive
mkdir -p build/logs
log=build/logs/install-deps.log
apt-get update > "$log" 2>&1 \
  || die "apt-get update failed (no network?); see $log"
# shellcheck disable=SC2086
if ! apt-get install -y --no-install-recommends $missing >> "$log" 2>&1; then
  case $missing in
    *glibc-source=*)
      apt-cache policy glibc-source >> "$log" 2>&1
      die "could not install$missing; if the archive no longer has" \
	  "glibc-source $GLIBC_SOURCE_VERSION, re-pin base.conf as it" \
	  "explains.  Details: $log" ;;
  esac
  die "apt-get install failed; see $log"
fi
