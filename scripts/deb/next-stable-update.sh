#!/bin/sh
# Print the version of the next Debian stable update of a package whose
# version is VERSION, a stable update itself (+debNNuM): +debNNu(M+1).
# deb-add-series places the series' version between the two, and
# deb-test plays that update to apt.  Exits 1 on a version that is not
# a stable update: where it sorts against the next one is not known.
#
# Usage: scripts/deb/next-stable-update.sh VERSION
set -u
[ $# = 1 ] || { echo "usage: $0 VERSION" >&2; exit 2; }
prefix=$(printf '%s\n' "$1" \
	   | sed -n 's/^\(.*+deb[0-9][0-9]*u\)[0-9][0-9]*$/\1/p')
if [ -z "$prefix" ]; then
  echo "next-stable-update: $1: not a stable update (+debNNuM)" >&2
  exit 1
fi
update=${1#"$prefix"}
# Without leading zeros, which the shell would read as octal.
update=$(printf '%s\n' "$update" | sed 's/^0*\(.\)/\1/')
echo "$prefix$((update + 1))"
