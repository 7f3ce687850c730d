#!/bin/sh
# Run glibc's test suite (make check in every subdirectory, or in those
# GLIBC_SUBDIRS names) on the built libc of ABI, with Debian's list of
# expected failures as Debian's own build runs it
# (debian/testsuite-xfail-debian.mk of the source package base.conf
# names), through scripts/test/run-checks.sh; then write the counts to
# results/glibc-suite.md.  make check runs posix/, misc/ and single
# tests; the series also changes struct pthread, thread exit and fork,
# which tests all over glibc exercise.  Without ARCH, a native ABI
# (x86_64, or i686 with ABI=i686) runs here, on this machine's kernel;
# with ARCH, each ABI of that Debian architecture (or the one ABI names)
# runs on a kernel of its own under qemu-system (Debian's of KERNEL, or
# of the ABI's first suite in abis.table), through
# scripts/target/check-target.sh, and so does an ABI that is not native
# (ABI=x32) without ARCH.  Not in CI: it takes an hour or more on 2
# cores.
#
# Usage: [ABI=NAME] [GLIBC_SUBDIRS=DIRS] [KERNEL=SUITE] \
#          scripts/test/check-full.sh [ARCH]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
arch=${1-}
[ -z "$arch" ] || abi_one "target${KERNEL:+:$KERNEL}" "$arch" "$0" "$@"
abi_load
# A libc that cannot run on this machine's kernel runs on its own.
[ -n "$arch" ] || [ "$abi_kind" = native ] || arch=$abi_arch
. ./base.conf
. scripts/lib/series.sh
# Before anything is written: a second run of this ABI stops here.
. scripts/lib/lock-obj.sh
# The row names the checkout and series the run began with.
provenance=$(results_provenance)

began=$(date +%s)
mkdir -p build/logs
log=build/logs/check-full$suffix.log
: > "$log"
dsc=$(scripts/deb/fetch-source.sh build/deb "$log") || exit 1
# The Debian part of the source package: debian.tar.xz, beside the .dsc.
debian_tar=$(dirname "$dsc")/glibc_$GLIBC_SOURCE_VERSION.debian.tar.xz
# One file for each ABI: runs of several may go on at once.
xfails=$(pwd -P)/build/check-full-xfail-debian$suffix.mk
{ tar -xOJf "$debian_tar" debian/testsuite-xfail-debian.mk > "$xfails.new" \
    && mv "$xfails.new" "$xfails"; } \
  || die "no debian/testsuite-xfail-debian.mk in $debian_tar"

# The row's first cell: the ABI, the subdirectories where they are not
# all of them, and the Debian suite of the kernel where it is not this
# machine's.
subdirs=${GLIBC_SUBDIRS:-all}
what=$ABI
[ "$subdirs" = all ] || what="$ABI: $subdirs"
if [ -z "$arch" ]; then
  kernel="this machine's, $(uname -r)"
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
  # The guest's kernel: check-target.sh records it in the notes that end
  # the results, the one record of a run that outlives it.
  release=$(sed -n 's/^# guest: Linux \([^ ]*\) .*/\1/p' "$results" \
	    2> /dev/null)
  what="$what, on Debian $suite's kernel"
  kernel="${release:--} under $abi_qemu"
fi
# names KIND: the tests of the results whose line starts with KIND.
names ()
{
  tests=$(sed -n "s/^$1: \\([^ ]*\\).*/\\1/p" "$results" | paste -s -d ' ' -)
  printf '%s' "${tests:-none}"
}
if [ -f "$results" ]; then
  # Each failure and each XFAIL by name: a failure counts against the
  # series only where the stock tree passes the test on the same
  # machine (docs/testing.md); Debian's list also names tests of thread
  # exit, robust mutexes and fork, which the series changes, and such a
  # failure is expected only once the stock tree fails it too.
  results_update glibc-suite.md \
    "make check-full: glibc's whole test suite, with Debian's expected failures" \
    "ABI | passed | failed | skipped | the failures | the XFAILs among them | kernel | wall time" \
    "$what" "$what | $(results_counts "$results") | $(names FAIL) | \
$(names XFAIL) | $kernel | $(minutes $(($(date +%s) - began)))"
fi
exit $rc
