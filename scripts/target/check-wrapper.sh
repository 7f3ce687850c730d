#!/bin/sh
# Run tests/clone3-paths on a real kernel of the ABI: Debian's own kernel
# (scripts/target/fetch-kernel.sh; for ppc64, hppa, m68k and sparc64 one built
# from Debian's kernel source, which takes long the first time) booted
# under qemu-system, with the program linked statically against the
# libc of make cross as the initramfs's /init.  It also runs glibc's
# static tests of the clone3 paths (tst-clone3-wrapper and the
# __clone_internal tests), made against the same libc, from /tests.
# qemu-user cannot do this: it answers clone3 with ENOSYS, so the clone3
# wrapper never runs there.  Prints the program's lines and its closing
# line; exits 1 unless everything passed.
#
# Usage: [ABI=NAME] scripts/target/check-wrapper.sh ARCH [SUITE]
#   (every libc of Debian architecture ARCH, or the one ABI names)
set -u
. scripts/lib/common.sh
. scripts/lib/abi.sh
arch=${1-}
abi_one wrapper "$arch" "$0" "$@"
abi_load
suite=${2:-${abi_suites%%,*}}
. scripts/lib/lock-obj.sh
. scripts/lib/qemu.sh
. scripts/lib/xfail.sh

qemu_install || exit 1
# The libc as the source is now, as make cross builds it.
scripts/build/install-deps.sh || exit 1
scripts/build/configure-glibc.sh && scripts/build/build-glibc.sh || exit 1

# shellcheck disable=SC2086
kernel=$(scripts/target/fetch-kernel.sh "$ABI" $suite 9>&-) || exit 1
work=build/wrapper$suffix
rm -rf "$work"
mkdir -p "$work/root"
STATIC=1 scripts/build/cc-built-libc.sh -o "$work/root/init" tests/clone3-paths.c \
  || die "cannot link tests/clone3-paths.c against $obj/libc.a"
mkdir "$work/root/tests"
for t in tst-clone3-wrapper tst-clone3-internal tst-align-clone-internal \
	 tst-misalign-clone-internal; do
  # Made (again) against the libc as it is now, as make check would, and
  # without them the run proves less than it says: no partial runs.
  make -r -C build/src/misc objdir="$(pwd)/$obj" subdir=misc ..=../ \
    "$(pwd)/$obj/misc/$t" >> "$work/tests-build.log" 2>&1 9>&- \
    || die "cannot build $obj/misc/$t: $work/tests-build.log"
  cp "$obj/misc/$t" "$work/root/tests/"
done
qemu_initramfs "$work/root" "$work/initramfs.cpio"

printf '==> %s: %s under %s (log: %s/console.log)\n' "$ABI" \
  "$(basename "$kernel")" "$abi_qemu" "$work"
start=$(date +%s)
qemu_limit=900
qemu_boot "$kernel" "$work/initramfs.cpio" "$work/console.log" 1 "" &
guest=$!
trap 'kill $guest 2> /dev/null' EXIT
trap 'exit 130' INT TERM HUP
wait $guest
rc=$?
tr -d '\r' < "$work/console.log" \
  | grep -E '^(ok|FAIL|unsupported|info|warning): |^clone3-paths: ' \
  | sed 's/^/    /'
printf '    (%d s, qemu exit status %d)\n' $(($(date +%s) - start)) $rc
# Every kernel booted here has cgroup2.  Where the libc has a clone3
# wrapper and the kernel clone3, a check skipped is a path not taken,
# and fails the run.  The ports without a wrapper must skip exactly the
# checks that need one (named as clone3-paths names them); sparc64's
# kernel has no clone3 at all.
expected=
[ "$abi_clone3" = wrapper ] || expected='glibc test tst-clone3-wrapper
posix_spawn into a cgroup'
[ "$abi_clone3" != no-syscall ] || expected="$expected
clone3
pidfd_fork into a cgroup"
skipped=$(tr -d '\r' < "$work/console.log" \
	  | sed -n 's/^unsupported: \([^:]*\):.*/\1/p' | sort)
expected=$(printf '%s\n' "$expected" | grep . | sort)
[ "$skipped" = "$expected" ] \
  || die "$ABI: skipped other checks than expected; see $work/console.log"
# A glibc test that fails with Debian's own libc for the ABI too is in
# check/xfail (as misc/NAME): reported, and its failure not counted.
# One listed that passed is reported as XPASS, as make check does.
xfailed=0
for t in $(tr -d '\r' < "$work/console.log" \
	     | sed -n -E 's/^(FAIL|ok): glibc test ([^ ]*)$/\1:\2/p'); do
  name=misc/${t#*:} reason=
  case $t in FAIL:*) result=FAIL ;; *) result=PASS ;; esac
  xfail_apply "$work/console.log" xfail
  case $result in
    XFAIL) xfailed=$((xfailed + 1)) ;;
    FAIL|PASS) continue ;;
  esac
  printf '    %s: %s (%s)\n' "$result" "$name" "$reason"
done
tr -d '\r' < "$work/console.log" \
  | grep -q "^clone3-paths: $xfailed failed, $(printf '%s\n' "$expected" \
      | grep -c .) unsupported" \
  || die "$ABI: failed; see $work/console.log"
