#!/bin/sh
# Download Debian 12's glibc source package, the version base.conf names,
# into DIR with apt-get source --download-only (which checks it against
# the archive's signed lists), unless DIR has it already, and print the
# path of its .dsc.  Its output goes to LOG.  make deb unpacks it; make
# check-full takes Debian's list of expected test failures from it.
#
# Usage: scripts/deb/fetch-source.sh DIR LOG
set -u
. scripts/lib/common.sh
. ./base.conf
. scripts/deb/vars.sh
dir=${1:?usage: scripts/deb/fetch-source.sh DIR LOG}
log=${2:?usage: scripts/deb/fetch-source.sh DIR LOG}
top=$(pwd)
dsc=$dir/glibc_$GLIBC_SOURCE_VERSION.dsc
if [ ! -f "$dsc" ]; then
  mkdir -p "$dir"
  (cd "$dir" && "$top/scripts/lib/debian-apt.sh" bookworm source apt-get source \
     --download-only "glibc=$GLIBC_SOURCE_VERSION") >> "$log" 2>&1 \
    || die "no source package glibc $GLIBC_SOURCE_VERSION in the archive" \
	   "$snapshot_hint: $log"
fi
echo "$dsc"
