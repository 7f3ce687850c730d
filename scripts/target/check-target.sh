#!/bin/sh
# Run the tests make check runs (scripts/test/run-checks.sh) against the
# libcs of Debian architecture ARCH that boot on a kernel of its own
# (abis.table: amd64 runs x86_64, i686 and x32; ABI=NAME runs one of
# them), each built as make cross (make for the native ones) builds it,
# on a real kernel: Debian's own for SUITE (the ABI's first suite of the
# table by default), fetched by scripts/target/fetch-kernel.sh, booted
# under qemu-system with busybox as its userland
# (scripts/target/guest-init.sh).  The checkout is shared with the guest
# over 9p at the same path, so glibc's make check runs here as usual and
# hands each test program to the guest through its test-wrapper
# (scripts/target/guest-test-wrapper.sh), as glibc's own cross-testing
# does over ssh.  Prints run-checks' lines and closing line, results in
# build/check-target-ABI-SUITE (with TEST, build/check-target-ABI-SUITE-
# TEST), the logs of its stages in build/logs/check-target-ABI-SUITE/,
# and, for a whole run, its row in results/check-target.md; exits 1 if
# anything failed.
#
# Usage: [ABI=NAME] scripts/target/check-target.sh ARCH [SUITE] [TEST]
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
arch=${1-}
abi_one "target${2:+:$2}" "$arch" "$0" "$@"
suite=${2:-}
test=${3:-}
abi_load
began=$(date +%s)
. scripts/lib/lock-obj.sh
. scripts/lib/qemu.sh
. scripts/lib/series.sh
: "${suite:=${abi_suites%%,*}}"
case $abi_kernel in
  debian:*) ;;
  *) die "no busybox-static and no Debian kernel for $ABI in Debian 12's" \
	 "archive (a debian-ports architecture): make check-wrapper" \
	 "ARCH=$abi_arch runs the clone3 paths there, on a kernel built" \
	 "from Debian's source" ;;
esac

# A whole run's row of results/check-target.md is written however the
# run ends; one that stopped early has no counts.
provenance=$(results_provenance)
results=$(pwd -P)/build/check-target-$ABI-$suite
[ -n "$test" ] || rm -f "$results"
release=- spool=
finish ()
{
  [ -z "$spool" ] \
    || kill "$(cat "$spool/qemu.pid" 2> /dev/null)" 2> /dev/null
  [ -n "$test" ] || results_update check-target.md \
    "make check-target: the tests of make check on real kernels" \
    "ABI | suite | kernel | passed | failed | skipped | wall time" \
    "$ABI | $suite" "$ABI | $suite | $release | \
$(results_counts "$results") | $(minutes $(($(date +%s) - began)))"
}
trap finish EXIT
trap 'exit 130' INT TERM HUP

qemu_install || exit 1
# The libc as the source is now.  make check would bring it up to date
# too, but only for the subdirectories it tests (check/glibc-subdirs),
# and when the version maps are out of date, glibc's make then rebuilds
# them again and again (they record the subdirectories they were made
# for, and those are not all of them).
scripts/build/configure-glibc.sh && scripts/build/build-glibc.sh || exit 1
kernel=$(scripts/target/fetch-kernel.sh "$ABI" "$suite") || exit 1
release=$(basename "$kernel" | sed 's/^vmlinu[xz]-//')
kdir=$(dirname "$(dirname "$kernel")")
busybox=$(dirname "$kdir")/busybox
[ -x "$busybox" ] || die "no busybox for the kernel of $ABI ($busybox)"

# The physical path: make -C gives the tests that one as their PWD.
top=$(pwd -P)
work=$top/build/target$suffix
spool=$work/spool
# A guest of an earlier run that was killed before it could stop it
# (a run still going would hold the lock of $obj): a qemu-system whose
# command line names this spool, not a process that took its PID since.
old=$(cat "$spool/qemu.pid" 2> /dev/null)
case $(cat "/proc/$old/comm" 2> /dev/null) in
  qemu-system-*)
    tr '\0' '\n' < "/proc/$old/cmdline" | grep -q -F -e "$spool" \
      && kill "$old" ;;
esac
rm -rf "$work"
mkdir -p "$work/root/bin" "$work/root/lib/modules" "$spool"
# The command channel (scripts/target/guest-init.sh): qemu reads channel.in.
mkfifo "$spool/channel.in" "$spool/channel.out" || die "cannot make fifos"
cp "$busybox" "$work/root/bin/busybox"
cp scripts/target/guest-init.sh "$work/root/init"
[ -d "$kdir/lib/modules/$release" ] \
  && cp -R "$kdir/lib/modules/$release" "$work/root/lib/modules/"
# The user database of this machine, as the machine that shares the
# build tree is assumed to have (the tests of ~user), and its network
# files.
mkdir -p "$work/root/etc"
for f in passwd group hosts services protocols; do
  [ -f "/etc/$f" ] && cp "/etc/$f" "$work/root/etc/"
done
# libgcc_s and libstdc++, as on any machine with a compiler's runtime.
scripts/target/copy-compiler-runtime.sh "$work/root" || exit 1
qemu_initramfs "$work/root" "$work/initramfs.cpio"

# The table's CPUs (malta's 5KEf and 4Kc take one: with two, the
# mips64el kernel printed nothing in 9 minutes) and memory (as much as
# the 32-bit machines take: tests that allocate much run at once).
smp=$abi_smp
printf '==> %s on Linux %s (Debian %s) under %s (log: %s)\n' "$ABI" \
  "$release" "$suite" "$abi_qemu" "${work#"$top"/}/console.log"
start=$(date +%s)
# The root that glibc's test-container copies for each of its tests
# (testroot.root) is the guest's own, a tmpfs: 9p cannot hold a unix
# socket bound there (misc/tst-syslog binds /dev/log in it: ENXIO).
# no_file_caps: exec asks 9p for the file's security.capability, and
# qemu's 9p server refuses it with the host's EOPNOTSUPP, 95, which the
# guest takes as its own number: on mips that is ENOTSOCK, which exec
# does not take for "no capabilities", so no program on the share ran
# (exit status 126).  The tests need no file capabilities.  Every error
# number 9p passes on is the host's: a mips guest reads those above 34
# as others (ENOTEMPTY, 39, as EL3HLT); no test has met one so far.
qemu_boot "$kernel" "$work/initramfs.cpio" "$work/console.log" "$smp" \
  "no_file_caps check_top=$top check_spool=$spool \
check_tmpfs=$top/$obj/testroot.root" \
  -virtfs "local,path=$top,mount_tag=top,security_model=none" \
  -device virtio-serial -chardev "pipe,id=commands,path=$spool/channel" \
  -device virtserialport,chardev=commands,name=check.commands &
echo $! > "$spool/qemu.pid"

while [ ! -f "$spool/ready" ]; do
  kill -0 "$(cat "$spool/qemu.pid")" 2> /dev/null \
    || die "the guest stopped before it was ready: ${work#"$top"/}/console.log"
  [ $(($(date +%s) - start)) -lt 600 ] \
    || die "the guest was not ready after 600 s: ${work#"$top"/}/console.log"
  sleep 1
done
printf '    booted in %d s (the guest runs Linux %s)\n' \
  $(($(date +%s) - start)) "$(cat "$spool/ready")"

# Where the results come from, which run-checks writes after them.
notes=$(
  checkout_notes
  printf 'guest: Linux %s (Debian %s), %s, -smp %s -m %s, TIMEOUTFACTOR=%s\n' \
    "$(cat "$spool/ready")" "$suite" "$("$abi_qemu" --version | head -n 1)" \
    "$smp" "$abi_mem" "${TIMEOUTFACTOR:-10}")

# Emulated without KVM, the tests run several times slower than here.
# As many tests at a time as the guest has CPUs, and one more.
# The logs of the stages are the cell's own, as are its results.
JOBS=${JOBS:-$((smp + 1))} TEST_WRAPPER="$top/scripts/target/guest-test-wrapper.sh $spool" \
  TIMEOUTFACTOR=${TIMEOUTFACTOR:-10} \
  RESULTS=$results RESULTS_NOTES=$notes \
  XFAIL_LISTS=xfail-target \
  LOGDIR=build/logs/check-target-$ABI-$suite \
  scripts/test/run-checks.sh $test < /dev/null
status=$?

timeout 10 sh -c 'echo stop > "$1"' sh "$spool/channel.in"
i=0
while kill -0 "$(cat "$spool/qemu.pid")" 2> /dev/null && [ $i -lt 60 ]; do
  sleep 1
  i=$((i + 1))
done
printf '    (%d s in all)\n' $(($(date +%s) - start))
exit $status
