#!/bin/sh
# Run the examples and the tests of make check (scripts/test/run-checks.sh)
# on the built libc (build/obj, made by make) inside a real container of
# RUNTIME, Debian 12's podman or docker.io, each with its default seccomp
# profile and capabilities; without RUNTIME, podman then docker.  The
# libc must be built (make check-container builds it first); glibc's
# make check builds the test programs, as in make check.
#
# For each runtime: install it and start its engine where needed
# (scripts/container/engine.sh: dockerd is started for the run and
# stopped after it), import build/debian-root/bookworm.tar as its image
# (scripts/container/image.sh), start a long-running container with the
# checkout mounted at the same path and its cgroup v2 subtree delegated
# to it (scripts/container/container.sh), report what clone3 gives in
# it (scripts/container/clone3-probe.c: the kernel's EINVAL, or a seccomp
# filter's ENOSYS or EPERM), run the examples there, then glibc's
# make check as usual here, handing each test program to the container
# through its test-wrapper (scripts/container/exec-wrapper.sh: podman
# exec or docker exec), as make check-target hands them to a guest; the
# application tests run there through it too.  check-abi and the manual
# pages run here.  Prints run-checks' lines and closing line, results
# in build/check-container-RUNTIME (with TEST, build/check-container-
# RUNTIME-TEST), the logs of its stages in build/logs/check-container-
# RUNTIME/, and, for a whole run, the runtime's row in
# results/container.md; exits 1 if anything failed.  It holds the lock
# of the object directory (scripts/lib/lock-obj.sh) from start to end.
#
# Usage: scripts/container/check-container.sh [podman|docker] [TEST]
#   TEST is as run-checks.sh takes it (posix/tst-spawn, app/NAME,
#   glibc, ...); with TEST, the examples do not run.
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
abi_load
. scripts/lib/lock-obj.sh
rt=${1-}
test=${2-}

if [ -z "$rt" ]; then
  # Each in turn, under the lock this run holds.
  status=0
  for rt in podman docker; do
    printf '==> make check-container RUNTIME=%s\n' "$rt"
    "$0" "$rt" "$test" || status=1
  done
  exit $status
fi
. scripts/container/runtime.sh
. scripts/lib/series.sh
began=$(date +%s)
[ "$(id -u)" = 0 ] || die "needs root (the container engines, nsenter)"

# The built libc (make check-container builds it first, as make check
# does).
[ -f "$obj/libc.so" ] || die "no libc built in $obj: make first"

# A whole run's row of results/container.md is written however the run
# ends; one that stopped early has no counts.
provenance=$(results_provenance)
top=$(pwd -P)
results=$top/build/check-container-$rt
[ -n "$test" ] || rm -f "$results"
version=- oci=- clone3=- started=
finish ()
{
  [ -z "$started" ] || scripts/container/container.sh "$rt" stop
  scripts/container/engine.sh "$rt" stop
  [ -n "$test" ] || results_update container.md \
    "make check-container: the tests of make check in containers" \
    "runtime | version | OCI runtime | clone3 | passed | failed | skipped | wall time" \
    "$rt" "$rt | $version | $oci | $clone3 | $(results_counts "$results") | \
$(minutes $(($(date +%s) - began)))"
}
trap finish EXIT
trap 'exit 130' INT TERM HUP

# The engine, its clients and the container must not hold the lock of
# the object directory: 9>&- (scripts/lib/lock-obj.sh).
scripts/container/engine.sh "$rt" start 9>&- || exit 1
scripts/container/image.sh "$rt" 9>&- || exit 1
rm -rf "$spool"
mkdir -p "$spool"
started=1
oci=$(scripts/container/container.sh "$rt" start 9>&-) || exit 1
case $rt in
  podman) version=$("$cli" version --format '{{.Client.Version}}') ;;
  docker) version=$("$cli" version --format '{{.Server.Version}}') ;;
esac
[ -n "$version" ] || die "$rt version failed"
oci="$oci $("$oci" --version | sed -n '1s/.*version //p')"
printf '==> %s %s (OCI runtime %s), its default seccomp profile\n' \
  "$rt" "$version" "$oci"

wrapper="$top/scripts/container/exec-wrapper.sh $rt"
# run_in COMMAND...: COMMAND in the container.
run_in ()
{
  # shellcheck disable=SC2086
  $wrapper "$@"
}

# What clone3 answers in the container, and here, where the kernel
# answers it.
gcc -O2 -static -o "$spool/clone3-probe" scripts/container/clone3-probe.c \
  || die "cannot build scripts/container/clone3-probe.c"
here=$("$spool/clone3-probe")
there=$(run_in "$spool/clone3-probe" < /dev/null) \
  || die "the probe does not run in $box: $there"
case $there in
  EFAULT|EINVAL) clone3="$there: the kernel's (the profile lets clone3 through)" ;;
  "$here") clone3="$there: the kernel's, as here" ;;
  ENOSYS) clone3="ENOSYS: the seccomp filter's (libc falls back to clone)" ;;
  EPERM) clone3="EPERM: the seccomp filter's (libc falls back to clone)" ;;
  *) clone3="$there: the seccomp filter's (here: $here)" ;;
esac
printf '==> clone3 (NULL, 0) in the container: %s\n' "$clone3"

# The examples, as make runs them, but in the container.
status=0
if [ -z "$test" ]; then
  mkdir -p "$spool/examples"
  for c in examples/*.c; do
    name=$(basename "$c" .c)
    printf '==> example %s\n' "$name"
    { scripts/build/cc-built-libc.sh -o "$spool/examples/$name" "$c" \
	&& run_in "$obj/testrun.sh" "$spool/examples/$name" < /dev/null; } \
      || { echo "example $name failed in the container" >&2; status=1; }
  done
fi

# Where the results come from, which run-checks writes after them.
notes=$(
  checkout_notes
  printf 'container: %s %s, OCI runtime %s, default seccomp profile,' \
    "$rt" "$version" "$oci"
  printf ' --network=none, cgroup2 subtree delegated; clone3: %s;' "$clone3"
  printf ' Linux %s\n' "$(uname -r)")

# Failures of the containers' own (their seccomp profiles, their masked
# /proc), where a list of them exists: check/xfail-container, as
# check/xfail-target for make check-target's machines.
lists=
[ ! -f check/xfail-container ] || lists=xfail-container
TEST_WRAPPER=$wrapper RESULTS=$results RESULTS_NOTES=$notes \
  XFAIL_LISTS=$lists LOGDIR=build/logs/check-container-$rt \
  scripts/test/run-checks.sh ${test:+"$test"} < /dev/null || status=1
exit $status
