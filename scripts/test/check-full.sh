#!/bin/sh
# Run glibc's whole test suite (make check in every subdirectory) on the
# built libc of ABI, x86_64 or i686 (make check-full ABI=i686), with
# Debian's list of expected failures as Debian's own build runs it
# (debian/testsuite-xfail-debian.mk of the source package base.conf
# names), through scripts/test/run-checks.sh; then write the counts to
# results/glibc-suite.md.  make check runs posix/, misc/ and single
# tests; the series also changes struct pthread, thread exit and fork,
# which tests all over glibc exercise.  Not in CI: it takes an hour or
# more on 2 cores.
#
# Usage: [ABI=x86_64|i686] scripts/test/check-full.sh
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
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
xfails=build/check-full-xfail-debian.mk
tar -xOJf "$debian_tar" debian/testsuite-xfail-debian.mk > "$xfails" \
  || die "no debian/testsuite-xfail-debian.mk in $debian_tar"

# run-checks.sh writes the results of a run of "glibc" to RESULTS-glibc.
results=build/check-full$suffix-glibc
RESULTS=build/check-full$suffix GLIBC_SUBDIRS=all DEBIAN_XFAILS=$xfails \
  scripts/test/run-checks.sh glibc
rc=$?
if [ -f "$results" ]; then
  # Each XFAIL by name: Debian's list also names tests of thread exit,
  # robust mutexes and fork, which the series changes; such a failure
  # is expected only once the stock tree fails it too.
  xfail=$(sed -n 's/^XFAIL: \([^ ]*\).*/\1/p' "$results" | paste -s -d ' ' -)
  results_update glibc-suite.md \
    "make check-full: glibc's whole test suite, with Debian's expected failures" \
    "ABI | passed | failed | skipped | the XFAILs among them | wall time" \
    "$ABI" "$ABI | $(results_counts "$results") | ${xfail:-none} | \
$(minutes $(($(date +%s) - began)))"
fi
exit $rc
