#!/bin/sh
# Run glibc's test suite (make check in every subdirectory, or in those
# GLIBC_SUBDIRS names) on the built libc of ABI, with Debian's list of
# expected failures as Debian's own build runs it
# (debian/testsuite-xfail-debian.mk of the source package base.conf
# names), through scripts/test/run-checks.sh; then write the counts to
# results/glibc-suite.md.  make check runs posix/, misc/ and single
# tests; the series also changes struct pthread, thread exit and fork,
# which tests all over glibc exercise.  The native ABIs (x86_64, and
# i686 with ABI=i686) run here; with ARCH, the ABI of that Debian
# architecture runs on its own kernel (KERNEL, the suite, or the
# table's first) through scripts/target/check-target.sh.  Not in CI: it
# takes an hour or more on 2 cores.
#
# Usage: [ABI=NAME] [GLIBC_SUBDIRS=DIRS] [KERNEL=SUITE] \
#          scripts/test/check-full.sh [ARCH]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
arch=${1-}
[ -z "$arch" ] || abi_one target "$arch" "$0" "$@"
abi_load
. ./base.conf
. scripts/lib/series.sh

began=$(date +%s)
mkdir -p build/logs
log=build/logs/check-full$suffix.log
: > "$log"
dsc=$(scripts/deb/fetch-source.sh build/deb "$log") || exit 1
# The Debian part of the source package: debian.tar.xz, beside the .dsc.
debian_tar=$(dirname "$dsc")/glibc_$GLIBC_SOURCE_VERSION.debian.tar.xz
xfails=$(pwd -P)/build/check-full-xfail-debian.mk
tar -xOJf "$debian_tar" debian/testsuite-xfail-debian.mk > "$xfails" \
  || die "no debian/testsuite-xfail-debian.mk in $debian_tar"

# The row's first cell: the ABI, and the subdirectories where they are
# not all of them.
subdirs=${GLIBC_SUBDIRS:-all}
what=$ABI
[ "$subdirs" = all ] || what="$ABI: $subdirs"
if [ "$abi_kind" = native ]; then
  # run-checks.sh writes the results of a run of "glibc" to RESULTS-glibc.
  results=build/check-full$suffix-glibc
  RESULTS=build/check-full$suffix GLIBC_SUBDIRS=$subdirs \
    DEBIAN_XFAILS=$xfails scripts/test/run-checks.sh glibc
  rc=$?
else
  suite=${KERNEL:-${abi_suites%%,*}}
  [ -n "$suite" ] || die "$ABI has no Debian kernel to run its tests on"
  results=build/check-target-$ABI-$suite-glibc
  rm -f "$results"
  GLIBC_SUBDIRS=$subdirs DEBIAN_XFAILS=$xfails \
    scripts/target/check-target.sh "$abi_arch" "$suite" glibc
  rc=$?
  # The guest's kernel, from the notes that end the results.
  release=$(sed -n 's/^# guest: Linux \([^ ]*\) .*/\1/p' "$results" \
	    2> /dev/null)
  what="$what, on Linux ${release:-?} under $abi_qemu"
fi
# names KIND: the tests of the results whose line starts with KIND.
names ()
{
  names=$(sed -n "s/^$1: \\([^ ]*\\).*/\\1/p" "$results" | paste -s -d ' ' -)
  printf '%s' "${names:-none}"
}
if [ -f "$results" ]; then
  # Each failure and each XFAIL by name: a failure counts against the
  # series only where the stock tree passes the test on the same
  # machine (docs/testing.md); Debian's list also names tests of thread
  # exit, robust mutexes and fork, which the series changes, and such a
  # failure is expected only once the stock tree fails it too.
  results_update glibc-suite.md \
    "make check-full: glibc's whole test suite, with Debian's expected failures" \
    "ABI | passed | failed | skipped | the failures | the XFAILs among them | wall time" \
    "$what" "$what | $(results_counts "$results") | $(names FAIL) | \
$(names XFAIL) | $(minutes $(($(date +%s) - began)))"
fi
exit $rc
