#!/bin/sh
# Run glibc tests in a build tree of make deb, in its root, as its
# builder, as debian/rules runs them (make -C build-tree/FLAVOUR test
# t=TEST, with every signal but SIGHUP at its default action, no descriptor
# but 0, 1 and 2), and print each one's result line.  The tree is
# build/deb's, or with DEB_SERIES=no build/deb-stock's (the stock
# package, no series): a failure of Debian's test run is shown to fail
# without the series too by running it in both.  FLAVOUR is a directory
# of build-tree/ (amd64-libc, amd64-i386...).
#
# Exits 1 unless every test passed.  The output of each is in
# build/logs/deb-tree-test-FLAVOUR-TEST.log ('/' in TEST as '-';
# deb-stock-tree-test-... for the stock tree).
#
# Usage: [DEB_SERIES=no] scripts/deb/tree-test.sh FLAVOUR TEST...
set -u
. scripts/lib/common.sh
usage="usage: [DEB_SERIES=no] scripts/deb/tree-test.sh FLAVOUR TEST..."
flavour=${1:?$usage}
shift
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
. scripts/deb/vars.sh
# A cross build's tree: its root is gone, and no test program of it
# runs here.
[ "$arch" = "$build_arch" ] \
  || die "ARCH=$arch: the tests run in the tree of this machine's architecture"


[ "$(id -u)" = 0 ] || die "needs root (a chroot)"
[ -d "$src/build-tree/$flavour" ] \
  || die "no $src/build-tree/$flavour: make deb first"
builder_owns_src
deb_lock
trap 'scripts/deb/root.sh unmount "$root"' EXIT
trap 'exit 1' INT TERM HUP QUIT
scripts/deb/root.sh mount "$root" || exit 1
mount_deb
# The tree as it was built: every patch of its series applied (a tree
# of make deb before deb-build kept them was left unpatched, and a test
# run there would rebuild the libc without them).
grep -v '^[[:space:]]*\(#\|$\)' "$src/debian/patches/series" \
  | sed 's/[[:space:]].*//' | cmp -s - "$src/.pc/applied-patches" \
  || die "the patches of $src are not all applied: make deb again"
mkdir -p build/logs
status=0
for t in "$@"; do
  # glibc's test target removes the .out, not the result: without this,
  # a test that no longer builds would show the result of its last run.
  result=$src/build-tree/$flavour/$t.test-result
  rm -f "$result"
  log=build/logs/$(basename "$deb")-tree-test-$flavour-$(echo "$t" | tr / -).log
  as_builder "LANG= LANGUAGE= make -C $inside/glibc-2.36/build-tree/$flavour \
		test t=$t" > "$log" 2>&1
  if [ -f "$result" ]; then
    head -n 1 "$result"
  else
    echo "FAIL: $t (no result: $log)"
  fi
  grep -q '^PASS' "$result" 2> /dev/null || status=1
done
exit $status
