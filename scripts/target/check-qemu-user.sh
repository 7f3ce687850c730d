#!/bin/sh
# Run the tests make check runs (scripts/test/run-checks.sh) against the libc of
# ABI, built as make cross builds it, on this machine's kernel with
# qemu-user emulating the CPU (make check-target EMU=user): the kernel
# hands every program of ABI to qemu-user-static through binfmt_misc,
# so a test runs as glibc's make check runs it natively, and so do the
# programs it starts.  qemu-user is not a kernel: it answers clone3 with
# ENOSYS and clone's CLONE_PIDFD with EINVAL, and runs clone's
# CLONE_VM|CLONE_VFORK as a fork.  This run shows which tests cannot
# tell that from a kernel without those features.  A failure of
# qemu-user's own, shown with the stock tree, is in check/xfail-user
# and reported as XFAIL here alone.  Prints run-checks' lines and
# closing line, results in build/check-target-ABI-user, the
# logs of its stages in build/logs/check-target-ABI-user/; exits 1 if
# anything failed.
#
# binfmt_misc is mounted and qemu-user-static's entry for ABI enabled if
# they are not (scripts/lib/binfmt.sh).  /etc/qemu-binfmt/CPU,
# qemu-user's prefix for the files of the emulated programs, points at
# the compiler's runtime for ABI while the tests run (it must not exist
# before).
#
# Usage: [ABI=NAME] scripts/target/check-qemu-user.sh ARCH [TEST]
#   (the cross-built libcs of Debian architecture ARCH, or the one ABI
#   names)
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
arch=${1-}
abi_one user "$arch" "$0" "$@"
test=${2:-}
abi_load
. scripts/lib/lock-obj.sh
. scripts/lib/series.sh
. scripts/lib/binfmt.sh
# qemu-user-static's name for the CPU (its binfmt_misc entry is
# qemu-NAME).
cpu=$abi_user_cpu

binfmt_enable "$cpu"

scripts/build/install-deps.sh || exit 1
scripts/build/configure-glibc.sh && scripts/build/build-glibc.sh || exit 1

# qemu-user looks up the files a program opens below a prefix first:
# the compiler's runtime for ABI goes there.  Not QEMU_LD_PREFIX, which
# a test that spawns with an empty environment does not pass on: the
# prefix qemu-user-static takes without it, /etc/qemu-binfmt/CPU, for
# the time of the run.
work=$(pwd -P)/build/user$suffix
rm -rf "$work"
mkdir -p "$work/root"
scripts/target/copy-compiler-runtime.sh "$work/root" || exit 1
prefix=/etc/qemu-binfmt/$cpu
# Ours, left by a run of this checkout that was killed (SIGKILL): the
# lock of $obj says that run is over.
[ -L "$prefix" ] && [ "$(readlink "$prefix")" = "$work/root" ] \
  && rm -f "$prefix"
[ -e "$prefix" ] || [ -L "$prefix" ] \
  && die "$prefix exists: qemu-$cpu-static would look up files there"
mkdir -p /etc/qemu-binfmt && ln -s "$work/root" "$prefix" \
  || die "cannot make $prefix"
trap 'rm -f "$prefix"' EXIT
trap 'exit 130' INT TERM HUP
unset QEMU_LD_PREFIX

version=$(qemu-$cpu-static --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
printf '==> %s under qemu-%s-static %s on Linux %s\n' "$ABI" "$cpu" \
  "$version" "$(uname -r)"
[ -n "$("$obj/elf/ld.so" --version 2> /dev/null)" ] \
  || die "$obj/elf/ld.so does not run under qemu-$cpu-static"

# glibc runs the tests of a cross build only through a test-wrapper:
# env, as the kernel itself runs them, behind scripts/target/oom-first.sh.
# Emulated, they run several times slower.
notes=$(
  checkout_notes
  printf 'Linux %s here, qemu-%s-static %s, TIMEOUTFACTOR=%s\n' \
    "$(uname -r)" "$cpu" "$version" "${TIMEOUTFACTOR:-10}")
start=$(date +%s)
TEST_WRAPPER="$(pwd -P)/scripts/target/oom-first.sh env" \
  TIMEOUTFACTOR=${TIMEOUTFACTOR:-10} \
  RESULTS=$(pwd -P)/build/check-target-$ABI-user RESULTS_NOTES=$notes \
  XFAIL_LISTS=xfail-user \
  LOGDIR=build/logs/check-target-$ABI-user \
  scripts/test/run-checks.sh $test < /dev/null
status=$?
printf '    (%d s in all)\n' $(($(date +%s) - start))
exit $status
