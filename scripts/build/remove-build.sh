#!/bin/sh
# make clean: remove build/.  The Debian roots in it first (make deb's
# and make deb-test's, of each architecture, the stock package's, an
# interrupted debootstrap's), each through scripts/deb/root.sh, which
# unmounts what is mounted in it: nothing may be mounted in build/ when
# it goes.  Not while one of the scripts of make deb runs: it holds a
# lock on the checkout's directory (deb_lock in scripts/deb/vars.sh),
# which this takes and holds until build/ is gone.
#
# Usage: scripts/build/remove-build.sh
set -u
[ -d build ] || exit 0
exec 9< .
if ! flock -n 9; then
  echo "make clean: make deb, make deb-test or deb-tree-test runs" \
       "(a lock on $(pwd))" >&2
  exit 1
fi
for r in build/*-root build/*-root-* build/debian-root/tmp.*; do
  [ ! -f "$r/.debian-root" ] || scripts/deb/root.sh remove "$r" || exit 1
done
echo rm -rf --one-file-system build
rm -rf --one-file-system build
